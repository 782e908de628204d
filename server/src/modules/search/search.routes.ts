import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { PageQuery } from '../../lib/paging';
import { ErrorReplies, GroupListReply, UserListReply } from '../../lib/schemas';
import { SearchResults, SuggestionQuery } from './search.schemas';
import * as service from './search.service';

/** User and group search: suggestions, the composer's group slots, the search page lists. */
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
};
