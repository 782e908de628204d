import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { FEED_DEFAULTS, LISTING_DEFAULTS } from '#core/listing';
import { feedsApi } from '#core/api/feeds';
import { routeOf } from '../../lib/contract.js';
import { viewerRoute } from '../../lib/handlers.js';
import { feedPage, hashtagScope } from './feeds.service.js';

/**
 * The feed tabs and hashtag lists. Four posts per page by default, each list filtered by what
 * the caller may see. A profile's, a group's and the search's posts use the same service from
 * the profiles, groups and search routes.
 */
export const feedRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.route({
    ...routeOf(feedsApi.explore, { visitorCache: true }),
    handler: async (request) => {
      const viewer = await request.viewer();
      return feedPage(app.db, viewer?.id ?? null, { kind: 'all' }, request.query, FEED_DEFAULTS, app);
    },
  });

  app.route(
    viewerRoute(feedsApi.following, (request, viewer) =>
      feedPage(app.db, viewer.id, { kind: 'following', userId: viewer.id }, request.query, FEED_DEFAULTS, app),
    ),
  );

  app.route(
    viewerRoute(feedsApi.groups, (request, viewer) =>
      feedPage(app.db, viewer.id, { kind: 'memberGroups', userId: viewer.id }, request.query, FEED_DEFAULTS, app),
    ),
  );

  app.route({
    ...routeOf(feedsApi.hashtag, { visitorCache: true }),
    handler: async (request) => {
      const viewer = await request.viewer();
      return feedPage(app.db, viewer?.id ?? null, hashtagScope(request.params.hashtag), request.query, LISTING_DEFAULTS, app);
    },
  });
};
