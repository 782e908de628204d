import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { followsApi } from '#core/api/follows';
import { routeOf } from '../../lib/contract.js';
import { actionRoute, message, viewerRoute } from '../../lib/handlers.js';
import { contextOf, inNewTransaction } from '../../lib/service-context.js';
import * as service from './follows.service.js';

/** POST /follow, PATCH /follow/change, DELETE /follow/delete; `following` is a user id (pfp). */
export const followRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = contextOf(app);
  // Authentication before body validation: a visitor is told no_token whatever the body says.
  const onRequest = async (request: FastifyRequest) => {
    await request.requireViewer();
  };

  app.route({
    ...routeOf(followsApi.follow),
    onRequest,
    handler: async (request, reply) => {
      const viewer = await request.requireViewer();
      const state = await inNewTransaction(app, (ctx) => service.follow(ctx, viewer, request.body.following));
      return reply.status(201).send({ ...message('followed'), ...state });
    },
  });

  app.route({
    ...viewerRoute(followsApi.change, (request, viewer) => service.changeNotify(ctx, viewer, request.body)),
    onRequest,
  });

  app.route({
    ...actionRoute(followsApi.unfollow, 'unfollowed', (request, viewer) => service.unfollow(ctx, viewer, request.body.following)),
    onRequest,
  });
};
