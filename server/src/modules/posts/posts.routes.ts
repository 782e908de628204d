import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { infoMessage } from '#core/errors';
import { idempotentRequest, runOnce } from '../../lib/idempotency';
import { ErrorReplies, LikeBody, LikeReply, MessageReply, PostIdParams } from '../../lib/schemas';
import { CreatePostBody, CreatePostReply, PostSchema } from './posts.schemas';
import {
  type PostView,
  createPost,
  deletePost,
  getPostForViewer,
  getPostGroupNames,
  likePost,
  removePostMedia,
} from './posts.service';

/** Posts: create, read, like, delete. */
export const postRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/post',
    {
      schema: { body: CreatePostBody, response: { 201: CreatePostReply, 200: CreatePostReply, ...ErrorReplies } },
      config: { invalidKey: 'blank_post' },
    },
    async (request, reply) => {
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
  );

  app.get(
    '/post/:postId',
    { schema: { params: PostIdParams, response: { 200: PostSchema, ...ErrorReplies } } },
    async (request) => {
      const viewer = await request.viewer();
      return getPostForViewer(app.db, request.params.postId, viewer?.id ?? null, app);
    },
  );

  app.get(
    '/post/:postId/groups',
    { schema: { params: PostIdParams, response: { 200: Type.Array(Type.String()), ...ErrorReplies } } },
    async (request) => {
      const viewer = await request.viewer();
      return getPostGroupNames(app.db, request.params.postId, viewer?.id ?? null);
    },
  );

  app.patch(
    '/post/:postId/like',
    { schema: { params: PostIdParams, body: LikeBody, response: { 200: LikeReply, ...ErrorReplies } }, config: { invalidKey: 'invalid_post' } },
    async (request, reply) => {
      const viewer = await request.requireViewer();
      const liked = request.body?.liked;
      const result = await runOnce(app.db, viewer.id, idempotentRequest(request), async (trx) => ({
        status: 200,
        body: await likePost(trx, request.params.postId, viewer.id, liked),
      }));
      return reply.status(result.status as 200).send(result.body);
    },
  );

  app.delete(
    '/post/:postId',
    { schema: { params: PostIdParams, response: { 200: MessageReply, ...ErrorReplies } } },
    async (request) => {
      const viewer = await request.requireViewer();
      const keys = await app.db.transaction().execute((trx) => deletePost(trx, request.params.postId, viewer.id));
      await removePostMedia(app.storage, keys, request.log);
      return { message: infoMessage('post_deleted') };
    },
  );
};
