import type { FastifyInstance } from 'fastify';
import { clientReadsApi } from '#core/api/client-reads';
import { contextOf } from '../../lib/service-context.js';
import { followList, getAccount, lookupAccount, relationships } from './accounts.service.js';
import { requireScope } from './client-caller.js';
import { accountItems, arrayParam, entityRoute, idOf, pagedByIdRoute, pagedStatuses, readByIdRoute, readerOf } from './client-route.js';
import { type AccountStatusesQuery, accountStatuses } from './timelines.service.js';

/** Accounts: one, by name, its statuses, its followers and follows, and the caller's standing towards some. */
export function accountRoutes(app: FastifyInstance): void {
  app.route({
    ...entityRoute(clientReadsApi.lookup),
    handler: async (request) => lookupAccount(contextOf(app), await readerOf(request), (request.query as { acct: string }).acct),
  });
  app.route({
    ...entityRoute(clientReadsApi.relationships),
    handler: async (request) => {
      const viewer = await requireScope(request, 'read:follows');
      return relationships(contextOf(app), viewer, arrayParam(request.query, 'id'));
    },
  });
  app.route(readByIdRoute(app, clientReadsApi.account, getAccount));
  app.route({
    ...entityRoute(clientReadsApi.accountStatuses),
    handler: async (request, reply) => {
      const page = await accountStatuses(contextOf(app), await readerOf(request), { id: idOf(request), query: request.query as AccountStatusesQuery });
      return pagedStatuses(request, reply, { items: page.statuses, full: page.full });
    },
  });
  for (const direction of ['followers', 'following'] as const) {
    app.route(pagedByIdRoute(app, clientReadsApi[direction], async (ctx, reader, input) => accountItems(await followList(ctx, reader, { ...input, direction }))));
  }
}
