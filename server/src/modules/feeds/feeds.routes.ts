import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { FEED_DEFAULTS, LISTING_DEFAULTS } from '#core/listing';
import { feedsApi } from '#core/api/feeds';
import { routeOf } from '../../lib/contract.js';
import { viewerRoute } from '../../lib/handlers.js';
import { contextOf } from '../../lib/service-context.js';
import { groupsApi } from '#core/api/groups';
import { profilesApi } from '#core/api/profiles';
import type { Viewer } from '../../lib/viewer.js';
import { type FeedQuery, feedPage, groupScope, hashtagScope, profileScope } from './feeds.service.js';

/**
 * The feed tabs, hashtag lists and the posts of a profile and of a group. Four posts per page by
 * default, each list filtered by what the caller may see. The search's posts use the same service
 * from the search routes.
 */
export const feedRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.route({
    ...routeOf(feedsApi.explore, { visitorCache: true }),
    handler: async (request) =>
      feedPage(contextOf(app), await request.viewer(), { scope: { kind: 'all' }, query: request.query, defaults: FEED_DEFAULTS }),
  });

  app.route(
    viewerRoute(feedsApi.following, (request, viewer) =>
      feedPage(contextOf(app), viewer, { scope: { kind: 'following', userId: viewer.id }, query: request.query, defaults: FEED_DEFAULTS }),
    ),
  );

  app.route(
    viewerRoute(feedsApi.groups, (request, viewer) =>
      feedPage(contextOf(app), viewer, { scope: { kind: 'memberGroups', userId: viewer.id }, query: request.query, defaults: FEED_DEFAULTS }),
    ),
  );

  app.route({
    ...routeOf(feedsApi.hashtag, { visitorCache: true }),
    handler: async (request) =>
      feedPage(contextOf(app), await request.viewer(), { scope: hashtagScope(request.params.hashtag), query: request.query, defaults: LISTING_DEFAULTS }),
  });

  // A profile's or a group's posts: its scope is asked first, so a missing user or a private
  // group's outsider is refused as its page refuses them.
  const namedPage = async (viewer: Viewer | null, name: string, query: FeedQuery, scopeOf: typeof profileScope) => {
    const ctx = contextOf(app);
    return feedPage(ctx, viewer, { scope: await scopeOf(ctx, viewer, name), query, defaults: LISTING_DEFAULTS });
  };

  app.route({
    ...routeOf(profilesApi.posts),
    handler: async (request) => namedPage(await request.viewer(), request.params.username, request.query, profileScope),
  });

  app.route({
    ...routeOf(groupsApi.posts),
    handler: async (request) => namedPage(await request.viewer(), request.params.name, request.query, groupScope),
  });
};
