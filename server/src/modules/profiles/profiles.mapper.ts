import type { Executor } from '../../db/schema.js';
import { followStates, NOT_FOLLOWING } from '../follows/follows.service.js';
import { remoteOriginOf } from '../../lib/remote-origin.js';
import { avatarUrl } from '../../policy/media-urls.js';
import type { GroupListRow, UserListRow } from './profiles.records.js';
import type { ProfileRow } from './profiles.repository.js';
import type { GroupListItem, GroupListReply, UserListItem, UserListReply } from '#core/api/common';
import type { Profile } from '#core/api/profiles';

export function toProfile(
  row: ProfileRow,
  viewerId: string | null,
  edges: { follows: boolean; notify: boolean; logFollows: boolean },
  standing: { admin: boolean; owner: boolean; banned: boolean },
): Profile {
  const itsme = viewerId === row.id;
  return {
    ...toUserRef(row),
    bio: row.bio,
    createdAt: row.created_at,
    followers: row.followers,
    following: row.following,
    groups: row.groups,
    itsme,
    logged: viewerId !== null,
    ...edges,
    isGoogle: row.google_sub !== null,
    ...standing,
    ...(itsme && row.email !== null ? { email: row.email } : {}),
    remote: remoteOriginOf(row.actor_id, row.actor_url),
  };
}

/** A user as every list of users shows them: name and avatar. */
export const toUserRef = (row: { id: string; username: string; pfp_version: number | string }) => ({
  _id: row.id,
  pfp: row.id,
  pfpUrl: avatarUrl('pfp', row.id, Number(row.pfp_version)),
  username: row.username,
});

/** A group as every list of groups shows it: name and avatar. */
export const toGroupListItem = (row: { id: string; name: string; gp_version: number | string }): GroupListItem => ({
  _id: row.id,
  gp: row.id,
  gpUrl: avatarUrl('gp', row.id, Number(row.gp_version)),
  name: row.name,
});

/** A page of users with the caller's follow of each (one extra query per page). */
export async function toUserListItems(db: Executor, rows: UserListRow[], viewerId: string | null): Promise<UserListItem[]> {
  const states = await followStates(db, viewerId, rows.map((r) => r.id));
  return rows.map((row) => ({ ...toUserRef(row), ...(states.get(row.id) ?? NOT_FOLLOWING) }));
}

export function toGroupListItems(rows: GroupListRow[]): GroupListItem[] {
  return rows.map(toGroupListItem);
}

/** `{userList, logged, hasMore, group}` of a page of users that is no group's (search, followers, following): group is null. */
export async function toUserListReply(
  db: Executor,
  page: { items: UserListRow[]; hasMore: boolean },
  viewerId: string | null,
): Promise<UserListReply> {
  return { userList: await toUserListItems(db, page.items, viewerId), logged: viewerId !== null, hasMore: page.hasMore, group: null };
}

/** `{groupList, logged, hasMore}` of a page of groups (search, a user's groups). */
export function toGroupListReply(page: { items: GroupListRow[]; hasMore: boolean }, viewerId: string | null): GroupListReply {
  return { groupList: toGroupListItems(page.items), logged: viewerId !== null, hasMore: page.hasMore };
}
