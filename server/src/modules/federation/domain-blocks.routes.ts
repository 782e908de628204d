import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { moderationApi } from '#core/api/moderation';
import { actionRoute, viewerRoute } from '../../lib/handlers.js';
import { contextOf, inNewTransaction } from '../../lib/service-context.js';
import * as boundaries from './boundaries.js';

/**
 * /moderation/domain-blocks: the instance moderators' list of domains cut off from federation.
 * Served whether or not federation is on, so a domain can be blocked before it is switched on.
 */
export const domainBlockRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.route(viewerRoute(moderationApi.domainBlocks, (request, viewer) => boundaries.listDomainBlocks(contextOf(app), viewer, request.query)));
  app.route(
    actionRoute(moderationApi.blockDomain, 'domain_blocked', (request, viewer) =>
      inNewTransaction(app, (ctx) => boundaries.blockDomain(ctx, viewer, request.body.domain)),
    ),
  );
  app.route(
    actionRoute(moderationApi.unblockDomain, 'domain_unblocked', (request, viewer) =>
      inNewTransaction(app, (ctx) => boundaries.unblockDomain(ctx, viewer, request.params.domain)),
    ),
  );
};
