import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { commentsApi } from '#core/api/comments';
import { profilesApi } from '#core/api/profiles';
import { routeOf } from '../../lib/contract.js';
import { actionRoute, onceRoute } from '../../lib/handlers.js';
import { contextOf, inNewTransaction } from '../../lib/service-context.js';
import * as service from './comments.service.js';
import { prepareTypedMentions } from '../remote/typed-mentions.js';

/**
 * Comments: create, like, delete, the pinned tree and a user's comments. A post's thread (under
 * /post/{postId}) and the reply search are served by the posts and search routes through this
 * module's service.
 */
export const commentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // A visitor's kept pages list posts, not comments: a new comment moves only its post's count.
  // The accounts of other servers a text names are looked up before its transaction opens.
  app.route(
    onceRoute(app, commentsApi.create, (ctx, request, viewer) => service.createComment(ctx, viewer, request.body), {
      status: 201,
      config: { visitorCacheWrite: 'counts' },
      before: (request, viewer) => prepareTypedMentions(app, viewer, request.body.text),
    }),
  );

  // A comment's likes are not on those pages at all; 'counts' is the lightest a write may declare.
  app.route(
    onceRoute(app, commentsApi.like, (ctx, request, viewer) => service.likeComment(ctx, viewer, { commentId: request.params.commentId, liked: request.body?.liked }), {
      config: { visitorCacheWrite: 'counts' },
    }),
  );

  // Removes content, so it stays a content write: were comments ever kept for visitors, a deleted
  // one must not be served again, and deletions are too rare for a lag to be worth anything.
  app.route(
    actionRoute(commentsApi.delete, 'comment_deleted', async (request, viewer) => {
      const keys = await inNewTransaction(app, (ctx) => service.deleteComment(ctx, viewer, request.params.commentId));
      if (keys.length > 0) await app.storage.remove(keys);
    }),
  );

  app.route({
    ...routeOf(commentsApi.tree),
    handler: async (request) => {
      const viewer = await request.viewer();
      return { pinnedTree: await service.commentTree(contextOf(app), viewer, { commentId: request.params.commentId, query: request.query }) };
    },
  });

  app.route({
    ...routeOf(profilesApi.comments),
    handler: async (request) => {
      const viewer = await request.viewer();
      return service.listByAuthor(contextOf(app), viewer, { authorId: request.params.userId, query: request.query });
    },
  });
};
