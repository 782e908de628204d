import type { FastifyInstance } from 'fastify';
import { clientReadsApi } from '#core/api/client-reads';
import { accountItems, pagedByIdRoute, readByIdRoute } from './client-route.js';
import { favouritedBy, getStatus, statusContext } from './statuses.service.js';

/** Statuses: one, its thread, and who liked it. */
export function statusRoutes(app: FastifyInstance): void {
  app.route(readByIdRoute(app, clientReadsApi.status, getStatus));
  app.route(readByIdRoute(app, clientReadsApi.context, statusContext));
  app.route(pagedByIdRoute(app, clientReadsApi.favouritedBy, async (ctx, reader, input) => accountItems(await favouritedBy(ctx, reader, input))));
}
