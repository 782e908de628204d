import { sql } from 'kysely';
import { runBound } from '../../db/bound-statements.js';
import { addToCounters, changedRows as affected, columnOf, hasRow, insertOnce, toBool, toFlag } from '../../db/helpers.js';
import type { Executor, GroupRole, GroupRow } from '../../db/schema.js';
import { isId } from '../../lib/ids.js';
import type { ListFilter, PageWindow } from '../../lib/paging.js';
import { lockRows, lockingRead } from '../../db/dialect.js';
import { searchMatches } from '../../lib/search.js';
import { accountNotSuspended } from '../../policy/suspension.js';

/**
 * Every SQL of the groups module, and the reads other modules make of groups, memberships and
 * bans. Functions take an Executor so services compose them in one transaction.
 */

/** Owner first, then admins, then members: the order members are listed and successors chosen in. */
const roleRank = sql<number>`case group_members.role when 'owner' then 0 when 'admin' then 1 else 2 end`;

/** A group's settings as the rules read them: true or false, never the stored 0 or 1. */
export interface GroupFlags {
  is_private: boolean;
  request_join: boolean;
  everyone_can_post: boolean;
}

/** A group as its row, with its settings as booleans. */
export type GroupRecord = Omit<GroupRow, keyof GroupFlags> & GroupFlags;

function toGroupRecord(row: GroupRow | undefined): GroupRecord | undefined {
  if (!row) return undefined;
  return {
    ...row,
    is_private: toBool(row.is_private),
    request_join: toBool(row.request_join),
    everyone_can_post: toBool(row.everyone_can_post),
  };
}

export async function findGroupById(db: Executor, id: string): Promise<GroupRecord | undefined> {
  if (!isId(id)) return undefined;
  const [row] = await runBound(db, 'groups.byId', { id }, (a) => db.selectFrom('groups').selectAll().where('id', '=', a.id));
  return toGroupRecord(row);
}

/**
 * A path segment shaped like an id names the group with that id; a name only when no group has
 * it. Otherwise a group named like another group's id would answer for that group.
 */
export async function findGroupByNameOrId(db: Executor, nameOrId: string): Promise<GroupRecord | undefined> {
  const byId = await findGroupById(db, nameOrId);
  if (byId) return byId;
  // A group's page and its posts read it on every request: bound, not built (bound-statements.ts).
  const [row] = await runBound(db, 'groups.byName', { nameLower: nameOrId.toLowerCase() }, (a) => db.selectFrom('groups').selectAll().where('name_lower', '=', a.nameLower));
  return toGroupRecord(row);
}

/**
 * Locks the group's row for the rest of the transaction and answers it as it is now. Every change
 * of membership, requests, bans, roles, ownership or privacy takes this lock before it reads what
 * it decides on, so two such changes of one group run one after the other (on PostgreSQL; SQLite
 * runs one writer at a time anyway).
 */
export async function lockGroup(db: Executor, groupId: string): Promise<GroupRecord | undefined> {
  return toGroupRecord(await db.selectFrom('groups').selectAll().where('id', '=', groupId).$call(lockingRead(db)).executeTakeFirst());
}

/** Locks several groups, in id order so two transactions locking overlapping sets cannot deadlock. */
export async function lockGroups(db: Executor, groupIds: string[]): Promise<void> {
  await lockRows(db, 'groups', groupIds);
}

/** Ids of every group the user owns or is a member of, in one read. */
export async function groupIdsOfUser(db: Executor, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('group_members')
    .select('group_id as id')
    .where('user_id', '=', userId)
    .union(db.selectFrom('groups').select('id').where('owner_id', '=', userId))
    .execute();
  return rows.map((r) => r.id);
}

/** Ids of the groups the user owns, oldest first. */
export async function ownedGroupIds(db: Executor, userId: string): Promise<string[]> {
  const rows = await db.selectFrom('groups').select('id').where('owner_id', '=', userId).orderBy('id').execute();
  return rows.map((r) => r.id);
}

/**
 * Locks the user's row (PostgreSQL): until the transaction ends nobody can make them a member or
 * an owner, since adding a row that names a user waits on a lock that conflicts with this one.
 */
export async function lockUser(db: Executor, userId: string): Promise<void> {
  await lockRows(db, 'users', [userId]);
}

/**
 * Who takes over a group its owner leaves: the longest-serving admin, else the longest-standing
 * member (ties by user id, so the choice never depends on the database's row order).
 */
export async function findSuccessor(db: Executor, groupId: string, leavingId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('group_members')
    .select('user_id')
    .where('group_id', '=', groupId)
    .where('user_id', '!=', leavingId)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('group_bans')
            .select('group_bans.user_id')
            .whereRef('group_bans.group_id', '=', 'group_members.group_id')
            .whereRef('group_bans.user_id', '=', 'group_members.user_id'),
        ),
      ),
    )
    .orderBy(roleRank)
    .orderBy('group_members.created_at')
    .orderBy('group_members.user_id')
    .limit(1)
    .executeTakeFirst();
  return row?.user_id;
}

export async function setOwner(db: Executor, groupId: string, userId: string): Promise<void> {
  await db.updateTable('groups').set({ owner_id: userId }).where('id', '=', groupId).execute();
}

/** A change of one user's membership row (their role, their notification level). */
const memberUpdate = (db: Executor, groupId: string, userId: string, values: { role?: GroupRole; level?: number }) =>
  db.updateTable('group_members').set(values).where('group_id', '=', groupId).where('user_id', '=', userId);

/** Sets a member's role whatever it was; false when the user is not a member. */
export async function setRole(db: Executor, groupId: string, userId: string, role: GroupRole): Promise<boolean> {
  return affected(await memberUpdate(db, groupId, userId, { role }).executeTakeFirst());
}

/** Whether another group has this name in any case, or a look-alike of it (the same skeleton). */
export async function nameTaken(db: Executor, nameLower: string, nameSkeleton: string, exceptId: string | null): Promise<boolean> {
  let query = db
    .selectFrom('groups')
    .select('id')
    .where((eb) => eb.or([eb('name_lower', '=', nameLower), eb('name_skeleton', '=', nameSkeleton)]));
  if (exceptId) query = query.where('id', '!=', exceptId);
  return hasRow(query);
}

/**
 * Counts the groups a user owns. On PostgreSQL the user's row is locked first, so two concurrent
 * creations by one user cannot both pass the limit (SQLite serializes writers anyway).
 */
export async function countOwnedGroupsLocked(db: Executor, userId: string): Promise<number> {
  await lockRows(db, 'users', [userId]);
  const row = await db
    .selectFrom('groups')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('owner_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface GroupFields extends GroupFlags {
  name: string;
  description: string;
  /** Look-alike skeleton of the name (core/text.ts), under a unique index. */
  name_skeleton: string;
  search_text: string;
}

/** The columns the fields are stored in. */
function toColumns(fields: GroupFields) {
  return {
    ...fields,
    name_lower: fields.name.toLowerCase(),
    is_private: toFlag(fields.is_private),
    request_join: toFlag(fields.request_join),
    everyone_can_post: toFlag(fields.everyone_can_post),
  };
}

export async function insertGroup(db: Executor, group: GroupFields & { id: string; owner_id: string; created_at: number }): Promise<void> {
  await db
    .insertInto('groups')
    .values({ ...toColumns(group), id: group.id, owner_id: group.owner_id, created_at: group.created_at, pinned_post_id: null, members: 0, bans: 0 })
    .execute();
}

export async function updateGroup(db: Executor, id: string, fields: GroupFields): Promise<void> {
  await db.updateTable('groups').set(toColumns(fields)).where('id', '=', id).execute();
}

/** Adds to the members and bans counters in place, so concurrent changes never lose a count. */
export function adjustCounts(db: Executor, groupId: string, delta: { members?: number; bans?: number }): Promise<void> {
  return addToCounters(db, 'groups', groupId, delta);
}

/** Inserts the membership; false when the user already was a member (nothing changed). */
export function insertMember(db: Executor, groupId: string, userId: string, role: GroupRole, now: number): Promise<boolean> {
  return insertOnce(db, 'group_members', { group_id: groupId, user_id: userId, role, level: 0, created_at: now }, ['group_id', 'user_id']);
}

export async function deleteMember(db: Executor, groupId: string, userId: string): Promise<boolean> {
  const result = await db.deleteFrom('group_members').where('group_id', '=', groupId).where('user_id', '=', userId).executeTakeFirst();
  return affected(result);
}

/** Changes a member's role only when it still is `from`; false when it was not. */
export async function changeRole(db: Executor, groupId: string, userId: string, from: GroupRole, to: GroupRole): Promise<boolean> {
  return affected(await memberUpdate(db, groupId, userId, { role: to }).where('role', '=', from).executeTakeFirst());
}

export async function setLevel(db: Executor, groupId: string, userId: string, level: number): Promise<boolean> {
  return affected(await memberUpdate(db, groupId, userId, { level }).executeTakeFirst());
}

export async function findLevel(db: Executor, groupId: string, userId: string): Promise<number | null> {
  return (await columnOf(db, 'group_members', 'level', { group_id: groupId, user_id: userId })) ?? null;
}

type UserTable = 'group_bans' | 'group_requests';

export function insertUserRow(db: Executor, table: UserTable, groupId: string, userId: string, now: number): Promise<boolean> {
  return insertOnce(db, table, { group_id: groupId, user_id: userId, created_at: now }, ['group_id', 'user_id']);
}

export async function deleteUserRow(db: Executor, table: UserTable, groupId: string, userId: string): Promise<boolean> {
  const result = await db.deleteFrom(table).where('group_id', '=', groupId).where('user_id', '=', userId).executeTakeFirst();
  return affected(result);
}

export async function findUser(db: Executor, id: string): Promise<{ id: string; username: string } | undefined> {
  if (!isId(id)) return undefined;
  return db.selectFrom('users').select(['id', 'username']).where('id', '=', id).executeTakeFirst();
}

export interface ListedUser {
  id: string;
  username: string;
  pfp_version: number;
  role: GroupRole | null;
}

/**
 * One page of members: owner, admins, then members, each oldest membership first; `query` filters by
 * username. A suspended account's profile is hidden from everyone, so it is not listed either (its
 * membership stays, and it shows again when the suspension is lifted).
 */
export async function listMembers(db: Executor, groupId: string, filter: ListFilter, window: PageWindow): Promise<ListedUser[]> {
  let q = db
    .selectFrom('group_members')
    .innerJoin('users', 'users.id', 'group_members.user_id')
    .select(['users.id', 'users.username', 'users.pfp_version', 'group_members.role'])
    .where('group_members.group_id', '=', groupId)
    .where(accountNotSuspended());
  const text = filter.query?.trim();
  if (text) q = q.where(searchMatches(db, 'users', text));
  if (filter.before !== undefined) q = q.where('group_members.created_at', '<=', filter.before);
  return q.orderBy(roleRank).orderBy('group_members.created_at').orderBy('group_members.user_id').limit(window.fetch).offset(window.offset).execute();
}

/** One page of banned users, most recent ban first. */
export async function listBanned(db: Executor, groupId: string, filter: ListFilter, window: PageWindow): Promise<ListedUser[]> {
  let q = db
    .selectFrom('group_bans')
    .innerJoin('users', 'users.id', 'group_bans.user_id')
    .select(['users.id', 'users.username', 'users.pfp_version', sql<GroupRole | null>`null`.as('role')])
    .where('group_bans.group_id', '=', groupId);
  const text = filter.query?.trim();
  if (text) q = q.where(searchMatches(db, 'users', text));
  if (filter.before !== undefined) q = q.where('group_bans.created_at', '<=', filter.before);
  return q.orderBy('group_bans.created_at', 'desc').orderBy('group_bans.user_id').limit(window.fetch).offset(window.offset).execute();
}

/**
 * One page of the users asking to join, oldest request first (the one waiting longest is answered
 * first); suspended accounts are left out as in the members list.
 */
export async function listRequests(db: Executor, groupId: string, filter: ListFilter, window: PageWindow): Promise<ListedUser[]> {
  let q = db
    .selectFrom('group_requests')
    .innerJoin('users', 'users.id', 'group_requests.user_id')
    .select(['users.id', 'users.username', 'users.pfp_version', sql<GroupRole | null>`null`.as('role')])
    .where('group_requests.group_id', '=', groupId)
    .where(accountNotSuspended());
  const text = filter.query?.trim();
  if (text) q = q.where(searchMatches(db, 'users', text));
  if (filter.before !== undefined) q = q.where('group_requests.created_at', '<=', filter.before);
  return q.orderBy('group_requests.created_at').orderBy('group_requests.user_id').limit(window.fetch).offset(window.offset).execute();
}

export async function setPinned(db: Executor, groupId: string, postId: string | null): Promise<void> {
  await db.updateTable('groups').set({ pinned_post_id: postId }).where('id', '=', groupId).execute();
}

/**
 * Deletes the group and its memberships, bans and requests (the posts module untags its posts, the
 * notifications module forgets its notifications). Foreign keys cascade too; the explicit deletes
 * keep the outcome the same on a database where they are not enforced.
 */
export async function deleteGroup(db: Executor, groupId: string): Promise<void> {
  await db.deleteFrom('group_members').where('group_id', '=', groupId).execute();
  await db.deleteFrom('group_bans').where('group_id', '=', groupId).execute();
  await db.deleteFrom('group_requests').where('group_id', '=', groupId).execute();
  await db.deleteFrom('groups').where('id', '=', groupId).execute();
}

export interface MembershipRow {
  id: string;
  name: string;
  description: string;
  is_private: boolean;
  role: GroupRole;
  /** The member's notification level (GROUP_NOTIFICATION_LEVELS). */
  level: number;
  joined_at: number;
}

/** Every group the user is a member of (any role), oldest membership first. */
export async function findMembershipsOf(db: Executor, userId: string): Promise<MembershipRow[]> {
  const rows = await db
    .selectFrom('group_members')
    .innerJoin('groups', 'groups.id', 'group_members.group_id')
    .select([
      'groups.id',
      'groups.name',
      'groups.description',
      'groups.is_private',
      'group_members.role',
      'group_members.level',
      'group_members.created_at as joined_at',
    ])
    .where('group_members.user_id', '=', userId)
    .orderBy('group_members.created_at')
    .orderBy('group_members.group_id')
    .execute();
  return rows.map((row) => ({ ...row, is_private: toBool(row.is_private), level: Number(row.level), joined_at: Number(row.joined_at) }));
}
