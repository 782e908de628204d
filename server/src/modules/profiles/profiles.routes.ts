import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { PageQuery } from '../../lib/paging';
import { ErrorReplies, GroupListReply, NameReply, UserIdParams, UserListReply } from '../../lib/schemas';
import { ProfileReply, UsernameParams } from './profiles.schemas';
import * as service from './profiles.service';

/**
 * Profiles, their lists and the user-name lookup of the search history. The group
 * name lookup (GET /group/{id}/name) lives with the groups module's routes.
 */
export const profileRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/profile/user/:username',
    { schema: { params: UsernameParams, response: { 200: ProfileReply, ...ErrorReplies } } },
    async (request) => ({ user: await service.getProfile(app, await request.viewer(), request.params.username) }),
  );

  for (const list of ['followers', 'following'] as const) {
    app.get(
      `/profile/user/:username/${list}`,
      { schema: { params: UsernameParams, querystring: PageQuery, response: { 200: UserListReply, ...ErrorReplies } } },
      async (request) => service.followList(app, await request.viewer(), request.params.username, list, request.query),
    );
  }

  app.get(
    '/profile/user/:username/groups',
    { schema: { params: UsernameParams, querystring: PageQuery, response: { 200: GroupListReply, ...ErrorReplies } } },
    async (request) => service.groupsOf(app, await request.viewer(), request.params.username, request.query),
  );

  app.get(
    '/profile/:userId/username',
    { schema: { params: UserIdParams, response: { 200: NameReply, ...ErrorReplies } } },
    async (request) => ({ name: await service.usernameOf(app, request.params.userId) }),
  );
};
