import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { infoMessage } from '#core/errors';
import { idempotencyKey } from '../../lib/idempotency';
import { ListingQuery } from '../../lib/paging';
import { ErrorReplies, Id, IdParams, MessageReply } from '../../lib/schemas';
import {
  CommentList,
  CommentNodeSchema,
  CommentSchema,
  CreateCommentBody,
  LikeBody,
  LikeReply,
  ThreadQuery,
} from './comments.schemas';
import * as service from './comments.service';

/** Comments (000 §7): create, like, delete, the thread listings, the pinned tree and search. */
export const commentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/comment/',
    {
      schema: { body: CreateCommentBody, response: { 201: CommentSchema, ...ErrorReplies } },
      config: { invalidKey: 'blank_comment' },
    },
    async (request, reply) => {
      const viewer = await request.requireViewer();
      const result = await service.createComment(app, viewer, request.body, idempotencyKey(request.headers));
      return reply.status(201).send(result.body);
    },
  );

  app.patch(
    '/comment/:id/like',
    {
      schema: { params: IdParams, body: Type.Optional(LikeBody), response: { 200: LikeReply, ...ErrorReplies } },
      config: { invalidKey: 'comment_not_found' },
    },
    async (request, reply) => {
      const viewer = await request.requireViewer();
      const wanted = request.body?.liked;
      const result = await service.likeComment(app, viewer, request.params.id, wanted, idempotencyKey(request.headers));
      return reply.status(200).send(result.body);
    },
  );

  app.delete(
    '/comment/:id',
    {
      schema: { params: IdParams, response: { 200: MessageReply, ...ErrorReplies } },
      config: { invalidKey: 'comment_not_found' },
    },
    async (request) => {
      const viewer = await request.requireViewer();
      await service.deleteComment(app, viewer, request.params.id);
      return { message: infoMessage('comment_deleted') };
    },
  );

  app.get(
    '/comment/:id/tree',
    {
      schema: {
        params: IdParams,
        querystring: ListingQuery,
        response: { 200: Type.Object({ pinnedTree: CommentNodeSchema }), ...ErrorReplies },
      },
      config: { invalidKey: 'comment_not_found' },
    },
    async (request) => {
      const viewer = await request.viewer();
      return { pinnedTree: await service.commentTree(app, viewer?.id ?? null, request.params.id, request.query) };
    },
  );

  app.get(
    '/post/:id/comments',
    {
      schema: { params: IdParams, querystring: ThreadQuery, response: { 200: CommentList, ...ErrorReplies } },
      config: { invalidKey: 'didnt_find_post' },
    },
    async (request) => {
      const viewer = await request.viewer();
      return service.listThread(app, viewer?.id ?? null, request.params.id, request.query);
    },
  );

  app.get(
    '/profile/comments/:userId',
    {
      schema: {
        params: Type.Object({ userId: Id }),
        querystring: ListingQuery,
        response: { 200: CommentList, ...ErrorReplies },
      },
      config: { invalidKey: 'user_not_found' },
    },
    async (request) => {
      const viewer = await request.viewer();
      return service.listByAuthor(app, viewer?.id ?? null, request.params.userId, request.query);
    },
  );

  app.get(
    '/search/for/replies',
    { schema: { querystring: ListingQuery, response: { 200: CommentList, ...ErrorReplies } } },
    async (request) => {
      const viewer = await request.viewer();
      return service.searchComments(app, viewer?.id ?? null, request.query);
    },
  );
};
