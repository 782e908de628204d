import { type SqlBool, sql } from 'kysely';
import type { Executor } from '../../db/schema.js';
import { isId } from '../../lib/ids.js';
import { bestNameMatchesFirst, searchTextContains } from '../../lib/search.js';
import { accountNotSuspended, userNotSuspended } from '../../policy/suspension.js';

/** The queries of remote communities; what they mean is in remote-communities.ts. */

/** A user follows the account of the outer query's `users.id`. */
const followedBy = (userId: string) =>
  sql<SqlBool>`exists (select 1 from follows rc_f where rc_f.follower_id = ${userId} and rc_f.following_id = users.id)`;

/** The remote accounts among the entries (an account's id or its name, any case), whether each is a group, and whether the user follows it. */
export function remoteAccountsNamed(db: Executor, userId: string, entries: string[]) {
  return db
    .selectFrom('users')
    .innerJoin('remote_actors', 'remote_actors.user_id', 'users.id')
    .select(['users.id', 'users.username', 'users.username_lower', 'users.suspended_at', 'remote_actors.is_group', followedBy(userId).as('followed')])
    .where((eb) =>
      eb.or([...(entries.some(isId) ? [eb('users.id', 'in', entries.filter(isId))] : []), eb('users.username_lower', 'in', entries.map((entry) => entry.toLowerCase()))]),
    )
    .execute();
}

/** Keeps the remote communities a post is in, in the order given. */
export async function addPostCommunities(db: Executor, postId: string, accountIds: string[]): Promise<void> {
  const distinct = [...new Set(accountIds)];
  if (distinct.length === 0) return;
  await db
    .insertInto('post_remote_groups')
    .values(distinct.map((accountId, position) => ({ post_id: postId, account_id: accountId, position })))
    .onConflict((oc) => oc.columns(['post_id', 'account_id']).doNothing())
    .execute();
}

/** Whether a post was posted into (or named) this remote community. */
export async function isPostInCommunity(db: Executor, postId: string, accountId: string): Promise<boolean> {
  const row = await db.selectFrom('post_remote_groups').select('post_id').where('post_id', '=', postId).where('account_id', '=', accountId).executeTakeFirst();
  return row !== undefined;
}

/** The accounts of the known remote communities among these actor addresses (a Note's audience), in their order. */
export async function communityAccountsAmong(db: Executor, actorIds: string[]): Promise<string[]> {
  if (actorIds.length === 0) return [];
  const rows = await db
    .selectFrom('remote_actors')
    .select(['id', 'user_id'])
    .where('id', 'in', actorIds)
    .where('is_group', '=', 1)
    .where('user_id', 'is not', null)
    .execute();
  return actorIds.flatMap((actorId) => rows.find((row) => row.id === actorId)?.user_id ?? []);
}

/**
 * The actors of the remote communities a post is in, none suspended here: first those it was posted
 * into or whose Note named them, in their order, then those whose share of it is kept, the earliest
 * first. A community both named and sharing comes twice.
 */
export function communityActorsOfPost(db: Executor, postId: string) {
  const named = db
    .selectFrom('post_remote_groups')
    .select(['account_id', sql<number>`0`.as('source'), 'position as at'])
    .where('post_id', '=', postId);
  const sharing = db
    .selectFrom('post_shares')
    .select(['sharer_id as account_id', sql<number>`1`.as('source'), 'created_at as at'])
    .where('post_id', '=', postId);
  return db
    .selectFrom(named.unionAll(sharing).as('communities'))
    .innerJoin('remote_actors', 'remote_actors.user_id', 'communities.account_id')
    .select(['remote_actors.id', 'remote_actors.inbox', 'remote_actors.shared_inbox'])
    .where(userNotSuspended('communities.account_id'))
    .orderBy('communities.source')
    .orderBy('communities.at')
    .orderBy('communities.account_id')
    .execute();
}

/** The remote communities a user follows whose names match the typed text, best matches first (the composer's group slots). */
export async function followedCommunitiesMatching(db: Executor, userId: string, query: string, limit: number): Promise<{ id: string; username: string }[]> {
  if (limit <= 0) return [];
  return db
    .selectFrom('follows')
    .innerJoin('users', 'users.id', 'follows.following_id')
    .innerJoin('remote_actors', 'remote_actors.user_id', 'users.id')
    .select(['users.id', 'users.username'])
    .where('follows.follower_id', '=', userId)
    .where('remote_actors.is_group', '=', 1)
    .where(accountNotSuspended())
    .where(searchTextContains('users', query))
    .$call(bestNameMatchesFirst('users', query))
    .limit(limit)
    .execute();
}
