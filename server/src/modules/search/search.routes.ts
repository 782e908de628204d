import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { LISTING_DEFAULTS } from '#core/listing';
import { ListingQuery, PageQuery } from '../../lib/paging';
import { ErrorReplies, GroupListReply, UserListReply } from '../../lib/schemas';
import { CommentList } from '../comments/comments.schemas';
import { searchComments } from '../comments/comments.service';
import { PostListSchema } from '../feeds/feeds.schemas';
import { feedPage, searchScope } from '../feeds/feeds.service';
import { SearchResults, SuggestionQuery } from './search.schemas';
import * as service from './search.service';

/**
 * Search: user suggestions, the composer's group slots, and the search page's lists of users,
 * groups, posts and replies (posts and replies are read by the feeds and comments services).
 */
export const searchRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/search/users',
    { schema: { querystring: SuggestionQuery, response: { 200: SearchResults, ...ErrorReplies } } },
    async (request) => service.suggestUsers(app, request.query.query),
  );

  app.get(
    '/search/mygroups',
    { schema: { querystring: SuggestionQuery, response: { 200: SearchResults, ...ErrorReplies } } },
    async (request) => service.suggestPostableGroups(app, await request.requireViewer(), request.query.query),
  );

  app.get(
    '/search/for/users',
    { schema: { querystring: PageQuery, response: { 200: UserListReply, ...ErrorReplies } } },
    async (request) => service.searchUsers(app, await request.viewer(), request.query),
  );

  app.get(
    '/search/for/groups',
    { schema: { querystring: PageQuery, response: { 200: GroupListReply, ...ErrorReplies } } },
    async (request) => service.searchGroups(app, await request.viewer(), request.query),
  );

  app.get('/search/for/posts', { schema: PostListSchema }, async (request) => {
    const viewer = await request.viewer();
    const scope = searchScope(request.query.query);
    if (!scope) return { posts: [], hasMore: false };
    return feedPage(app.db, viewer?.id ?? null, scope, request.query, LISTING_DEFAULTS, app);
  });

  app.get(
    '/search/for/replies',
    { schema: { querystring: ListingQuery, response: { 200: CommentList, ...ErrorReplies } } },
    async (request) => {
      const viewer = await request.viewer();
      return searchComments(app, viewer?.id ?? null, request.query);
    },
  );
};
