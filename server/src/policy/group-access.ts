import { type ExpressionBuilder, type RawBuilder, sql } from 'kysely';
import { runBound } from '../db/bound-statements.js';
import { lockRows } from '../db/dialect.js';
import { existsFlag, hasRow, rowsAmong, toBool, toFlag } from '../db/helpers.js';
import type { Database, Executor, GroupRole } from '../db/schema.js';

/**
 * Who may see and post what in groups: the one place every module asks about a member's standing,
 * a group's pages and who may post where. Which posts a private group keeps to its members is
 * post-visibility.ts's.
 */

/**
 * Whether the user is banned in any group the post is tagged with. A banned user takes no part in
 * the group's posts: no likes, comments, comment likes or reply posts there.
 */
export function isBannedFromPost(db: Executor, postId: string, userId: string): Promise<boolean> {
  return hasRow(
    db
      .selectFrom('post_groups')
      .innerJoin('group_bans', 'group_bans.group_id', 'post_groups.group_id')
      .select('group_bans.user_id')
      .where('post_groups.post_id', '=', postId)
      .where('group_bans.user_id', '=', userId),
  );
}

export interface Membership {
  role: 'member' | 'admin' | 'owner' | null;
  banned: boolean;
  requested: boolean;
}

/** The user's standing in one group, its three primary-key lookups in one statement. */
export async function membershipOf(db: Executor, groupId: string, userId: string | null): Promise<Membership> {
  if (!userId) return { role: null, banned: false, requested: false };
  const [row] = await runBound(db, 'groups.membership', { groupId, userId }, (a) =>
    db.selectNoFrom((eb) => [
      eb.selectFrom('group_members').select('role').where('group_id', '=', a.groupId).where('user_id', '=', a.userId).as('role'),
      eb.exists(eb.selectFrom('group_bans').select('user_id').where('group_id', '=', a.groupId).where('user_id', '=', a.userId)).as('banned'),
      eb.exists(eb.selectFrom('group_requests').select('user_id').where('group_id', '=', a.groupId).where('user_id', '=', a.userId)).as('requested'),
    ]));
  if (!row) throw new Error('membershipOf: no row');
  return { role: row.role ?? null, banned: toBool(row.banned), requested: toBool(row.requested) };
}

/** The user's role in each of the groups where they are a member. */
async function findRoles(db: Executor, userId: string, groupIds: string[]): Promise<Map<string, GroupRole>> {
  const rows = await rowsAmong(db, 'group_members', ['group_id', 'role'], { user_id: userId }, 'group_id', groupIds);
  return new Map(rows.map((r) => [r.group_id, r.role]));
}

/** Bans among the given groups and users, as "groupId:userId" keys. */
async function findBans(db: Executor, groupIds: string[], userIds: string[]): Promise<Set<string>> {
  if (groupIds.length === 0 || userIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('group_bans')
    .select(['group_id', 'user_id'])
    .where('group_id', 'in', groupIds)
    .where('user_id', 'in', userIds)
    .execute();
  return new Set(rows.map((r) => `${r.group_id}:${r.user_id}`));
}

/** One user's roles in several groups and the bans among those groups and several users. */
export interface Standings {
  /** The user's role in each group where they are a member, by group id. */
  roles: Map<string, GroupRole>;
  /** The bans, as "groupId:userId" keys. */
  bans: Set<string>;
}

/**
 * membershipOf for many groups at once, in two queries whatever the count: the roles of `userId`
 * (none for a visitor) and the bans of `userIds` (the authors on a page of posts, or a post's
 * author alone) in `groupIds`.
 */
export async function standingsIn(db: Executor, userId: string | null, groupIds: string[], userIds: string[]): Promise<Standings> {
  const [roles, bans] = await Promise.all([
    userId ? findRoles(db, userId, groupIds) : Promise.resolve(new Map<string, GroupRole>()),
    findBans(db, groupIds, userIds),
  ]);
  return { roles, bans };
}

/** The column of an outer query that holds a group's id. */
type GroupIdColumn = 'post_groups.group_id';

/**
 * The user's role in the group named by a column of the outer query, null when they are not a
 * member (always for a visitor): membershipOf's role as a column, so a page of posts reads its
 * groups and the reader's standing in them in one statement.
 */
export function roleIn(groupIdColumn: GroupIdColumn, userId: string | null): RawBuilder<GroupRole | null> {
  if (userId === null) return sql<null>`null`;
  return sql<GroupRole | null>`(select role_m.role from group_members role_m where role_m.group_id = ${sql.ref(groupIdColumn)} and role_m.user_id = ${userId})`;
}

/**
 * 1 when the user (an id, or a column of the outer query holding one) is banned from the group
 * named by a column of the outer query, else 0 (always for a visitor or a deleted author). Read it
 * with toBool.
 */
export function bannedIn(groupIdColumn: GroupIdColumn, user: string | null | { column: 'posts.author_id' }): RawBuilder<number> {
  if (user === null) return sql<number>`0`;
  const userId = typeof user === 'string' ? sql`${user}` : sql.ref(user.column);
  return existsFlag(sql`select 1 from group_bans ban_b where ban_b.group_id = ${sql.ref(groupIdColumn)} and ban_b.user_id = ${userId}`);
}

/** The roles that run a group: they may post in it even where only admins may. */
const ADMIN_ROLES = ['admin', 'owner'] as const;

export const isAdminRole = (role: Membership['role']): boolean => ADMIN_ROLES.some((admin) => admin === role);

/** canUserPost: a member who is not banned, when everyone may post or they are an admin. */
export function canPostIn(group: { everyone_can_post: boolean }, membership: Membership): boolean {
  if (!membership.role || membership.banned) return false;
  return group.everyone_can_post || isAdminRole(membership.role);
}

/**
 * canPostIn as an SQL condition on a membership row of the outer query (`group_members` joined to
 * its `groups` row): the member is not banned from the group, and the group lets every member post
 * or the member runs it. A list of the groups someone may post in filters by it, so its limit
 * counts only groups they can use; the ban is one primary-key lookup per membership.
 */
export function memberMayPost(eb: ExpressionBuilder<Database, 'group_members' | 'groups'>) {
  return eb.and([
    eb.not(
      eb.exists(
        eb
          .selectFrom('group_bans as post_ban')
          .select(sql<number>`1`.as('one'))
          .whereRef('post_ban.group_id', '=', 'group_members.group_id')
          .whereRef('post_ban.user_id', '=', 'group_members.user_id'),
      ),
    ),
    eb.or([eb('groups.everyone_can_post', '=', toFlag(true)), eb('group_members.role', 'in', [...ADMIN_ROLES])]),
  ]);
}

/** A group's pages (its posts, members, pinned post) are for everyone, or for members when private. */
export function canSeeGroupContent(group: { is_private: boolean }, membership: Membership): boolean {
  return !group.is_private || membership.role !== null;
}

/**
 * canSeeGroupContent as an SQL condition on the outer query's `groups` row: a public group, or a
 * private one the viewer is a member of (never for a visitor). Who belongs to a private group is
 * part of what its members keep to themselves, so a list of someone's groups (and its count) asks
 * this too; the list's owner is a member of each of their groups and so always sees them all.
 */
export function groupVisibleTo(viewerId: string | null) {
  return (eb: ExpressionBuilder<Database, 'groups'>) => {
    const isPublic = eb('groups.is_private', '=', toFlag(false));
    if (viewerId === null) return isPublic;
    const viewerIsMember = eb.exists(
      eb
        .selectFrom('group_members as seen_m')
        .select(sql<number>`1`.as('one'))
        .whereRef('seen_m.group_id', '=', 'groups.id')
        .where('seen_m.user_id', '=', viewerId),
    );
    return eb.or([isPublic, viewerIsMember]);
  };
}

/**
 * Holds the groups steady while a post is being added to them: a shared lock on each group's row
 * (in id order), so a ban, which locks the row for update, waits for the post or the post waits
 * for the ban, and the author's standing read next is the one that decides.
 */
export async function holdGroupsForPosting(db: Executor, groupIds: string[]): Promise<void> {
  await lockRows(db, 'groups', groupIds, 'share');
}

/** A group a new post names, as far as posting into it goes. */
export interface PostingGroup {
  id: string;
  name: string;
  name_lower: string;
  everyone_can_post: boolean;
}

/** Groups named by id or by lowercased name (the group slots of a new post). */
export async function groupsNamedForPosting(db: Executor, ids: string[], namesLower: string[]): Promise<PostingGroup[]> {
  if (ids.length === 0 && namesLower.length === 0) return [];
  const rows = await db
    .selectFrom('groups')
    .select(['id', 'name', 'name_lower', 'everyone_can_post'])
    .where((eb) =>
      eb.or([
        ...(ids.length > 0 ? [eb('id', 'in', ids)] : []),
        ...(namesLower.length > 0 ? [eb('name_lower', 'in', namesLower)] : []),
      ]),
    )
    .execute();
  return rows.map((row) => ({ ...row, everyone_can_post: toBool(row.everyone_can_post) }));
}

/** The groups of these ids with whom they let in and who may post there. */
export async function groupsPostingRules(
  db: Executor,
  ids: string[],
): Promise<Array<{ id: string; name: string; everyone_can_post: boolean; is_private: boolean; request_join: boolean }>> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('groups').select(['id', 'name', 'is_private', 'request_join', 'everyone_can_post']).where('id', 'in', ids).execute();
  return rows.map((row) => ({
    ...row,
    is_private: toBool(row.is_private),
    request_join: toBool(row.request_join),
    everyone_can_post: toBool(row.everyone_can_post),
  }));
}
