import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { type InfoKey, infoMessage } from '#core/errors';
import { LISTING_DEFAULTS } from '#core/listing';
import { idempotentRequest } from '../../lib/idempotency';
import { ErrorReplies, GroupIdParams, MessageReply, NameReply } from '../../lib/schemas';
import { AppError, badRequest, notFound } from '../../lib/app-error';
import { PostListSchema } from '../feeds/feeds.schemas';
import { feedPage, groupScope } from '../feeds/feeds.service';
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

const userListOptions = { schema: { params: NameParams, querystring: ListQuery, response: { 200: GroupUserListReply, ...ErrorReplies } } };
const userActionOptions = { schema: { params: UserActionParams, response: messageSchema } };

/**
 * One handler for every admin's or owner's call on one user of a group (accept, deny, admin,
 * deadmin, ban, unban, owner): the caller must be signed in, `run` gets the group's name, the
 * caller's id and the user's id, and the answer names what was done.
 */
function userAction(info: InfoKey, run: (name: string, actorId: string, userId: string) => Promise<void>) {
  return async (request: FastifyRequest<{ Params: UserActionParams }>) => {
    const viewer = await request.requireViewer();
    await run(request.params.name, viewer.id, request.params.pfp);
    return message(info);
  };
}

/** Groups: the group, its lists, membership, moderation, pinning and settings. */
export const groupRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const actionLimit: service.GroupActionLimit = { max: app.config.rates.groupActionsPerHour, windowMs: app.config.rates.windowMs };

  /** One handler for a group's members and its banned list. */
  const userList = (which: 'members' | 'banned') => async (request: FastifyRequest<{ Params: NameParams; Querystring: ListQuery }>) => {
    const viewer = await request.viewer();
    return service.listGroupUsers(app.db, request.params.name, viewer?.id ?? null, which, request.query);
  };

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

  app.get('/group/:name/members', userListOptions, userList('members'));
  app.get('/group/:name/banned', userListOptions, userList('banned'));

  app.get('/group/:name/posts', { schema: { params: NameParams, ...PostListSchema } }, async (request) => {
    const viewerId = (await request.viewer())?.id ?? null;
    const scope = await groupScope(app.db, request.params.name, viewerId);
    return feedPage(app.db, viewerId, scope, request.query, LISTING_DEFAULTS, app);
  });

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

  app.post('/group/:name/accept/:pfp', userActionOptions, userAction('request_accepted', (n, a, p) => service.resolveRequest(app.db, n, a, p, true)));
  app.post('/group/:name/deny/:pfp', userActionOptions, userAction('request_denied', (n, a, p) => service.resolveRequest(app.db, n, a, p, false)));
  app.patch('/group/:name/admin/:pfp', userActionOptions, userAction('made_admin', (n, a, p) => service.setAdmin(app.db, n, a, p, true)));
  app.patch('/group/:name/deadmin/:pfp', userActionOptions, userAction('revoked_admin', (n, a, p) => service.setAdmin(app.db, n, a, p, false)));
  app.put('/group/:name/ban/:pfp', userActionOptions, userAction('user_banned', (n, a, p) => service.setBan(app.db, n, a, p, true)));
  app.put('/group/:name/unban/:pfp', userActionOptions, userAction('user_unbanned', (n, a, p) => service.setBan(app.db, n, a, p, false)));
  app.patch('/group/:name/owner/:pfp', userActionOptions, userAction('owner_transferred', (n, a, p) => service.transferOwnership(app.db, n, a, p)));

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
