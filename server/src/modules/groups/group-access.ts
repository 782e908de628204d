import { type ExpressionBuilder, type RawBuilder, type SqlBool, sql } from 'kysely';
import { existsFlag, hasRow, isPostgres, toBool, toFlag } from '../../db/helpers.js';
import type { Database, Executor, GroupRole } from '../../db/schema.js';
import { postAuthorNotSuspended } from '../moderation/suspension.js';
import { findBans, findRoles } from './groups.repository.js';

/**
 * Who may see and post what in groups: the one place every module asks, so "private stays
 * private" is decided once. Only this file knows that a private group's posts are for its
 * members: the other modules ask it for a filter, a test or a flag.
 */

/** The column of an outer query that holds the post's id. */
type PostIdColumn = 'posts.id' | 'comments.post_id' | 'original.id';

// The filter plugs into any query whose tables include posts or comments, hence the open table set.
/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * Filter for queries over `posts`: a post tagged with a private group is visible only when the
 * viewer is a member of every private group it is in. Visitors (null) see no private post. A
 * suspended author's post is seen by nobody.
 */
export function postVisibleTo(viewerId: string | null, postIdColumn: PostIdColumn = 'posts.id') {
  return (eb: ExpressionBuilder<Database, any>) => eb.and([postGroupsVisibleTo(viewerId, postIdColumn)(eb), postAuthorNotSuspended(postIdColumn)]);
}

function postGroupsVisibleTo(viewerId: string | null, postIdColumn: PostIdColumn) {
  return (eb: ExpressionBuilder<Database, any>) =>
    eb.not(
      eb.exists(
        eb
          .selectFrom('post_groups as vis_pg')
          .innerJoin('groups as vis_g', 'vis_g.id', 'vis_pg.group_id')
          .select(sql<number>`1`.as('one'))
          .whereRef('vis_pg.post_id', '=', eb.ref(postIdColumn) as any)
          .where('vis_g.is_private', '=', 1)
          .where((inner) =>
            viewerId === null
              ? sql<SqlBool>`1 = 1`
              : inner.not(
                  inner.exists(
                    inner
                      .selectFrom('group_members as vis_m')
                      .select(sql<number>`1`.as('one'))
                      .whereRef('vis_m.group_id', '=', 'vis_g.id')
                      .where('vis_m.user_id', '=', viewerId),
                  ),
                ),
          ),
      ),
    );
}
/* eslint-enable @typescript-eslint/no-explicit-any */

/**
 * 1 when the post (by an id column of the outer query) is in any private group, else 0: its
 * images are then served only through signed URLs. Selected as a column; read it with toBool.
 */
export function postIsPrivate(postIdColumn: PostIdColumn): RawBuilder<number> {
  return existsFlag(sql`
    select 1 from post_groups priv_pg join "groups" priv_g on priv_g.id = priv_pg.group_id
    where priv_pg.post_id = ${sql.ref(postIdColumn)} and priv_g.is_private = 1
  `);
}

/**
 * postVisibleTo turned around, for one post and many candidate users (a fan-out batch): the
 * post's private groups are read once, and the answer is a condition on a column holding a
 * user's id, true when that user is a member of each of them (always, for a post in none).
 */
export async function postAudience(db: Executor, postId: string): Promise<(userColumn: string) => RawBuilder<SqlBool>> {
  const rows = await db
    .selectFrom('post_groups')
    .innerJoin('groups', 'groups.id', 'post_groups.group_id')
    .select('groups.id')
    .where('post_groups.post_id', '=', postId)
    .where('groups.is_private', '=', 1)
    .execute();
  const groupIds = rows.map((row) => row.id);
  return (userColumn) => {
    if (groupIds.length === 0) return sql<SqlBool>`1 = 1`;
    const each = groupIds.map(
      (groupId) => sql`exists (select 1 from group_members aud_m where aud_m.group_id = ${groupId} and aud_m.user_id = ${sql.ref(userColumn)})`,
    );
    return sql<SqlBool>`(${sql.join(each, sql` and `)})`;
  };
}

export async function isPostVisible(db: Executor, postId: string, viewerId: string | null): Promise<boolean> {
  const row = await db
    .selectFrom('posts')
    .select('posts.id')
    .where('posts.id', '=', postId)
    .where(postVisibleTo(viewerId))
    .executeTakeFirst();
  return !!row;
}

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
  const row = await db
    .selectNoFrom((eb) => [
      eb.selectFrom('group_members').select('role').where('group_id', '=', groupId).where('user_id', '=', userId).as('role'),
      eb.exists(eb.selectFrom('group_bans').select('user_id').where('group_id', '=', groupId).where('user_id', '=', userId)).as('banned'),
      eb.exists(eb.selectFrom('group_requests').select('user_id').where('group_id', '=', groupId).where('user_id', '=', userId)).as('requested'),
    ])
    .executeTakeFirstOrThrow();
  return { role: row.role ?? null, banned: toBool(row.banned), requested: toBool(row.requested) };
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
  if (groupIds.length === 0 || !isPostgres(db)) return;
  await db.selectFrom('groups').select('id').where('id', 'in', groupIds).orderBy('id').forShare().execute();
}
