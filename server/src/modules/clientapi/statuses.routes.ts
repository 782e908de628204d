import type { FastifyInstance } from 'fastify';
import { clientReadsApi } from '#core/api/client-reads';
import { contextOf } from '../../lib/service-context.js';
import type { ClientPageQuery } from './client-paging.js';
import { entityRoute, paged, readerOf } from './client-route.js';
import { favouritedBy, getStatus, statusContext } from './statuses.service.js';

type IdParams = { id: string };

/** Statuses: one, its thread, and who liked it. */
export function statusRoutes(app: FastifyInstance): void {
  app.route({
    ...entityRoute(clientReadsApi.status),
    handler: async (request) => getStatus(contextOf(app), await readerOf(request), (request.params as IdParams).id),
  });
  app.route({
    ...entityRoute(clientReadsApi.context),
    handler: async (request) => statusContext(contextOf(app), await readerOf(request), (request.params as IdParams).id),
  });
  app.route({
    ...entityRoute(clientReadsApi.favouritedBy),
    handler: async (request, reply) => {
      const page = await favouritedBy(contextOf(app), await readerOf(request), { id: (request.params as IdParams).id, query: request.query as ClientPageQuery });
      return paged(request, reply, { ...page, items: page.accounts });
    },
  });
}
