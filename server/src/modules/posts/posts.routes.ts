import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { postsApi } from '#core/api/posts';
import { routeOf } from '../../lib/contract.js';
import { actionRoute, onceRoute } from '../../lib/handlers.js';
import type { Viewer } from '../../lib/viewer.js';
import { contextOf, inNewTransaction } from '../../lib/service-context.js';
import { listThread } from '../comments/comments.service.js';
import {
  createPost,
  deletePost,
  editPost,
  getPostForViewer,
  getPostGroupNames,
  getPostHistory,
  likePost,
  removePostMedia,
} from './posts.service.js';
import { prepareTypedMentions } from '../remote/typed-mentions.js';

/** Posts: create, read, edit (with its history), like, delete, and a post's comments. */
export const postRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // The accounts of other servers a text names are looked up before its transaction opens.
  const typedMentions = (request: { body: { text?: unknown } }, viewer: Viewer) => prepareTypedMentions(app, viewer, request.body.text);

  app.route(
    onceRoute(
      app,
      postsApi.create,
      async (ctx, request, viewer) => {
        const post = await createPost(ctx, viewer, request.body);
        return { ...post, post };
      },
      { status: 201, before: typedMentions },
    ),
  );

  app.route({
    ...routeOf(postsApi.get),
    handler: async (request) => getPostForViewer(contextOf(app), await request.viewer(), request.params.postId),
  });

  app.route(
    onceRoute(app, postsApi.edit, (ctx, request, viewer) => editPost(ctx, viewer, { ...request.body, postId: request.params.postId }), {
      before: typedMentions,
    }),
  );

  app.route({
    ...routeOf(postsApi.history),
    handler: async (request) => getPostHistory(contextOf(app), await request.viewer(), request.params.postId),
  });

  app.route({
    ...routeOf(postsApi.groups),
    handler: async (request) => getPostGroupNames(contextOf(app), await request.viewer(), request.params.postId),
  });

  // A like or unlike moves only the post's count (and its place when sorted by likes) for a visitor.
  app.route(
    onceRoute(app, postsApi.like, (ctx, request, viewer) => likePost(ctx, viewer, { postId: request.params.postId, liked: request.body?.liked }), {
      config: { visitorCacheWrite: 'counts' },
    }),
  );

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
