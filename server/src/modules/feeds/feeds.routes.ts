import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { FEED_DEFAULTS, LISTING_DEFAULTS } from '#core/listing';
import { PathText } from '../../lib/schemas';
import { PostListSchema } from './feeds.schemas';
import { feedPage, hashtagScope } from './feeds.service';

const listSchema = { schema: PostListSchema };

/**
 * The feed tabs and hashtag lists. Four posts per page by default, each list filtered by what
 * the caller may see. A profile's, a group's and the search's posts use the same service from
 * the profiles, groups and search routes.
 */
export const feedRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/feed', listSchema, async (request) => {
    const viewer = await request.viewer();
    return feedPage(app.db, viewer?.id ?? null, { kind: 'all' }, request.query, FEED_DEFAULTS, app);
  });

  app.get('/feed/following', listSchema, async (request) => {
    const viewer = await request.requireViewer();
    return feedPage(app.db, viewer.id, { kind: 'following', userId: viewer.id }, request.query, FEED_DEFAULTS, app);
  });

  app.get('/feed/groups', listSchema, async (request) => {
    const viewer = await request.requireViewer();
    return feedPage(app.db, viewer.id, { kind: 'memberGroups', userId: viewer.id }, request.query, FEED_DEFAULTS, app);
  });

  app.get(
    '/feed/hash/:hashtag',
    { schema: { params: Type.Object({ hashtag: PathText }), ...PostListSchema } },
    async (request) => {
      const viewer = await request.viewer();
      return feedPage(app.db, viewer?.id ?? null, hashtagScope(request.params.hashtag), request.query, LISTING_DEFAULTS, app);
    },
  );
};
