import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type InfoKey, infoMessage } from '#core/errors';
import { idempotentRequest } from '../../lib/idempotency';
import { ErrorReplies, GroupIdParams, MessageReply, NameReply } from '../../lib/schemas';
import { AppError, badRequest, notFound } from '../../lib/app-error';
import { storeAvatar } from '../media/avatars';
import { UploadReplies, readUpload, registerUploads } from '../media/uploads';
import { PostSchema } from '../posts/posts.schemas';
import { getPostForViewer, removePostMedia } from '../posts/posts.service';
import {
  GroupBody,
  GroupPostParams,
  GroupReply,
  GroupSavedReply,
  GroupUserListReply,
  ListQuery,
  NameParams,
  NotificationBody,
  NotificationReply,
  PinParams,
  UserActionParams,
} from './groups.schemas';
import * as service from './groups.service';

const message = (key: InfoKey) => ({ message: infoMessage(key) });
const messageSchema = { 200: MessageReply, ...ErrorReplies };

/** Groups: the group, its lists, membership, moderation, pinning and settings. */
export const groupRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const actionLimit: service.GroupActionLimit = { max: app.config.rates.groupActionsPerHour, windowMs: app.config.rates.windowMs };

  app.post(
    '/group',
    { schema: { body: GroupBody, response: { 201: GroupSavedReply, ...ErrorReplies } }, config: { invalidKey: 'invalid_group' } },
    async (request, reply) => {
      const viewer = await request.requireViewer();
      return reply.status(201).send(await service.createGroup(app.db, viewer.id, request.body, idempotentRequest(request)));
    },
  );

  // The spec does not show the update call's method; both are served.
  app.route({
    method: ['POST', 'PATCH'],
    url: '/group/:groupId/update',
    schema: { params: GroupIdParams, body: GroupBody, response: { 200: GroupSavedReply, ...ErrorReplies } },
    config: { invalidKey: 'invalid_group' },
    handler: async (request) => {
      const viewer = await request.requireViewer();
      const group = await service.updateGroup(app.db, request.params.groupId, viewer.id, request.body);
      return { group, ...message('group_updated') };
    },
  });

  app.delete('/group/:groupId', { schema: { params: GroupIdParams, response: messageSchema } }, async (request) => {
    const viewer = await request.requireViewer();
    const keys = await service.deleteGroup(app.db, request.params.groupId, viewer.id);
    await removePostMedia(app.storage, keys, request.log);
    return message('group_deleted');
  });

  app.get('/group/:name', { schema: { params: NameParams, response: { 200: GroupReply, ...ErrorReplies } } }, async (request) => {
    const viewer = await request.viewer();
    return { group: await service.getGroup(app.db, request.params.name, viewer?.id ?? null) };
  });

  app.get('/group/:groupId/name', { schema: { params: GroupIdParams, response: { 200: NameReply, ...ErrorReplies } } }, async (request) => ({
    name: await service.groupName(app.db, request.params.groupId),
  }));

  app.get('/group/:name/pinned', { schema: { params: NameParams, response: { 200: PostSchema, ...ErrorReplies } } }, async (request) => {
    const viewerId = (await request.viewer())?.id ?? null;
    const postId = await service.pinnedPostId(app.db, request.params.name, viewerId);
    try {
      return await getPostForViewer(app.db, postId, viewerId, app);
    } catch (err) {
      if (err instanceof AppError && err.statusCode === 404) throw notFound('didnt_find_pinned');
      throw err;
    }
  });

  for (const which of ['members', 'banned'] as const) {
    app.get(
      `/group/:name/${which}`,
      { schema: { params: NameParams, querystring: ListQuery, response: { 200: GroupUserListReply, ...ErrorReplies } } },
      async (request) => {
        const viewer = await request.viewer();
        return service.listGroupUsers(app.db, request.params.name, viewer?.id ?? null, which, request.query);
      },
    );
  }

  app.put('/group/:name/join', { schema: { params: NameParams, response: messageSchema } }, async (request) => {
    const viewer = await request.requireViewer();
    await service.joinGroup(app.db, request.params.name, viewer.id, actionLimit);
    return message('joined_group');
  });

  app.delete('/group/:name/leave', { schema: { params: NameParams, response: messageSchema } }, async (request) => {
    const viewer = await request.requireViewer();
    await service.leaveGroup(app.db, request.params.name, viewer.id, actionLimit);
    return message('you_left');
  });

  app.post('/group/:name/request', { schema: { params: NameParams, response: messageSchema } }, async (request) => {
    const viewer = await request.requireViewer();
    await service.requestJoin(app.db, request.params.name, viewer.id, actionLimit);
    return message('request_send');
  });

  const userActions = [
    { method: 'POST', action: 'accept', info: 'request_accepted', run: (n: string, a: string, p: string) => service.resolveRequest(app.db, n, a, p, true) },
    { method: 'POST', action: 'deny', info: 'request_denied', run: (n: string, a: string, p: string) => service.resolveRequest(app.db, n, a, p, false) },
    { method: 'PATCH', action: 'admin', info: 'made_admin', run: (n: string, a: string, p: string) => service.setAdmin(app.db, n, a, p, true) },
    { method: 'PATCH', action: 'deadmin', info: 'revoked_admin', run: (n: string, a: string, p: string) => service.setAdmin(app.db, n, a, p, false) },
    { method: 'PUT', action: 'ban', info: 'user_banned', run: (n: string, a: string, p: string) => service.setBan(app.db, n, a, p, true) },
    { method: 'PUT', action: 'unban', info: 'user_unbanned', run: (n: string, a: string, p: string) => service.setBan(app.db, n, a, p, false) },
    { method: 'PATCH', action: 'owner', info: 'owner_transferred', run: (n: string, a: string, p: string) => service.transferOwnership(app.db, n, a, p) },
  ] as const;
  for (const { method, action, info, run } of userActions) {
    app.route({
      method,
      url: `/group/:name/${action}/:pfp`,
      schema: { params: UserActionParams, response: messageSchema },
      handler: async (request) => {
        const viewer = await request.requireViewer();
        await run(request.params.name, viewer.id, request.params.pfp);
        return message(info);
      },
    });
  }

  app.put('/group/:name/pin/:postId', { schema: { params: PinParams, response: messageSchema } }, async (request) => {
    const viewer = await request.requireViewer();
    await service.pinPost(app.db, request.params.name, viewer.id, request.params.postId);
    return message('post_pinned');
  });

  app.put('/group/:name/unpin', { schema: { params: NameParams, response: messageSchema } }, async (request) => {
    const viewer = await request.requireViewer();
    await service.unpinPost(app.db, request.params.name, viewer.id);
    return message('post_unpinned');
  });

  app.delete('/group/:groupId/p/:postId', { schema: { params: GroupPostParams, response: messageSchema } }, async (request) => {
    const viewer = await request.requireViewer();
    const keys = await service.removePost(app.db, request.params.groupId, viewer.id, request.params.postId);
    await removePostMedia(app.storage, keys, request.log);
    return message('post_removed');
  });

  app.patch(
    '/group/:groupId/notification',
    {
      schema: { params: GroupIdParams, body: NotificationBody, response: { 200: NotificationReply, ...ErrorReplies } },
      // A level outside all, essential and none is a setting that is not allowed.
      config: { invalidKey: 'invalid_settings' },
    },
    async (request) => {
      const viewer = await request.requireViewer();
      return { notification: await service.setNotificationLevel(app.db, request.params.groupId, viewer.id, request.body.notification) };
    },
  );

  await app.register(groupAvatarRoutes);
};

/** POST /upload/gp/{groupId}: the group's avatar (multipart field gp), in its own scope for the parser. */
const groupAvatarRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await registerUploads(app);
  app.post(
    '/upload/gp/:groupId',
    { schema: { params: GroupIdParams, response: UploadReplies } },
    async (request, reply) => {
      const viewer = await request.requireViewer();
      const group = await service.groupForAvatar(app.db, request.params.groupId, viewer.id);
      const upload = await readUpload(request);
      if (!upload.file) throw badRequest('only_images');
      const url = await storeAvatar(app, 'gp', group.id, upload.file);
      return reply.status(201).send({ message: infoMessage('image_uploaded'), url });
    },
  );
};
