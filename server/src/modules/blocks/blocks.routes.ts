import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { blocksApi } from '#core/api/blocks';
import { actionRoute, viewerRoute } from '../../lib/handlers.js';
import { contextOf, inNewTransaction } from '../../lib/service-context.js';
import * as service from './blocks.service.js';

/** PUT/DELETE/GET /block/{pfp}, GET /block, PUT/DELETE /mute/{pfp}, GET /mute, PUT/DELETE /mute/tag/{tag}, GET /mute/tag. */
export const blockRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = contextOf(app);
  app.route(actionRoute(blocksApi.block, 'user_blocked', (request, viewer) => inNewTransaction(app, (ctx) => service.block(ctx, viewer, request.params.pfp))));
  app.route(actionRoute(blocksApi.unblock, 'user_unblocked', (request, viewer) => service.unblock(ctx, viewer, request.params.pfp)));
  app.route(viewerRoute(blocksApi.state, (request, viewer) => service.state(ctx, viewer, request.params.pfp)));
  app.route(viewerRoute(blocksApi.blocked, (request, viewer) => service.list(ctx, viewer, { kind: 'block', query: request.query })));

  app.route(actionRoute(blocksApi.mute, 'user_muted', (request, viewer) => service.mute(ctx, viewer, request.params.pfp)));
  app.route(actionRoute(blocksApi.unmute, 'user_unmuted', (request, viewer) => service.unmute(ctx, viewer, request.params.pfp)));
  app.route(viewerRoute(blocksApi.muted, (request, viewer) => service.list(ctx, viewer, { kind: 'mute', query: request.query })));

  app.route(actionRoute(blocksApi.muteTag, 'tag_muted', (request, viewer) => service.muteTag(ctx, viewer, request.params.tag)));
  app.route(actionRoute(blocksApi.unmuteTag, 'tag_unmuted', (request, viewer) => service.unmuteTag(ctx, viewer, request.params.tag)));
  app.route(viewerRoute(blocksApi.mutedTags, (request, viewer) => service.mutedTags(ctx, viewer, request.query)));
};
