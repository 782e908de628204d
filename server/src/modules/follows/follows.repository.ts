import { changedRows, rowsAmong, toBool, toFlag } from '../../db/helpers.js';
import type { Executor } from '../../db/schema.js';
import type { FollowStateReply } from '#core/api/follows';
import { countFollow, followNeighbours, recountFollows } from '../counters/account-counts.js';

/** The follow edges between users; each edge written or removed here moves both accounts' counts with it. */

/** Inserts the edge unless it exists; false when it already did (also under concurrent calls). */
export async function insertFollow(db: Executor, followerId: string, followingId: string, now: number): Promise<boolean> {
  const result = await db
    .insertInto('follows')
    .values({ follower_id: followerId, following_id: followingId, notify: toFlag(false), created_at: now })
    .onConflict((oc) => oc.columns(['follower_id', 'following_id']).doNothing())
    .executeTakeFirst();
  if (!changedRows(result)) return false;
  await countFollow(db, followerId, followingId, 1);
  return true;
}

export async function setNotify(db: Executor, followerId: string, followingId: string, notify: boolean): Promise<boolean> {
  const result = await db
    .updateTable('follows')
    .set({ notify: toFlag(notify) })
    .where('follower_id', '=', followerId)
    .where('following_id', '=', followingId)
    .executeTakeFirst();
  return changedRows(result);
}

export async function deleteFollow(db: Executor, followerId: string, followingId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('follows')
    .where('follower_id', '=', followerId)
    .where('following_id', '=', followingId)
    .executeTakeFirst();
  if (!changedRows(result)) return false;
  await countFollow(db, followerId, followingId, -1);
  return true;
}

/** Removes every follow the users made. */
export async function deleteFollowsBy(db: Executor, followerIds: string[]): Promise<void> {
  if (followerIds.length === 0) return;
  const counted = await followNeighbours(db, followerIds);
  await db.deleteFrom('follows').where('follower_id', 'in', followerIds).execute();
  await recountFollows(db, counted);
}

/** The caller's follow of a user, as the follow calls and every user list answer it. */
export type FollowState = FollowStateReply;

/** Whether the viewer follows each of the users (one primary-key lookup per page). */
export async function followStates(db: Executor, viewerId: string | null, userIds: string[]): Promise<Map<string, FollowState>> {
  const states = new Map<string, FollowState>();
  if (!viewerId) return states;
  const rows = await rowsAmong(db, 'follows', ['following_id', 'notify'], { follower_id: viewerId }, 'following_id', userIds);
  for (const row of rows) states.set(row.following_id, { follows: true, notify: toBool(row.notify) });
  return states;
}

export const NOT_FOLLOWING: FollowState = { follows: false, notify: false };

/** A user on the other end of a follow, and since when. */
export interface FollowEdge {
  userId: string;
  username: string;
  since: number;
}

/**
 * Both directions of a user's follows, oldest first: whom they follow, with their switch for
 * being told of that user's new posts, and who follows them (whose switches are the followers' own).
 */
export async function followEdgesOf(db: Executor, userId: string): Promise<{ following: (FollowEdge & { notify: boolean })[]; followers: FollowEdge[] }> {
  const read = (own: 'follower_id' | 'following_id', other: 'follower_id' | 'following_id') =>
    db
      .selectFrom('follows')
      .innerJoin('users', 'users.id', `follows.${other}`)
      .select(['users.id', 'users.username', 'follows.created_at', 'follows.notify'])
      .where(`follows.${own}`, '=', userId)
      .orderBy('follows.created_at')
      .orderBy(`follows.${other}`)
      .execute();
  const [following, followers] = await Promise.all([read('follower_id', 'following_id'), read('following_id', 'follower_id')]);
  const edge = (row: (typeof following)[number]): FollowEdge => ({ userId: row.id, username: row.username, since: Number(row.created_at) });
  return {
    following: following.map((row) => ({ ...edge(row), notify: toBool(row.notify) })),
    followers: followers.map(edge),
  };
}
