import { changedRows, rowExists } from '../../db/helpers.js';
import type { Executor } from '../../db/schema.js';
import type { ListFilter, PageWindow } from '../../lib/paging.js';
import { searchMatches } from '../../lib/search.js';
import type { UserListRow } from '../profiles/profiles.records.js';

/** Every SQL of blocks and mutes but the read filters (policy/blocks.ts). */

/** The two lists of users a person keeps: whom they blocked and whom they muted. */
export type UserListKind = 'block' | 'mute';

const USER_LISTS = {
  block: { table: 'user_blocks', owner: 'blocker_id', other: 'blocked_id' },
  mute: { table: 'user_mutes', owner: 'muter_id', other: 'muted_id' },
} as const;

/** Adds the user to the owner's list unless already there; true when a row was added. */
export async function addToList(db: Executor, kind: UserListKind, ownerId: string, userId: string, now: number): Promise<boolean> {
  const { table, owner, other } = USER_LISTS[kind];
  const result = await db
    .insertInto(table)
    .values({ [owner]: ownerId, [other]: userId, created_at: now } as never)
    .onConflict((oc) => oc.columns([owner, other] as never).doNothing())
    .executeTakeFirst();
  return changedRows(result);
}

export async function removeFromList(db: Executor, kind: UserListKind, ownerId: string, userId: string): Promise<boolean> {
  const { table, owner, other } = USER_LISTS[kind];
  const result = await db.deleteFrom(table).where(owner, '=', ownerId).where(other, '=', userId).executeTakeFirst();
  return changedRows(result);
}

export function isOnList(db: Executor, kind: UserListKind, ownerId: string, userId: string): Promise<boolean> {
  return kind === 'block'
    ? rowExists(db, 'user_blocks', { blocker_id: ownerId, blocked_id: userId })
    : rowExists(db, 'user_mutes', { muter_id: ownerId, muted_id: userId });
}

/** The owner's list as rows of (other_id, created_at), to join with users. */
function listSource(db: Executor, kind: UserListKind, ownerId: string) {
  const source = kind === 'block'
    ? db.selectFrom('user_blocks').select(['blocked_id as other_id', 'created_at']).where('blocker_id', '=', ownerId)
    : db.selectFrom('user_mutes').select(['muted_id as other_id', 'created_at']).where('muter_id', '=', ownerId);
  return db.selectFrom(source.as('list'));
}

/** One page of the owner's list, latest added first, over its `_list` index. */
export async function listPage(db: Executor, kind: UserListKind, ownerId: string, filter: ListFilter, window: PageWindow): Promise<UserListRow[]> {
  let query = listSource(db, kind, ownerId).innerJoin('users', 'users.id', 'list.other_id').select(['users.id', 'users.username', 'users.pfp_version']);
  const text = filter.query?.trim();
  if (text) query = query.where(searchMatches(db, 'users', text));
  if (filter.before !== undefined) query = query.where('list.created_at', '<=', filter.before);
  return query.orderBy('list.created_at', 'desc').orderBy('list.other_id', 'desc').limit(window.fetch).offset(window.offset).execute();
}

/** The owner's whole list, oldest first, with when each was added (the data export). */
export async function wholeList(db: Executor, kind: UserListKind, ownerId: string): Promise<Array<{ id: string; username: string; since: number }>> {
  const rows = await listSource(db, kind, ownerId)
    .innerJoin('users', 'users.id', 'list.other_id')
    .select(['users.id', 'users.username', 'list.created_at'])
    .orderBy('list.created_at')
    .orderBy('users.id')
    .execute();
  return rows.map((row) => ({ id: row.id, username: row.username, since: Number(row.created_at) }));
}

/** The user's muted hashtags, oldest first (the data export). */
export async function allMutedTags(db: Executor, userId: string): Promise<Array<{ tag: string; since: number }>> {
  const rows = await db.selectFrom('tag_mutes').select(['tag', 'created_at']).where('user_id', '=', userId).orderBy('created_at').orderBy('tag').execute();
  return rows.map((row) => ({ tag: row.tag, since: Number(row.created_at) }));
}

export async function addTag(db: Executor, userId: string, tag: string, now: number): Promise<void> {
  await db
    .insertInto('tag_mutes')
    .values({ user_id: userId, tag, created_at: now })
    .onConflict((oc) => oc.columns(['user_id', 'tag']).doNothing())
    .execute();
}

export async function removeTag(db: Executor, userId: string, tag: string): Promise<void> {
  await db.deleteFrom('tag_mutes').where('user_id', '=', userId).where('tag', '=', tag).execute();
}

/** One page of the user's muted hashtags, latest first (a short list: no text filter). */
export async function tagPage(db: Executor, userId: string, filter: ListFilter, window: PageWindow): Promise<{ tag: string; created_at: number }[]> {
  let query = db.selectFrom('tag_mutes').select(['tag', 'created_at']).where('user_id', '=', userId);
  if (filter.before !== undefined) query = query.where('created_at', '<=', filter.before);
  const rows = await query.orderBy('created_at', 'desc').orderBy('tag', 'desc').limit(window.fetch).offset(window.offset).execute();
  return rows.map((row) => ({ ...row, created_at: Number(row.created_at) }));
}
