import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { InfoKey } from '#core/errors';
import { LISTING_DEFAULTS } from '#core/listing';
import { groupsApi } from '#core/api/groups';
import { idempotentRequest } from '../../lib/idempotency.js';
import { routeOf } from '../../lib/contract.js';
import { type RequestOf, actionRoute, message, viewerRoute } from '../../lib/handlers.js';
import { AppError, notFound } from '../../lib/app-error.js';
import type { Viewer } from '../../plugins/auth.js';
import { feedPage, groupScope } from '../feeds/feeds.service.js';
import { getPostForViewer, removePostMedia } from '../posts/posts.service.js';
import * as moderation from '../reports/moderation.service.js';
import * as service from './groups.service.js';

/** The endpoints of an admin's or owner's call on one user of a group. */
type UserActionEndpoint = (typeof groupsApi)['accept' | 'deny' | 'admin' | 'deadmin' | 'ban' | 'unban' | 'owner'];

/**
 * The route of every admin's or owner's call on one user of a group (accept, deny, admin,
 * deadmin, ban, unban, owner): `run` gets the group's name, the caller's id and the user's id,
 * and the answer names what was done.
 */
function userActionRoute(e: UserActionEndpoint, info: InfoKey, run: (name: string, actorId: string, userId: string) => Promise<void>) {
  return actionRoute(e, info, (request, viewer) => run(request.params.name, viewer.id, request.params.pfp));
}

/**
 * Groups: the group, its lists, membership, moderation (its admins' calls and the reports of its
 * posts), pinning and settings. The group's avatar upload lives with the other uploads.
 */
export const groupRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const actionLimit: service.GroupActionLimit = { max: app.config.rates.groupActionsPerHour, windowMs: app.config.rates.windowMs };

  app.route({
    ...routeOf(groupsApi.create),
    handler: async (request, reply) => {
      const viewer = await request.requireViewer();
      return reply.status(201).send(await service.createGroup(app.db, viewer.id, request.body, idempotentRequest(request)));
    },
  });

  // The update call is served at PATCH and at POST alike, by one handler.
  const updateGroup = async (request: RequestOf<typeof groupsApi.update>, viewer: Viewer) => {
    const group = await service.updateGroup(app.db, request.params.groupId, viewer.id, request.body);
    return { group, ...message('group_updated') };
  };
  app.route(viewerRoute<typeof groupsApi.update>(groupsApi.update, updateGroup));
  app.route(viewerRoute<typeof groupsApi.updateByPost>(groupsApi.updateByPost, updateGroup));

  app.route(
    actionRoute(groupsApi.delete, 'group_deleted', async (request, viewer) => {
      const keys = await service.deleteGroup(app.db, request.params.groupId, viewer.id);
      await removePostMedia(app.storage, keys, request.log);
    }),
  );

  app.route({
    ...routeOf(groupsApi.get),
    handler: async (request) => {
      const viewer = await request.viewer();
      return { group: await service.getGroup(app.db, request.params.name, viewer?.id ?? null) };
    },
  });

  app.route({
    ...routeOf(groupsApi.name),
    handler: async (request) => ({ name: await service.groupName(app.db, request.params.groupId) }),
  });

  app.route({
    ...routeOf(groupsApi.pinned),
    handler: async (request) => {
      const viewerId = (await request.viewer())?.id ?? null;
      const postId = await service.pinnedPostId(app.db, request.params.name, viewerId);
      try {
        return await getPostForViewer(app.db, postId, viewerId, app);
      } catch (err) {
        if (err instanceof AppError && err.statusCode === 404) throw notFound('didnt_find_pinned');
        throw err;
      }
    },
  });

  // A group's members and its banned list are one listing (same params and reply), told apart by `which`.
  const groupUsers = (which: 'members' | 'banned') => async (request: RequestOf<typeof groupsApi.members>) => {
    const viewer = await request.viewer();
    return service.listGroupUsers(app.db, request.params.name, viewer?.id ?? null, which, request.query);
  };
  app.route({ ...routeOf(groupsApi.members), handler: groupUsers('members') });
  app.route({ ...routeOf(groupsApi.banned), handler: groupUsers('banned') });

  app.route({
    ...routeOf(groupsApi.posts),
    handler: async (request) => {
      const viewerId = (await request.viewer())?.id ?? null;
      const scope = await groupScope(app.db, request.params.name, viewerId);
      return feedPage(app.db, viewerId, scope, request.query, LISTING_DEFAULTS, app);
    },
  });

  app.route(actionRoute(groupsApi.join, 'joined_group', (request, viewer) => service.joinGroup(app.db, request.params.name, viewer.id, actionLimit)));
  app.route(actionRoute(groupsApi.leave, 'you_left', (request, viewer) => service.leaveGroup(app.db, request.params.name, viewer.id, actionLimit)));
  app.route(actionRoute(groupsApi.request, 'request_send', (request, viewer) => service.requestJoin(app.db, request.params.name, viewer.id, actionLimit)));

  app.route(userActionRoute(groupsApi.accept, 'request_accepted', (n, a, p) => service.resolveRequest(app.db, n, a, p, true)));
  app.route(userActionRoute(groupsApi.deny, 'request_denied', (n, a, p) => service.resolveRequest(app.db, n, a, p, false)));
  app.route(userActionRoute(groupsApi.admin, 'made_admin', (n, a, p) => service.setAdmin(app.db, n, a, p, true)));
  app.route(userActionRoute(groupsApi.deadmin, 'revoked_admin', (n, a, p) => service.setAdmin(app.db, n, a, p, false)));
  app.route(userActionRoute(groupsApi.ban, 'user_banned', (n, a, p) => service.setBan(app.db, n, a, p, true)));
  app.route(userActionRoute(groupsApi.unban, 'user_unbanned', (n, a, p) => service.setBan(app.db, n, a, p, false)));
  app.route(userActionRoute(groupsApi.owner, 'owner_transferred', (n, a, p) => service.transferOwnership(app.db, n, a, p)));

  app.route(actionRoute(groupsApi.pin, 'post_pinned', (request, viewer) => service.pinPost(app.db, request.params.name, viewer.id, request.params.postId)));
  app.route(actionRoute(groupsApi.unpin, 'post_unpinned', (request, viewer) => service.unpinPost(app.db, request.params.name, viewer.id)));
  app.route(
    actionRoute(groupsApi.removePost, 'post_removed', async (request, viewer) => {
      const keys = await service.removePost(app.db, request.params.groupId, viewer.id, request.params.postId);
      await removePostMedia(app.storage, keys, request.log);
    }),
  );

  app.route(
    viewerRoute(groupsApi.notification, async (request, viewer) => ({
      notification: await service.setNotificationLevel(app.db, request.params.groupId, viewer.id, request.body.notification),
    })),
  );

  // Reports of the group's posts, settled by its owner and admins through the moderation service.
  app.route(viewerRoute(groupsApi.reportQueue, (request, viewer) => moderation.groupQueue(app, viewer, request.params.name, request.query)));
  app.route(viewerRoute(groupsApi.reportLog, (request, viewer) => moderation.groupLog(app, viewer, request.params.name, request.query)));
  app.route({
    ...routeOf(groupsApi.actOnReport),
    handler: async (request) => {
      const viewer = await request.requireViewer();
      return message(await moderation.groupAct(app, viewer, request.params.name, request.params.reportId, request.body.action));
    },
  });
};
