import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type AccountSearchQuery, type SearchQuery, clientSearchApi } from '#core/api/client-search';
import { contextOf } from '../../lib/service-context.js';
import type { Viewer } from '../../lib/viewer.js';
import { clientCaller, requireScope } from './client-caller.js';
import { entityRoute } from './client-route.js';
import { search, searchAccounts } from './search.service.js';

/** A visitor searches as a visitor; an app's person needs the scope to search as themself. */
async function searcherOf(request: FastifyRequest, scope: string): Promise<Viewer | null> {
  return (await clientCaller(request)) ? requireScope(request, scope) : null;
}

/** Search: accounts, statuses and hashtags, and the accounts alone. */
export function searchRoutes(app: FastifyInstance): void {
  const ctx = contextOf(app);
  app.route({
    ...entityRoute(clientSearchApi.search),
    handler: async (request) => search(ctx, await searcherOf(request, 'read:search'), request.query as SearchQuery),
  });
  app.route({
    ...entityRoute(clientSearchApi.accountSearch),
    handler: async (request) => searchAccounts(ctx, await searcherOf(request, 'read:accounts'), request.query as AccountSearchQuery),
  });
}
