import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { commentsApi } from '#core/api/comments';
import { routeOf } from '../../lib/contract.js';
import { actionRoute } from '../../lib/handlers.js';
import { idempotentRequest } from '../../lib/idempotency.js';
import * as service from './comments.service.js';

/**
 * Comments: create, like, delete and the pinned tree. A post's thread (under /post/{postId}), a
 * user's comments and the reply search are served by the posts, profiles and search routes
 * through this module's service.
 */
export const commentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.route({
    ...routeOf(commentsApi.create),
    handler: async (request, reply) => {
      const viewer = await request.requireViewer();
      const result = await service.createComment(app, viewer, request.body, idempotentRequest(request));
      return reply.status(201).send(result.body);
    },
  });

  app.route({
    ...routeOf(commentsApi.like),
    handler: async (request, reply) => {
      const viewer = await request.requireViewer();
      const wanted = request.body?.liked;
      const result = await service.likeComment(app, viewer, request.params.commentId, wanted, idempotentRequest(request));
      return reply.status(200).send(result.body);
    },
  });

  app.route(actionRoute(commentsApi.delete, 'comment_deleted', (request, viewer) => service.deleteComment(app, viewer, request.params.commentId)));

  app.route({
    ...routeOf(commentsApi.tree),
    handler: async (request) => {
      const viewer = await request.viewer();
      return { pinnedTree: await service.commentTree(app, viewer?.id ?? null, request.params.commentId, request.query) };
    },
  });
};
