import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { FEED_DEFAULTS, LISTING_DEFAULTS } from '#core/listing';
import { ListingQuery } from '../../lib/paging';
import { ErrorReplies } from '../../lib/schemas';
import { PostList } from '../posts/posts.schemas';
import { feedPage, groupScope, hashtagScope, profileScope, searchScope } from './feeds.service';

const response = { 200: PostList, ...ErrorReplies };
const listSchema = { schema: { querystring: ListingQuery, response } };
const PathText = Type.String({ minLength: 1, maxLength: 200 });

/**
 * Every list of posts: the feed tabs, hashtag, profile, group and search. Four posts
 * per page by default, each list filtered by what the caller may see.
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
    { schema: { params: Type.Object({ hashtag: PathText }), querystring: ListingQuery, response } },
    async (request) => {
      const viewer = await request.viewer();
      return feedPage(app.db, viewer?.id ?? null, hashtagScope(request.params.hashtag), request.query, LISTING_DEFAULTS, app);
    },
  );

  app.get(
    '/profile/posts/:username',
    { schema: { params: Type.Object({ username: PathText }), querystring: ListingQuery, response } },
    async (request) => {
      const viewer = await request.viewer();
      const scope = await profileScope(app.db, request.params.username);
      return feedPage(app.db, viewer?.id ?? null, scope, request.query, LISTING_DEFAULTS, app);
    },
  );

  app.get(
    '/group/:name/posts',
    { schema: { params: Type.Object({ name: PathText }), querystring: ListingQuery, response } },
    async (request) => {
      const viewer = await request.viewer();
      const scope = await groupScope(app.db, request.params.name, viewer?.id ?? null);
      return feedPage(app.db, viewer?.id ?? null, scope, request.query, LISTING_DEFAULTS, app);
    },
  );

  app.get('/search/for/posts', listSchema, async (request) => {
    const viewer = await request.viewer();
    const scope = searchScope(request.query.query);
    if (!scope) return { posts: [], hasMore: false };
    return feedPage(app.db, viewer?.id ?? null, scope, request.query, LISTING_DEFAULTS, app);
  });
};
