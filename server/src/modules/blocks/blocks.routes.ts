import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { blocksApi } from '#core/api/blocks';
import { actionRoute, viewerRoute } from '../../lib/handlers.js';
import * as service from './blocks.service.js';

/** PUT/DELETE/GET /block/{pfp}, GET /block, PUT/DELETE /mute/{pfp}, GET /mute, PUT/DELETE /mute/tag/{tag}, GET /mute/tag. */
export const blockRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.route(actionRoute(blocksApi.block, 'user_blocked', (request, viewer) => service.block(app, viewer, request.params.pfp)));
  app.route(actionRoute(blocksApi.unblock, 'user_unblocked', (request, viewer) => service.unblock(app, viewer, request.params.pfp)));
  app.route(viewerRoute(blocksApi.state, (request, viewer) => service.state(app, viewer, request.params.pfp)));
  app.route(viewerRoute(blocksApi.blocked, (request, viewer) => service.list(app, viewer, 'block', request.query)));

  app.route(actionRoute(blocksApi.mute, 'user_muted', (request, viewer) => service.mute(app, viewer, request.params.pfp)));
  app.route(actionRoute(blocksApi.unmute, 'user_unmuted', (request, viewer) => service.unmute(app, viewer, request.params.pfp)));
  app.route(viewerRoute(blocksApi.muted, (request, viewer) => service.list(app, viewer, 'mute', request.query)));

  app.route(actionRoute(blocksApi.muteTag, 'tag_muted', (request, viewer) => service.muteTag(app, viewer, request.params.tag)));
  app.route(actionRoute(blocksApi.unmuteTag, 'tag_unmuted', (request, viewer) => service.unmuteTag(app, viewer, request.params.tag)));
  app.route(viewerRoute(blocksApi.mutedTags, (request, viewer) => service.mutedTags(app, viewer, request.query)));
};
