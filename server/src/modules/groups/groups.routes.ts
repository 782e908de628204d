import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { InfoKey } from '#core/errors';
import { groupsApi } from '#core/api/groups';
import { mediaApi } from '#core/api/media';
import { routeOf } from '../../lib/contract.js';
import { type RequestOf, actionRoute, message, onceRoute, viewerRoute } from '../../lib/handlers.js';
import { AppError, badRequest, notFound } from '../../lib/app-error.js';
import { type ServiceContext, contextOf, inNewTransaction } from '../../lib/service-context.js';
import type { Viewer } from '../../plugins/auth.js';
import { storeAvatar } from '../media/avatars.js';
import { readUpload, registerUploads, uploadRoute } from '../media/uploads.js';
import { getPostForViewer, removePostMedia } from '../posts/posts.service.js';
import * as service from './groups.service.js';

/** The endpoints of an admin's or owner's call on one user of a group. */
type UserActionEndpoint = (typeof groupsApi)['accept' | 'deny' | 'admin' | 'deadmin' | 'ban' | 'unban' | 'owner'];

/**
 * Groups: the group, its lists, membership, its admins' calls, pinning, settings and its avatar.
 * The group's posts are served by the feeds routes, the reports of its posts by the reports routes.
 * Every change runs in a transaction the route opens; the service does its work on it.
 */
export const groupRoutes: FastifyPluginAsyncTypebox = async (app) => {
  /**
   * The route of every admin's or owner's call on one user of a group (accept, deny, admin,
   * deadmin, ban, unban, owner): `run` gets the group's name and the user's id, and the answer
   * names what was done.
   */
  const userActionRoute = (e: UserActionEndpoint, info: InfoKey, run: (ctx: ServiceContext, viewer: Viewer, call: service.GroupUserCall) => Promise<void>) =>
    actionRoute(e, info, (request, viewer) => inNewTransaction(app, (ctx) => run(ctx, viewer, { nameOrId: request.params.name, userId: request.params.pfp })));

  app.route(onceRoute(app, groupsApi.create, (ctx, request, viewer) => service.createGroup(ctx, viewer, request.body), { status: 201 }));

  // The update call is served at PATCH and at POST alike, by one handler.
  const updateGroup = async (request: RequestOf<typeof groupsApi.update>, viewer: Viewer) => {
    const group = await inNewTransaction(app, (ctx) => service.updateGroup(ctx, viewer, { groupId: request.params.groupId, body: request.body }));
    return { group, ...message('group_updated') };
  };
  app.route(viewerRoute<typeof groupsApi.update>(groupsApi.update, updateGroup));
  app.route(viewerRoute<typeof groupsApi.updateByPost>(groupsApi.updateByPost, updateGroup));

  app.route(
    actionRoute(groupsApi.delete, 'group_deleted', async (request, viewer) => {
      const keys = await inNewTransaction(app, (ctx) => service.deleteGroup(ctx, viewer, request.params.groupId));
      await removePostMedia(app.storage, keys, request.log);
    }),
  );

  app.route({
    ...routeOf(groupsApi.get),
    handler: async (request) => ({ group: await service.getGroup(contextOf(app), await request.viewer(), request.params.name) }),
  });

  app.route({
    ...routeOf(groupsApi.name),
    // A group's name is public: the call reads no session.
    handler: async (request) => ({ name: await service.groupName(contextOf(app), null, request.params.groupId) }),
  });

  app.route({
    ...routeOf(groupsApi.pinned),
    handler: async (request) => {
      const ctx = contextOf(app);
      const viewer = await request.viewer();
      const postId = await service.pinnedPostId(ctx, viewer, request.params.name);
      try {
        return await getPostForViewer(ctx, viewer, postId);
      } catch (err) {
        if (err instanceof AppError && err.statusCode === 404) throw notFound('didnt_find_pinned');
        throw err;
      }
    },
  });

  // A group's members, its banned list and its join requests are one listing (same params and reply), told apart by `which`.
  const groupUsers = (which: service.GroupUsersQuery['which']) => async (request: RequestOf<typeof groupsApi.members>) =>
    service.listGroupUsers(contextOf(app), await request.viewer(), { nameOrId: request.params.name, which, query: request.query });
  app.route({ ...routeOf(groupsApi.members), handler: groupUsers('members') });
  app.route({ ...routeOf(groupsApi.banned), handler: groupUsers('banned') });
  app.route({ ...routeOf(groupsApi.requests), handler: groupUsers('requests') });

  app.route(actionRoute(groupsApi.join, 'joined_group', (request, viewer) => inNewTransaction(app, (ctx) => service.joinGroup(ctx, viewer, request.params.name))));
  app.route(actionRoute(groupsApi.leave, 'you_left', (request, viewer) => inNewTransaction(app, (ctx) => service.leaveGroup(ctx, viewer, request.params.name))));
  app.route(actionRoute(groupsApi.request, 'request_send', (request, viewer) => inNewTransaction(app, (ctx) => service.requestJoin(ctx, viewer, request.params.name))));
  app.route(
    actionRoute(groupsApi.withdraw, 'request_withdrawn', (request, viewer) => inNewTransaction(app, (ctx) => service.withdrawRequest(ctx, viewer, request.params.name))),
  );

  app.route(userActionRoute(groupsApi.accept, 'request_accepted', (ctx, viewer, call) => service.resolveRequest(ctx, viewer, { ...call, accept: true })));
  app.route(userActionRoute(groupsApi.deny, 'request_denied', (ctx, viewer, call) => service.resolveRequest(ctx, viewer, { ...call, accept: false })));
  app.route(userActionRoute(groupsApi.admin, 'made_admin', (ctx, viewer, call) => service.setAdmin(ctx, viewer, { ...call, makeAdmin: true })));
  app.route(userActionRoute(groupsApi.deadmin, 'revoked_admin', (ctx, viewer, call) => service.setAdmin(ctx, viewer, { ...call, makeAdmin: false })));
  app.route(userActionRoute(groupsApi.ban, 'user_banned', (ctx, viewer, call) => service.setBan(ctx, viewer, { ...call, ban: true })));
  app.route(userActionRoute(groupsApi.unban, 'user_unbanned', (ctx, viewer, call) => service.setBan(ctx, viewer, { ...call, ban: false })));
  app.route(userActionRoute(groupsApi.owner, 'owner_transferred', service.transferOwnership));

  app.route(
    actionRoute(groupsApi.pin, 'post_pinned', (request, viewer) =>
      inNewTransaction(app, (ctx) => service.pinPost(ctx, viewer, { nameOrId: request.params.name, postId: request.params.postId })),
    ),
  );
  app.route(actionRoute(groupsApi.unpin, 'post_unpinned', (request, viewer) => inNewTransaction(app, (ctx) => service.unpinPost(ctx, viewer, request.params.name))));
  app.route(
    actionRoute(groupsApi.removePost, 'post_removed', async (request, viewer) => {
      const keys = await inNewTransaction(app, (ctx) => service.removePost(ctx, viewer, { groupId: request.params.groupId, postId: request.params.postId }));
      await removePostMedia(app.storage, keys, request.log);
    }),
  );

  app.route(
    viewerRoute(groupsApi.notification, async (request, viewer) => ({
      notification: await inNewTransaction(app, (ctx) =>
        service.setNotificationLevel(ctx, viewer, { groupId: request.params.groupId, level: request.body.notification }),
      ),
    })),
  );

  // A group's avatar (POST /upload/gp/{groupId}, multipart field gp): the groups service decides who
  // may change it. Multipart bodies are parsed in this route's own plugin only, as for every upload.
  await app.register(async (uploads) => {
    await registerUploads(uploads);
    uploads.route(
      uploadRoute(mediaApi.uploadGroupPicture, async (request, viewer) => {
        const group = await service.groupForAvatar(contextOf(app), viewer, request.params.groupId);
        const upload = await readUpload(request);
        if (!upload.file) throw badRequest('only_images');
        return storeAvatar(app, 'gp', group.id, upload.file);
      }),
    );
  });
};
