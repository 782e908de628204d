import { sql } from 'kysely';
import type { Executor } from '../../db/schema.js';
import { notBlockedBetween, notMutedBy } from '../../policy/blocks.js';
import { groupVisibleTo } from '../../policy/group-access.js';
import { accountNotSuspended } from '../../policy/suspension.js';

/**
 * The ranking of accounts to follow and groups to join. Each ranks every candidate by a count
 * (followers, members) and then by its last post, so on a young instance, where counts tie, the
 * active ones come first. The ranks are read in an inner query and ordered outside it, because
 * PostgreSQL orders by an output column's name alone, never by an expression over it.
 */

export interface SuggestedUserRow {
  id: string;
  username: string;
  pfp_version: number;
  followers: number;
}

export interface SuggestedGroupRow {
  id: string;
  name: string;
  gp_version: number;
  members: number;
}

const one = sql<number>`1`.as('one');

/** The ranked candidates in rank order (see above): their count, then their last post, then their id. */
function inRankOrder<Q extends { orderBy: (...args: any[]) => Q; limit: (limit: number) => Q }>(query: Q, count: 'ranked.followers' | 'ranked.members', limit: number): Q {
  return query.orderBy(count, 'desc').orderBy(sql`coalesce(ranked.last_post, 0)`, 'desc').orderBy('ranked.id').limit(limit);
}

/**
 * Accounts the viewer does not follow yet and may see: not the viewer, no block either way, not
 * muted, not suspended, verified.
 */
export async function suggestedUsers(db: Executor, viewerId: string, limit: number): Promise<SuggestedUserRow[]> {
  const ranked = db
    .selectFrom('users')
    .select(['users.id', 'users.username', 'users.pfp_version'])
    .select((eb) => [
      eb.selectFrom('follows').select((s) => s.fn.countAll<number>().as('n')).whereRef('follows.following_id', '=', 'users.id').as('followers'),
      eb.selectFrom('posts').select((s) => s.fn.max('posts.created_at').as('t')).whereRef('posts.author_id', '=', 'users.id').as('last_post'),
    ])
    .where('users.id', '!=', viewerId)
    .where('users.verified', '=', 1)
    .where(accountNotSuspended())
    .where(notBlockedBetween(viewerId, 'users.id'))
    .where(notMutedBy(viewerId, 'users.id'))
    .where((eb) =>
      eb.not(eb.exists(eb.selectFrom('follows as mine').select(one).where('mine.follower_id', '=', viewerId).whereRef('mine.following_id', '=', 'users.id'))),
    );
  const rows = await inRankOrder(db.selectFrom(ranked.as('ranked')).select(['ranked.id', 'ranked.username', 'ranked.pfp_version', 'ranked.followers']), 'ranked.followers', limit).execute();
  return rows.map((row) => ({ ...row, pfp_version: Number(row.pfp_version), followers: Number(row.followers ?? 0) }));
}

/**
 * Groups anyone may join at once (never a private group, nor one that takes requests) that the
 * viewer is neither a member of nor banned from.
 */
export async function suggestedGroups(db: Executor, viewerId: string, limit: number): Promise<SuggestedGroupRow[]> {
  const ranked = db
    .selectFrom('groups')
    .select(['groups.id', 'groups.name', 'groups.gp_version', 'groups.members'])
    .select((eb) =>
      eb.selectFrom('post_groups').select((s) => s.fn.max('post_groups.created_at').as('t')).whereRef('post_groups.group_id', '=', 'groups.id').as('last_post'),
    )
    .where(groupVisibleTo(null))
    .where('groups.request_join', '=', 0)
    .where((eb) =>
      eb.and([
        eb.not(eb.exists(eb.selectFrom('group_members as mine').select(one).where('mine.user_id', '=', viewerId).whereRef('mine.group_id', '=', 'groups.id'))),
        eb.not(eb.exists(eb.selectFrom('group_bans as ban').select(one).where('ban.user_id', '=', viewerId).whereRef('ban.group_id', '=', 'groups.id'))),
      ]),
    );
  const rows = await inRankOrder(db.selectFrom(ranked.as('ranked')).select(['ranked.id', 'ranked.name', 'ranked.gp_version', 'ranked.members']), 'ranked.members', limit).execute();
  return rows.map((row) => ({ ...row, gp_version: Number(row.gp_version), members: Number(row.members) }));
}
