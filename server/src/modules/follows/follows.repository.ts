import { changedRows } from '../../db/helpers';
import type { Executor } from '../../db/schema';

/** The follow edges between users. */

/** Inserts the edge unless it exists; false when it already did (also under concurrent calls). */
export async function insertFollow(db: Executor, followerId: string, followingId: string, now: number): Promise<boolean> {
  const result = await db
    .insertInto('follows')
    .values({ follower_id: followerId, following_id: followingId, notify: 0, created_at: now })
    .onConflict((oc) => oc.columns(['follower_id', 'following_id']).doNothing())
    .executeTakeFirst();
  return changedRows(result);
}

export async function setNotify(db: Executor, followerId: string, followingId: string, notify: boolean): Promise<boolean> {
  const result = await db
    .updateTable('follows')
    .set({ notify: notify ? 1 : 0 })
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
  return changedRows(result);
}

export interface FollowState {
  follows: boolean;
  notify: boolean;
}

/** Whether the viewer follows each of the users (one primary-key lookup per page). */
export async function followStates(db: Executor, viewerId: string | null, userIds: string[]): Promise<Map<string, FollowState>> {
  const states = new Map<string, FollowState>();
  if (!viewerId || userIds.length === 0) return states;
  const rows = await db
    .selectFrom('follows')
    .select(['following_id', 'notify'])
    .where('follower_id', '=', viewerId)
    .where('following_id', 'in', userIds)
    .execute();
  for (const row of rows) states.set(row.following_id, { follows: true, notify: row.notify === 1 });
  return states;
}

export const NOT_FOLLOWING: FollowState = { follows: false, notify: false };
