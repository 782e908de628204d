import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { infoMessage } from '#core/errors';
import { idempotentRequest } from '../../lib/idempotency';
import { ListingQuery } from '../../lib/paging';
import { CommentIdParams, ErrorReplies, LikeBody, LikeReply, MessageReply, PostIdParams } from '../../lib/schemas';
import {
  CommentList,
  CommentNodeSchema,
  CommentSchema,
  CreateCommentBody,
  ThreadQuery,
} from './comments.schemas';
import * as service from './comments.service';

/**
 * Comments: create, like, delete, a post's thread and the pinned tree. A user's comments and
 * the reply search are served by the profiles and search routes through this module's service.
 */
export const commentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/comment/',
    {
      schema: { body: CreateCommentBody, response: { 201: CommentSchema, ...ErrorReplies } },
      config: { invalidKey: 'blank_comment' },
    },
    async (request, reply) => {
      const viewer = await request.requireViewer();
      const result = await service.createComment(app, viewer, request.body, idempotentRequest(request));
      return reply.status(201).send(result.body);
    },
  );

  app.patch(
    '/comment/:commentId/like',
    {
      schema: { params: CommentIdParams, body: LikeBody, response: { 200: LikeReply, ...ErrorReplies } },
      config: { invalidKey: 'invalid_comment' },
    },
    async (request, reply) => {
      const viewer = await request.requireViewer();
      const wanted = request.body?.liked;
      const result = await service.likeComment(app, viewer, request.params.commentId, wanted, idempotentRequest(request));
      return reply.status(200).send(result.body);
    },
  );

  app.delete(
    '/comment/:commentId',
    {
      schema: { params: CommentIdParams, response: { 200: MessageReply, ...ErrorReplies } },
    },
    async (request) => {
      const viewer = await request.requireViewer();
      await service.deleteComment(app, viewer, request.params.commentId);
      return { message: infoMessage('comment_deleted') };
    },
  );

  app.get(
    '/comment/:commentId/tree',
    {
      schema: {
        params: CommentIdParams,
        querystring: ListingQuery,
        response: { 200: Type.Object({ pinnedTree: CommentNodeSchema }), ...ErrorReplies },
      },
    },
    async (request) => {
      const viewer = await request.viewer();
      return { pinnedTree: await service.commentTree(app, viewer?.id ?? null, request.params.commentId, request.query) };
    },
  );

  app.get(
    '/post/:postId/comments',
    { schema: { params: PostIdParams, querystring: ThreadQuery, response: { 200: CommentList, ...ErrorReplies } } },
    async (request) => {
      const viewer = await request.viewer();
      return service.listThread(app, viewer?.id ?? null, request.params.postId, request.query);
    },
  );
};
