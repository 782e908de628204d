import type { FastifyInstance } from 'fastify';
import { PAGE_SIZES } from '#core/limits';
import { findUserIdByName } from '../../db/users.js';
import { notFound } from '../../lib/app-error.js';
import { type PageQuery, pageWindow, toPage } from '../../lib/paging.js';
import type { Viewer } from '../../plugins/auth.js';
import { NO_STANDING, standingSeenBy } from '../groups/groups.service.js';
import { isBlockedBetween } from '../blocks/block-filters.js';
import { toGroupListReply, toProfile, toUserListReply } from './profiles.mapper.js';
import * as repo from './profiles.repository.js';
import type { GroupListReply, UserListReply } from '#core/api/common';
import type { Profile } from '#core/api/profiles';

const NO_RELATION = { follows: false, notify: false, logFollows: false };

/**
 * The profile; `group` (a group's name or id) asks for the user's standing there, which the groups
 * module tells only when the caller may see that group's members.
 */
export async function getProfile(app: FastifyInstance, viewer: Viewer | null, username: string, group?: string): Promise<Profile> {
  const row = await repo.findProfile(app.db, username);
  if (!row) throw notFound('user_not_found');
  const edges = viewer && viewer.id !== row.id ? await repo.followEdges(app.db, viewer.id, row.id) : NO_RELATION;
  const standing = group?.trim() ? await standingSeenBy(app.db, group.trim(), row.id, viewer?.id ?? null) : NO_STANDING;
  return toProfile(row, viewer?.id ?? null, edges, standing);
}

async function requireUserId(app: FastifyInstance, username: string): Promise<string> {
  const id = await findUserIdByName(app.db, username);
  if (!id) throw notFound('user_not_found');
  return id;
}

export async function followList(
  app: FastifyInstance,
  viewer: Viewer | null,
  username: string,
  direction: 'followers' | 'following',
  query: PageQuery,
): Promise<UserListReply> {
  const userId = await requireUserId(app, username);
  const window = pageWindow(query, PAGE_SIZES.users);
  const viewerId = viewer?.id ?? null;
  // Between two users a block stands between, the profile shows its header and empty lists.
  if (viewerId && (await isBlockedBetween(app.db, viewerId, userId))) return toUserListReply(app.db, { items: [], hasMore: false }, viewerId);
  const page = toPage(await repo.followListPage(app.db, userId, direction, query, window, viewerId), window);
  return toUserListReply(app.db, page, viewerId);
}

/** The groups a user belongs to. Group names are public, so private groups are listed too. */
export async function groupsOf(app: FastifyInstance, viewer: Viewer | null, username: string, query: PageQuery): Promise<GroupListReply> {
  const userId = await requireUserId(app, username);
  const window = pageWindow(query, PAGE_SIZES.groups);
  const page = toPage(await repo.memberGroupsPage(app.db, userId, query, window), window);
  return toGroupListReply(page, viewer?.id ?? null);
}

export async function usernameOf(app: FastifyInstance, id: string): Promise<string> {
  const name = await repo.usernameById(app.db, id);
  if (name === undefined) throw notFound('user_not_found');
  return name;
}
