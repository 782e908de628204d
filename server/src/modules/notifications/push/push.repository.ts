import type { Executor, PushSubscriptionsTable } from '../../../db/schema.js';
import type { Selectable } from 'kysely';

/** The push module's queries: devices' subscriptions, one row per push endpoint. */

export type PushSubscriptionRow = Selectable<PushSubscriptionsTable>;

export interface NewSubscription {
  id: string;
  userId: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  now: number;
}

/** Stores the subscription, or gives an existing one with the same endpoint this owner and these keys (and a clean record). */
export async function upsertSubscription(db: Executor, s: NewSubscription): Promise<void> {
  await db
    .insertInto('push_subscriptions')
    .values({ id: s.id, user_id: s.userId, endpoint: s.endpoint, p256dh: s.p256dh, auth: s.auth, created_at: s.now, updated_at: s.now })
    .onConflict((oc) => oc.column('endpoint').doUpdateSet({ user_id: s.userId, p256dh: s.p256dh, auth: s.auth, updated_at: s.now, failures: 0 }))
    .execute();
}

/** Removes the user's subscriptions beyond the `keep` most recently renewed (devices long gone). */
export async function trimSubscriptions(db: Executor, userId: string, keep: number): Promise<void> {
  const stale = await db
    .selectFrom('push_subscriptions')
    .select('id')
    .where('user_id', '=', userId)
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'desc')
    .offset(keep)
    .limit(1000)
    .execute();
  if (stale.length) await db.deleteFrom('push_subscriptions').where('id', 'in', stale.map((row) => row.id)).execute();
}

/** Removes the user's subscription with this endpoint; another user's stays. */
export async function deleteOwnSubscription(db: Executor, userId: string, endpoint: string): Promise<void> {
  await db.deleteFrom('push_subscriptions').where('endpoint', '=', endpoint).where('user_id', '=', userId).execute();
}

export async function findSubscription(db: Executor, id: string): Promise<PushSubscriptionRow | undefined> {
  return db.selectFrom('push_subscriptions').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * The two tables of devices: the web app's (one row per endpoint) and fediverse apps' (one row per
 * access token). Both keep the same delivery record (id, updated_at, failures), which the sending
 * keeps in step the same way whichever table the device is in.
 */
export type DeviceTable = 'push_subscriptions' | 'client_push_subscriptions';

/** A device of either table, as a delivery reads and records it. */
export interface DeviceRow {
  id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  updated_at: number;
  failures: number;
}

// The columns a delivery touches have one shape in both tables: one table's types stand for both.
const devices = (table: DeviceTable) => table as 'push_subscriptions';

/**
 * Removes a subscription the push service says is gone, unless it was renewed since it was read
 * (same endpoint, new keys): that one is alive again.
 */
export async function deleteGoneSubscription(db: Executor, table: DeviceTable, row: DeviceRow): Promise<void> {
  await db.deleteFrom(devices(table)).where('id', '=', row.id).where('updated_at', '=', row.updated_at).execute();
}

/** Removes a subscription whatever its state (its endpoint is refused now). */
export async function deleteSubscription(db: Executor, table: DeviceTable, id: string): Promise<void> {
  await db.deleteFrom(devices(table)).where('id', '=', id).execute();
}

/**
 * Counts a failed delivery to the device; at `max` failures in a row it is removed. Answers
 * whether it was. Two statements, each atomic: pushes to one device failing at once all count.
 */
export async function countFailure(db: Executor, table: DeviceTable, id: string, max: number): Promise<boolean> {
  await db
    .updateTable(devices(table))
    .set((eb) => ({ failures: eb('failures', '+', 1) }))
    .where('id', '=', id)
    .execute();
  const removed = await db.deleteFrom(devices(table)).where('id', '=', id).where('failures', '>=', max).executeTakeFirst();
  return Number(removed.numDeletedRows) > 0;
}

/** A delivery went through: the failures in a row start again from none. */
export async function clearFailures(db: Executor, table: DeviceTable, id: string): Promise<void> {
  await db.updateTable(devices(table)).set({ failures: 0 }).where('id', '=', id).where('failures', '>', 0).execute();
}

/** Ids per query: well under SQLite's and PostgreSQL's parameter limits. */
const CHUNK = 1000;

/** What `query` finds for each chunk of `ids`, all together. */
export async function inChunks<T>(ids: readonly string[], query: (chunk: string[]) => Promise<T[]>): Promise<T[]> {
  const found: T[] = [];
  for (let i = 0; i < ids.length; i += CHUNK) found.push(...(await query(ids.slice(i, i + CHUNK))));
  return found;
}

/** Every subscription of these users: which devices a batch of new notifications goes to. */
export function subscriptionsOf(db: Executor, userIds: string[]): Promise<Array<{ id: string; user_id: string }>> {
  return inChunks(userIds, (chunk) => db.selectFrom('push_subscriptions').select(['id', 'user_id']).where('user_id', 'in', chunk).orderBy('id').execute());
}

export async function userLanguage(db: Executor, userId: string): Promise<string | undefined> {
  const row = await db.selectFrom('users').select('language').where('id', '=', userId).executeTakeFirst();
  return row?.language;
}
