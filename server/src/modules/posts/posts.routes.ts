import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { postsApi } from '#core/api/posts';
import { routeOf } from '../../lib/contract.js';
import { actionRoute } from '../../lib/handlers.js';
import { idempotentRequest, runOnce } from '../../lib/idempotency.js';
import { contextOf, inNewTransaction } from '../../lib/service-context.js';
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
import { prepareTypedMentions } from '../federation/typed-mentions.js';

/** Posts: create, read, edit (with its history), like, delete, and a post's comments. */
export const postRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.route({
    ...routeOf(postsApi.create),
    handler: async (request, reply) => {
      const viewer = await request.requireViewer();
      await prepareTypedMentions(app, viewer, request.body.text);
      const result = await runOnce<PostView & { post: PostView }>(app.db, viewer.id, idempotentRequest(request), async (trx) => {
        const post = await createPost(contextOf(app, trx), viewer, request.body);
        return { status: 201, body: { ...post, post } };
      });
      return reply.status(result.status as 200).send(result.body);
    },
  });

  app.route({
    ...routeOf(postsApi.get),
    handler: async (request) => getPostForViewer(contextOf(app), await request.viewer(), request.params.postId),
  });

  app.route({
    ...routeOf(postsApi.edit),
    handler: async (request, reply) => {
      const viewer = await request.requireViewer();
      await prepareTypedMentions(app, viewer, request.body.text);
      const result = await runOnce<PostView>(app.db, viewer.id, idempotentRequest(request), async (trx) => ({
        status: 200,
        body: await editPost(contextOf(app, trx), viewer, { ...request.body, postId: request.params.postId }),
      }));
      return reply.status(result.status as 200).send(result.body);
    },
  });

  app.route({
    ...routeOf(postsApi.history),
    handler: async (request) => getPostHistory(contextOf(app), await request.viewer(), request.params.postId),
  });

  app.route({
    ...routeOf(postsApi.groups),
    handler: async (request) => getPostGroupNames(contextOf(app), await request.viewer(), request.params.postId),
  });

  // A like or unlike moves only the post's count (and its place when sorted by likes) for a visitor.
  app.route({
    ...routeOf(postsApi.like, { visitorCacheWrite: 'counts' }),
    handler: async (request, reply) => {
      const viewer = await request.requireViewer();
      const input = { postId: request.params.postId, liked: request.body?.liked };
      const result = await runOnce(app.db, viewer.id, idempotentRequest(request), async (trx) => ({
        status: 200,
        body: await likePost(contextOf(app, trx), viewer, input),
      }));
      return reply.status(result.status as 200).send(result.body);
    },
  });

  app.route(
    actionRoute(postsApi.delete, 'post_deleted', async (request, viewer) => {
      const keys = await inNewTransaction(app, (ctx) => deletePost(ctx, viewer, request.params.postId));
      await removePostMedia(app.storage, keys, request.log);
    }),
  );

  // The thread lives under the post's URL; the comments service reads it.
  app.route({
    ...routeOf(postsApi.comments),
    handler: async (request) =>
      listThread(contextOf(app), await request.viewer(), { parentId: request.params.postId, query: request.query }),
  });
};
