import { type SqlBool, sql } from 'kysely';
import { remoteNameOf } from '#core/remote-names';
import type { Executor } from '../../db/schema.js';
import { forbidden } from '../../lib/app-error.js';
import { isId } from '../../lib/ids.js';
import { searchRank, searchTextContains } from '../../lib/search.js';
import { accountNotSuspended, userNotSuspended } from '../../policy/suspension.js';

/**
 * Communities of other servers (a Lemmy community, another Kruh's public group: a `Group` actor,
 * known here as an account) are where a post may go besides the instance's own groups, as Lemmy
 * and Mastodon users expect (FEP-1b12): a post or a comment is addressed to the community and sent
 * to its inbox, and the community passes it on to its members. A local user posts only into a
 * community they follow, the follow standing for joining, as it does for a remote person posting
 * into a group here. What is said under a post the community holds (one posted into it, one it
 * passed on) goes to it too, so its members read the answers.
 */

/** A remote community a post names: its account and its name here (`name@host`). */
export interface Community {
  accountId: string;
  name: string;
}

/** Where something for a community goes: its actor, and its server's shared inbox, else its own. */
export interface CommunityActor {
  id: string;
  inbox: string;
}

/** A user follows the account of the outer query's `users.id`. */
const followedBy = (userId: string) =>
  sql<SqlBool>`exists (select 1 from follows rc_f where rc_f.follower_id = ${userId} and rc_f.following_id = users.id)`;

/**
 * The remote communities among a post's group entries (each an account's id or its name, any
 * case), by entry; an entry naming nothing else stays what it was. An entry naming a remote account
 * that is not a community the author follows, or a remote name (`name@host`) known as no account
 * here, is refused: it would otherwise be kept as a plain tag the community never hears of.
 */
export async function communitiesNamed(db: Executor, authorId: string, entries: string[]): Promise<Map<string, Community>> {
  const found = new Map<string, Community>();
  if (entries.length === 0) return found;
  const rows = await db
    .selectFrom('users')
    .innerJoin('remote_actors', 'remote_actors.user_id', 'users.id')
    .select(['users.id', 'users.username', 'users.username_lower', 'users.suspended_at', 'remote_actors.is_group', followedBy(authorId).as('followed')])
    .where((eb) =>
      eb.or([...(entries.some(isId) ? [eb('users.id', 'in', entries.filter(isId))] : []), eb('users.username_lower', 'in', entries.map((entry) => entry.toLowerCase()))]),
    )
    .execute();
  for (const entry of entries) {
    const row = rows.find((account) => account.id === entry) ?? rows.find((account) => account.username_lower === entry.toLowerCase());
    if (!row) {
      if (remoteNameOf(entry)) throw forbidden('not_following_community');
      continue;
    }
    if (row.suspended_at !== null) throw forbidden('remote_blocked');
    if (Number(row.is_group) === 0 || !row.followed) throw forbidden('not_following_community');
    found.set(entry, { accountId: row.id, name: row.username });
  }
  return found;
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
 * The remote communities a post is in, once each: those it was posted into or whose Note named
 * them (in their order), then those that passed it on (the earliest first; only a Group's announce
 * is kept as a share). None that is suspended here.
 */
export async function communitiesOfPost(db: Executor, postId: string): Promise<CommunityActor[]> {
  const named = await db
    .selectFrom('post_remote_groups')
    .innerJoin('remote_actors', 'remote_actors.user_id', 'post_remote_groups.account_id')
    .select(['remote_actors.id', 'remote_actors.inbox', 'remote_actors.shared_inbox'])
    .where('post_remote_groups.post_id', '=', postId)
    .where(userNotSuspended('post_remote_groups.account_id'))
    .orderBy('post_remote_groups.position')
    .execute();
  const sharers = await db
    .selectFrom('post_shares')
    .innerJoin('remote_actors', 'remote_actors.user_id', 'post_shares.sharer_id')
    .select(['remote_actors.id', 'remote_actors.inbox', 'remote_actors.shared_inbox'])
    .where('post_shares.post_id', '=', postId)
    .where(userNotSuspended('post_shares.sharer_id'))
    .orderBy('post_shares.created_at')
    .orderBy('post_shares.sharer_id')
    .execute();
  const found = new Map<string, CommunityActor>();
  for (const row of [...named, ...sharers]) if (!found.has(row.id)) found.set(row.id, { id: row.id, inbox: row.shared_inbox ?? row.inbox });
  return [...found.values()];
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
    .where(searchTextContains(db, 'users', query))
    .orderBy(searchRank('users', query))
    .orderBy('users.username_lower')
    .orderBy('users.id')
    .limit(limit)
    .execute();
}
