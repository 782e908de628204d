import type { Executor } from '../../db/schema';

/** The follow edges between users (001 §3 follows, notify, logFollows). */

export async function userExists(db: Executor, userId: string): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
  return !!row;
}

/** Inserts the edge unless it exists; false when it already did (also under concurrent calls). */
export async function insertFollow(db: Executor, followerId: string, followingId: string, now: number): Promise<boolean> {
  const result = await db
    .insertInto('follows')
    .values({ follower_id: followerId, following_id: followingId, notify: 0, created_at: now })
    .onConflict((oc) => oc.columns(['follower_id', 'following_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function setNotify(db: Executor, followerId: string, followingId: string, notify: boolean): Promise<boolean> {
  const result = await db
    .updateTable('follows')
    .set({ notify: notify ? 1 : 0 })
    .where('follower_id', '=', followerId)
    .where('following_id', '=', followingId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteFollow(db: Executor, followerId: string, followingId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('follows')
    .where('follower_id', '=', followerId)
    .where('following_id', '=', followingId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
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
