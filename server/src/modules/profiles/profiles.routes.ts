import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { LISTING_DEFAULTS } from '#core/listing';
import { ListingQuery, PageQuery } from '../../lib/paging';
import { ErrorReplies, GroupListReply, NameReply, PathText, UserIdParams, UserListReply } from '../../lib/schemas';
import { CommentList } from '../comments/comments.schemas';
import { listByAuthor } from '../comments/comments.service';
import { PostListSchema } from '../feeds/feeds.schemas';
import { feedPage, profileScope } from '../feeds/feeds.service';
import { ProfileReply, UsernameParams } from './profiles.schemas';
import * as service from './profiles.service';

const followListOptions = {
  schema: { params: UsernameParams, querystring: PageQuery, response: { 200: UserListReply, ...ErrorReplies } },
};

/**
 * Profiles, their lists (followers, following, groups, posts, comments) and the user-name lookup
 * of the search history. Posts and comments are read by the feeds and comments services. The
 * group name lookup (GET /group/{id}/name) lives with the groups module's routes.
 */
export const profileRoutes: FastifyPluginAsyncTypebox = async (app) => {
  /** One handler for both directions of a user's follow list. */
  const followList =
    (direction: 'followers' | 'following') =>
    async (request: FastifyRequest<{ Params: UsernameParams; Querystring: PageQuery }>) =>
      service.followList(app, await request.viewer(), request.params.username, direction, request.query);

  app.get(
    '/profile/user/:username',
    { schema: { params: UsernameParams, response: { 200: ProfileReply, ...ErrorReplies } } },
    async (request) => ({ user: await service.getProfile(app, await request.viewer(), request.params.username) }),
  );

  app.get('/profile/user/:username/followers', followListOptions, followList('followers'));
  app.get('/profile/user/:username/following', followListOptions, followList('following'));

  app.get(
    '/profile/user/:username/groups',
    { schema: { params: UsernameParams, querystring: PageQuery, response: { 200: GroupListReply, ...ErrorReplies } } },
    async (request) => service.groupsOf(app, await request.viewer(), request.params.username, request.query),
  );

  app.get(
    '/profile/posts/:username',
    { schema: { params: Type.Object({ username: PathText }), ...PostListSchema } },
    async (request) => {
      const viewer = await request.viewer();
      const scope = await profileScope(app.db, request.params.username);
      return feedPage(app.db, viewer?.id ?? null, scope, request.query, LISTING_DEFAULTS, app);
    },
  );

  app.get(
    '/profile/comments/:userId',
    { schema: { params: UserIdParams, querystring: ListingQuery, response: { 200: CommentList, ...ErrorReplies } } },
    async (request) => {
      const viewer = await request.viewer();
      return listByAuthor(app, viewer?.id ?? null, request.params.userId, request.query);
    },
  );

  app.get(
    '/profile/:userId/username',
    { schema: { params: UserIdParams, response: { 200: NameReply, ...ErrorReplies } } },
    async (request) => ({ name: await service.usernameOf(app, request.params.userId) }),
  );
};
