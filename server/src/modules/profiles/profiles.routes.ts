import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { profilesApi } from '#core/api/profiles';
import { routeOf } from '../../lib/contract.js';
import { contextOf } from '../../lib/service-context.js';
import type { RequestOf } from '../../lib/handlers.js';
import * as service from './profiles.service.js';

/**
 * Profiles, their lists (followers, following, groups) and the user-name lookup of the search
 * history. A profile's posts and comments are served by the feeds and comments routes. The group
 * name lookup (GET /group/{id}/name) lives with the groups module's routes.
 */
export const profileRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = contextOf(app);
  app.route({
    ...routeOf(profilesApi.user),
    handler: async (request) => ({
      user: await service.getProfile(ctx, await request.viewer(), { username: request.params.username, group: request.query.group }),
    }),
  });

  // Both directions of a user's follow list have one handler, told apart by `direction`.
  const followList = (direction: 'followers' | 'following') => async (request: RequestOf<typeof profilesApi.followers>) =>
    service.followList(ctx, await request.viewer(), { username: request.params.username, direction, query: request.query });
  app.route({ ...routeOf(profilesApi.followers), handler: followList('followers') });
  app.route({ ...routeOf(profilesApi.following), handler: followList('following') });

  app.route({
    ...routeOf(profilesApi.groups),
    handler: async (request) => service.groupsOf(ctx, await request.viewer(), { username: request.params.username, query: request.query }),
  });

  app.route({
    ...routeOf(profilesApi.username),
    handler: async (request) => ({ name: await service.findUsername(ctx, request.params.userId) }),
  });
};
