import { type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import { hasRow, isPostgres } from '../../db/helpers';
import type { Database, Executor } from '../../db/schema';

/**
 * Who may see and post what in groups: the one place every module asks, so "private stays
 * private" is decided once.
 */

// The filter plugs into any query whose tables include posts or comments, hence the open table set.
/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * Filter for queries over `posts`: a post tagged with a private group is visible only when the
 * viewer is a member of every private group it is in. Visitors (null) see no private post.
 */
export function postVisibleTo(viewerId: string | null, postIdColumn: 'posts.id' | 'comments.post_id' = 'posts.id') {
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

export async function membershipOf(db: Executor, groupId: string, userId: string | null): Promise<Membership> {
  if (!userId) return { role: null, banned: false, requested: false };
  const [member, ban, request] = await Promise.all([
    db.selectFrom('group_members').select('role').where('group_id', '=', groupId).where('user_id', '=', userId).executeTakeFirst(),
    db.selectFrom('group_bans').select('user_id').where('group_id', '=', groupId).where('user_id', '=', userId).executeTakeFirst(),
    db.selectFrom('group_requests').select('user_id').where('group_id', '=', groupId).where('user_id', '=', userId).executeTakeFirst(),
  ]);
  return { role: member?.role ?? null, banned: !!ban, requested: !!request };
}

export const isAdminRole = (role: Membership['role']): boolean => role === 'admin' || role === 'owner';

/** canUserPost: a member who is not banned, when everyone may post or they are an admin. */
export function canPostIn(group: { everyone_can_post: number }, membership: Membership): boolean {
  if (!membership.role || membership.banned) return false;
  return group.everyone_can_post === 1 || isAdminRole(membership.role);
}

export function canSeeGroupContent(group: { is_private: number }, membership: Membership): boolean {
  return group.is_private === 0 || membership.role !== null;
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
