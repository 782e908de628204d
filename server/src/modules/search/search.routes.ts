import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { LISTING_DEFAULTS } from '#core/listing';
import { searchComments } from '../comments/comments.service.js';
import { searchApi } from '#core/api/search';
import { routeOf } from '../../lib/contract.js';
import { viewerRoute } from '../../lib/handlers.js';
import { contextOf } from '../../lib/service-context.js';
import { feedPage, searchScope } from '../feeds/feeds.service.js';
import * as service from './search.service.js';

/**
 * Search: user suggestions, the composer's group slots, and the search page's lists of users,
 * groups, posts and replies (posts and replies are read by the feeds and comments services).
 */
export const searchRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = contextOf(app);
  app.route({
    ...routeOf(searchApi.suggestUsers),
    handler: async (request) => service.suggestUsers(ctx, await request.viewer(), request.query.query),
  });

  app.route(viewerRoute(searchApi.suggestMyGroups, (request, viewer) => service.suggestPostableGroups(ctx, viewer, request.query.query)));

  app.route({
    ...routeOf(searchApi.users),
    handler: async (request) => service.searchUsers(ctx, await request.viewer(), request.query),
  });

  app.route({
    ...routeOf(searchApi.groups),
    handler: async (request) => service.searchGroups(ctx, await request.viewer(), request.query),
  });

  app.route({
    ...routeOf(searchApi.posts),
    handler: async (request) => {
      const viewer = await request.viewer();
      const scope = searchScope(request.query.query);
      if (!scope) return { posts: [], hasMore: false };
      return feedPage(ctx, viewer, { scope, query: request.query, defaults: LISTING_DEFAULTS });
    },
  });

  app.route({
    ...routeOf(searchApi.replies),
    handler: async (request) => {
      const viewer = await request.viewer();
      return searchComments(ctx, viewer, request.query);
    },
  });
};
