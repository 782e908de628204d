import type { Executor } from './schema.js';

/**
 * The copies kept here of remote posts' pictures (`remote_media_copies`): written by the media
 * module as it keeps one, read by its retention task and, as totals, by the metrics.
 */

/** A copy just stored under the key (again, after a drop): its size, and now as its fetch time. */
export async function recordRemoteCopy(db: Executor, key: string, bytes: number, now: number): Promise<void> {
  await db
    .insertInto('remote_media_copies')
    .values({ key, bytes, fetched_at: now })
    .onConflict((oc) => oc.column('key').doUpdateSet({ bytes, fetched_at: now }))
    .execute();
}

/** Up to `limit` copies fetched before the time, oldest first. */
export async function remoteCopiesFetchedBefore(db: Executor, before: number, limit: number): Promise<{ key: string; bytes: number }[]> {
  return db
    .selectFrom('remote_media_copies')
    .select(['key', 'bytes'])
    .where('fetched_at', '<', before)
    .orderBy('fetched_at')
    .limit(limit)
    .execute();
}

/** Forgets the copies, those fetched again meanwhile (on or after `before`) left alone. */
export async function forgetRemoteCopies(db: Executor, keys: string[], before: number): Promise<void> {
  if (keys.length === 0) return;
  await db.deleteFrom('remote_media_copies').where('key', 'in', keys).where('fetched_at', '<', before).execute();
}

/** How many copies are kept and their bytes together. */
export async function remoteCopyTotals(db: Executor): Promise<{ copies: number; bytes: number }> {
  const row = await db
    .selectFrom('remote_media_copies')
    .select((eb) => [eb.fn.countAll<number>().as('copies'), eb.fn.coalesce(eb.fn.sum<number>('bytes'), eb.lit(0)).as('bytes')])
    .executeTakeFirst();
  return { copies: Number(row?.copies ?? 0), bytes: Number(row?.bytes ?? 0) };
}
