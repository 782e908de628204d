import { toBool } from '../../db/helpers.js';
import type { Executor } from '../../db/schema.js';
import type { GroupListRow, UserListRow } from './profiles.records.js';
import type { ListFilter, PageWindow } from '../../lib/paging.js';
import { searchMatches } from '../../lib/search.js';
import { notBlockedBetween } from '../../policy/blocks.js';
import { accountNotSuspended } from '../../policy/suspension.js';
import { groupVisibleTo } from '../../policy/group-access.js';

/** Profiles, the lists on a profile, and the id -> username lookup. */

export interface ProfileRow {
  id: string;
  username: string;
  bio: string;
  email: string | null;
  google_sub: string | null;
  pfp_version: number;
  created_at: number;
  followers: number;
  following: number;
  groups: number;
  /** A remote account's actor id and its page on its server; null for a local account. */
  actor_id: string | null;
  actor_url: string | null;
  /** When the remote actor was last read from its server; null for a local account. */
  actor_fetched_at: number | null;
}

/**
 * The user by name, any case, with its counts (its follows as stored with its account; the
 * groups counted over an index on the user's id); the groups counted are those the viewer may see in the user's list of groups (memberGroupsPage).
 */
export async function findProfile(db: Executor, username: string, viewerId: string | null): Promise<ProfileRow | undefined> {
  const row = await db
    .selectFrom('users')
    .leftJoin('remote_actors', 'remote_actors.user_id', 'users.id')
    .leftJoin('account_counts', 'account_counts.user_id', 'users.id')
    .select(['users.id', 'users.username', 'users.bio', 'users.email', 'users.google_sub', 'users.pfp_version', 'users.created_at'])
    .select(['remote_actors.id as actor_id', 'remote_actors.url as actor_url', 'remote_actors.fetched_at as actor_fetched_at'])
    .select(['account_counts.followers', 'account_counts.following'])
    .select((eb) => [
      eb
        .selectFrom('group_members')
        .innerJoin('groups', 'groups.id', 'group_members.group_id')
        .select((s) => s.fn.countAll<number>().as('n'))
        .whereRef('group_members.user_id', '=', 'users.id')
        .where(groupVisibleTo(viewerId))
        .as('groups'),
    ])
    .where('users.username_lower', '=', username.toLowerCase())
    .where(accountNotSuspended())
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    ...row,
    created_at: Number(row.created_at),
    actor_fetched_at: row.actor_fetched_at == null ? null : Number(row.actor_fetched_at),
    followers: Number(row.followers ?? 0),
    following: Number(row.following ?? 0),
    groups: Number(row.groups ?? 0),
  };
}

/** Both directions of the follow edge between the viewer and a user. */
export async function followEdges(db: Executor, viewerId: string, userId: string) {
  const rows = await db
    .selectFrom('follows')
    .select(['follower_id', 'notify'])
    .where((eb) =>
      eb.or([
        eb.and([eb('follower_id', '=', viewerId), eb('following_id', '=', userId)]),
        eb.and([eb('follower_id', '=', userId), eb('following_id', '=', viewerId)]),
      ]),
    )
    .execute();
  const mine = rows.find((r) => r.follower_id === viewerId);
  return { follows: !!mine, notify: toBool(mine?.notify), logFollows: rows.some((r) => r.follower_id === userId) };
}

/**
 * One page of a user's followers (direction 'followers') or of whom they follow ('following'),
 * newest follow first, over the follows_following / follows_follower indexes.
 */
export async function followListPage(
  db: Executor,
  userId: string,
  direction: 'followers' | 'following',
  filter: ListFilter,
  window: PageWindow,
  viewerId: string | null = null,
): Promise<UserListRow[]> {
  const [own, other] = direction === 'followers' ? (['following_id', 'follower_id'] as const) : (['follower_id', 'following_id'] as const);
  let query = db
    .selectFrom('follows')
    .innerJoin('users', 'users.id', `follows.${other}`)
    .select(['users.id', 'users.username', 'users.pfp_version'])
    .where(`follows.${own}`, '=', userId)
    .where(accountNotSuspended())
    .where(notBlockedBetween(viewerId, 'users.id'));
  const text = filter.query?.trim();
  if (text) query = query.where(searchMatches(db, 'users', text));
  if (filter.before !== undefined) query = query.where('follows.created_at', '<=', filter.before);
  return query
    .orderBy('follows.created_at', 'desc')
    .orderBy(`follows.${other}`, 'desc')
    .limit(window.fetch)
    .offset(window.offset)
    .execute();
}

/**
 * One page of the groups a user is a member of (any role) that the viewer may see, latest joined
 * first: a private group only for its members.
 */
export async function memberGroupsPage(
  db: Executor,
  userId: string,
  viewerId: string | null,
  filter: ListFilter,
  window: PageWindow,
): Promise<GroupListRow[]> {
  let query = db
    .selectFrom('group_members')
    .innerJoin('groups', 'groups.id', 'group_members.group_id')
    .select(['groups.id', 'groups.name', 'groups.gp_version'])
    .where('group_members.user_id', '=', userId)
    .where(groupVisibleTo(viewerId));
  const text = filter.query?.trim();
  if (text) query = query.where(searchMatches(db, 'groups', text));
  if (filter.before !== undefined) query = query.where('group_members.created_at', '<=', filter.before);
  return query
    .orderBy('group_members.created_at', 'desc')
    .orderBy('group_members.group_id', 'desc')
    .limit(window.fetch)
    .offset(window.offset)
    .execute();
}

export async function usernameById(db: Executor, id: string): Promise<string | undefined> {
  const row = await db.selectFrom('users').select('username').where('id', '=', id).executeTakeFirst();
  return row?.username;
}
