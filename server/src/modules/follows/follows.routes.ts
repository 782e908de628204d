import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { infoMessage } from '#core/errors';
import { ErrorReplies, MessageReply } from '../../lib/schemas';
import { ChangeFollowBody, FollowBody, FollowedReply, FollowStateReply } from './follows.schemas';
import * as service from './follows.service';

const config = { invalidKey: 'invalid_following_id' } as const;

/** POST /follow, PATCH /follow/change, DELETE /follow/delete; `following` is a user id (pfp). */
export const followRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Authentication before body validation: a visitor is told no_token whatever the body says.
  const onRequest = async (request: FastifyRequest) => {
    await request.requireViewer();
  };

  app.post(
    '/follow',
    { onRequest, schema: { body: FollowBody, response: { 201: FollowedReply, ...ErrorReplies } }, config },
    async (request, reply) => {
      const viewer = await request.requireViewer();
      const state = await service.follow(app, viewer, request.body.following);
      return reply.status(201).send({ message: infoMessage('followed'), ...state });
    },
  );

  app.patch(
    '/follow/change',
    { onRequest, schema: { body: ChangeFollowBody, response: { 200: FollowStateReply, ...ErrorReplies } }, config },
    async (request) => {
      const viewer = await request.requireViewer();
      return service.changeNotify(app, viewer, request.body.following, request.body.notify);
    },
  );

  app.delete(
    '/follow/delete',
    { onRequest, schema: { body: FollowBody, response: { 200: MessageReply, ...ErrorReplies } }, config },
    async (request) => {
      const viewer = await request.requireViewer();
      await service.unfollow(app, viewer, request.body.following);
      return { message: infoMessage('unfollowed') };
    },
  );
};
