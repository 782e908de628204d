import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { postsApi } from '#core/api/posts';
import { routeOf } from '../../lib/contract.js';
import { actionRoute } from '../../lib/handlers.js';
import { idempotentRequest, runOnce } from '../../lib/idempotency.js';
import { listThread } from '../comments/comments.service.js';
import {
  type PostView,
  createPost,
  deletePost,
  editPost,
  getPostForViewer,
  getPostGroupNames,
  getPostHistory,
  likePost,
  removePostMedia,
} from './posts.service.js';

/** Posts: create, read, edit (with its history), like, delete, and a post's comments. */
export const postRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.route({
    ...routeOf(postsApi.create),
    handler: async (request, reply) => {
      const viewer = await request.requireViewer();
      const result = await runOnce<PostView & { post: PostView }>(
        app.db,
        viewer.id,
        idempotentRequest(request),
        async (trx) => {
          const post = await createPost(trx, viewer.id, request.body, app.config.rates, app);
          return { status: 201, body: { ...post, post } };
        },
      );
      return reply.status(result.status as 200).send(result.body);
    },
  });

  app.route({
    ...routeOf(postsApi.get),
    handler: async (request) => {
      const viewer = await request.viewer();
      return getPostForViewer(app.db, request.params.postId, viewer?.id ?? null, app);
    },
  });

  app.route({
    ...routeOf(postsApi.edit),
    handler: async (request, reply) => {
      const viewer = await request.requireViewer();
      const result = await runOnce<PostView>(app.db, viewer.id, idempotentRequest(request), async (trx) => ({
        status: 200,
        body: await editPost(trx, request.params.postId, viewer.id, request.body, app.config.rates, app),
      }));
      return reply.status(result.status as 200).send(result.body);
    },
  });

  app.route({
    ...routeOf(postsApi.history),
    handler: async (request) => {
      const viewer = await request.viewer();
      return getPostHistory(app.db, request.params.postId, viewer?.id ?? null);
    },
  });

  app.route({
    ...routeOf(postsApi.groups),
    handler: async (request) => {
      const viewer = await request.viewer();
      return getPostGroupNames(app.db, request.params.postId, viewer?.id ?? null);
    },
  });

  app.route({
    ...routeOf(postsApi.like),
    handler: async (request, reply) => {
      const viewer = await request.requireViewer();
      const liked = request.body?.liked;
      const result = await runOnce(app.db, viewer.id, idempotentRequest(request), async (trx) => ({
        status: 200,
        body: await likePost(trx, request.params.postId, viewer.id, liked),
      }));
      return reply.status(result.status as 200).send(result.body);
    },
  });

  app.route(
    actionRoute(postsApi.delete, 'post_deleted', async (request, viewer) => {
      const keys = await app.db.transaction().execute((trx) => deletePost(trx, request.params.postId, viewer.id));
      await removePostMedia(app.storage, keys, request.log);
    }),
  );

  // The thread lives under the post's URL; the comments service reads it.
  app.route({
    ...routeOf(postsApi.comments),
    handler: async (request) => {
      const viewer = await request.viewer();
      return listThread(app, viewer?.id ?? null, request.params.postId, request.query);
    },
  });
};
