import { PAGE_SIZES } from '#core/limits';
import { findUserIdByName } from '../../db/users.js';
import { notFound } from '../../lib/app-error.js';
import { type PageQuery, pageWindow, toPage } from '../../lib/paging.js';
import type { ServiceContext } from '../../lib/service-context.js';
import type { Viewer } from '../../plugins/auth.js';
import { NO_STANDING, standingSeenBy } from '../groups/groups.service.js';
import { isBlockedBetween } from '../../policy/blocks.js';
import { refreshIfStale } from '../remote/remote-refresh.js';
import { toGroupListReply, toProfile, toUserListReply } from './profiles.mapper.js';
import * as repo from './profiles.repository.js';
import type { GroupListReply, UserListReply } from '#core/api/common';
import type { Profile } from '#core/api/profiles';

const NO_RELATION = { follows: false, notify: false, logFollows: false };

/**
 * The profile; `group` (a group's name or id) asks for the user's standing there, which the groups
 * module tells only when the caller may see that group's members.
 */
export async function getProfile(ctx: ServiceContext, viewer: Viewer | null, input: { username: string; group?: string | undefined }): Promise<Profile> {
  const { db } = ctx;
  const group = input.group;
  const row = await repo.findProfile(db, input.username, viewer?.id ?? null);
  if (!row) throw notFound('user_not_found');
  // A remote account's profile, opened: its actor is read again once what is kept of it is old (a job).
  if (row.actor_id && row.actor_fetched_at != null) await refreshIfStale(ctx.app, { id: row.actor_id, fetchedAt: row.actor_fetched_at });
  const edges = viewer && viewer.id !== row.id ? await repo.followEdges(db, viewer.id, row.id) : NO_RELATION;
  const standing = group?.trim() ? await standingSeenBy(db, group.trim(), row.id, viewer?.id ?? null) : NO_STANDING;
  return toProfile(row, viewer?.id ?? null, edges, standing);
}

async function requireUserId(ctx: ServiceContext, username: string): Promise<string> {
  const id = await findUserIdByName(ctx.db, username);
  if (!id) throw notFound('user_not_found');
  return id;
}

export async function followList(
  ctx: ServiceContext,
  viewer: Viewer | null,
  input: { username: string; direction: 'followers' | 'following'; query: PageQuery },
): Promise<UserListReply> {
  const { direction, query } = input;
  const db = ctx.db;
  const userId = await requireUserId(ctx, input.username);
  const window = pageWindow(query, PAGE_SIZES.users);
  const viewerId = viewer?.id ?? null;
  // Between two users a block stands between, the profile shows its header and empty lists.
  if (viewerId && (await isBlockedBetween(db, viewerId, userId))) return toUserListReply(db, { items: [], hasMore: false }, viewerId);
  const page = toPage(await repo.followListPage(db, userId, direction, query, window, viewerId), window);
  return toUserListReply(db, page, viewerId);
}

/**
 * The groups a user belongs to. A private group's name is public, but who belongs to it is not: it
 * is listed only to its members (the user themself among them).
 */
export async function groupsOf(ctx: ServiceContext, viewer: Viewer | null, input: { username: string; query: PageQuery }): Promise<GroupListReply> {
  const { query } = input;
  const userId = await requireUserId(ctx, input.username);
  const window = pageWindow(query, PAGE_SIZES.groups);
  const page = toPage(await repo.memberGroupsPage(ctx.db, userId, viewer?.id ?? null, query, window), window);
  return toGroupListReply(page, viewer?.id ?? null);
}

/** GET /user/{userId}/username: anyone may ask, so there is no viewer. */
export async function findUsername(ctx: ServiceContext, id: string): Promise<string> {
  const name = await repo.usernameById(ctx.db, id);
  if (name === undefined) throw notFound('user_not_found');
  return name;
}
