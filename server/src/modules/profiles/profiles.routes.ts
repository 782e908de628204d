import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { LISTING_DEFAULTS } from '#core/listing';
import { listByAuthor } from '../comments/comments.service.js';
import { profilesApi } from '#core/api/profiles';
import { routeOf } from '../../lib/contract.js';
import { contextOf } from '../../lib/service-context.js';
import type { RequestOf } from '../../lib/handlers.js';
import { feedPage, profileScope } from '../feeds/feeds.service.js';
import * as service from './profiles.service.js';

/**
 * Profiles, their lists (followers, following, groups, posts, comments) and the user-name lookup
 * of the search history. Posts and comments are read by the feeds and comments services. The
 * group name lookup (GET /group/{id}/name) lives with the groups module's routes.
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
    ...routeOf(profilesApi.posts),
    handler: async (request) => {
      const viewer = await request.viewer();
      const scope = await profileScope(ctx, viewer, request.params.username);
      return feedPage(ctx, viewer, { scope, query: request.query, defaults: LISTING_DEFAULTS });
    },
  });

  app.route({
    ...routeOf(profilesApi.comments),
    handler: async (request) => {
      const viewer = await request.viewer();
      return listByAuthor(ctx, viewer, { authorId: request.params.userId, query: request.query });
    },
  });

  app.route({
    ...routeOf(profilesApi.username),
    handler: async (request) => ({ name: await service.findUsername(ctx, request.params.userId) }),
  });
};
