import type { FastifyInstance } from 'fastify';
import { clientReadsApi } from '#core/api/client-reads';
import { contextOf } from '../../lib/service-context.js';
import { followList, getAccount, lookupAccount, relationships } from './accounts.service.js';
import { requireScope } from './client-caller.js';
import type { ClientPageQuery } from './client-paging.js';
import { entityRoute, listOf, paged, readerOf } from './client-route.js';
import { type AccountStatusesQuery, accountStatuses } from './timelines.service.js';

type IdParams = { id: string };
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
      const query = request.query as { id?: string | string[]; 'id[]'?: string | string[] };
      return relationships(contextOf(app), viewer, [...listOf(query['id[]']), ...listOf(query.id)]);
    },
  });
  app.route({
    ...entityRoute(clientReadsApi.account),
    handler: async (request) => getAccount(contextOf(app), await readerOf(request), (request.params as IdParams).id),
  });
  app.route({
    ...entityRoute(clientReadsApi.accountStatuses),
    handler: async (request, reply) => {
      const page = await accountStatuses(contextOf(app), await readerOf(request), { id: (request.params as IdParams).id, query: request.query as AccountStatusesQuery });
      return paged(request, reply, { items: page.statuses, full: page.full });
    },
  });
  for (const direction of ['followers', 'following'] as const) {
    app.route({
      ...entityRoute(clientReadsApi[direction]),
      handler: async (request, reply) => {
        const page = await followList(contextOf(app), await readerOf(request), { id: (request.params as IdParams).id, direction, query: request.query as ClientPageQuery });
        return paged(request, reply, { ...page, items: page.accounts });
      },
    });
  }
}
