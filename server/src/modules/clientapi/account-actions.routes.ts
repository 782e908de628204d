import type { FastifyInstance } from 'fastify';
import { clientWritesApi } from '#core/api/client-writes';
import { type AccountAction, accountAction } from './account-actions.service.js';
import { entityRoute } from './client-route.js';
import { clientWrite } from './client-write-route.js';

/** The scope each action needs: its own, as apps ask for them. */
const SCOPES: Record<AccountAction, string> = {
  follow: 'write:follows',
  unfollow: 'write:follows',
  block: 'write:blocks',
  unblock: 'write:blocks',
  mute: 'write:mutes',
  unmute: 'write:mutes',
};

/** Follows, blocks and mutes of accounts (a group's: joining and leaving), each answering the Relationship after. */
export function accountActionRoutes(app: FastifyInstance): void {
  for (const action of Object.keys(SCOPES) as AccountAction[]) {
    app.route({
      ...entityRoute(clientWritesApi[action]),
      handler: clientWrite(app, SCOPES[action], (ctx, request, viewer) => accountAction(ctx, viewer, { id: (request.params as { id: string }).id, action })),
    });
  }
}
