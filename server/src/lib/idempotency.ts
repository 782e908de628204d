import type { Db, Executor } from '../db/schema';

export interface StoredReply<T> {
  status: number;
  body: T;
}

export const IDEMPOTENCY_HEADER = 'idempotency-key';
const KEY_PATTERN = /^[A-Za-z0-9_-]{8,128}$/;

/** The Idempotency-Key of a request, when present and well formed. */
export function idempotencyKey(headers: Record<string, string | string[] | undefined>): string | undefined {
  const value = headers[IDEMPOTENCY_HEADER];
  const key = Array.isArray(value) ? value[0] : value;
  return key && KEY_PATTERN.test(key) ? key : undefined;
}

/**
 * Runs a creating call once per (user, key). The key row, the change and the stored answer are
 * written in one transaction, so a crash can never leave a change without its answer: a retry
 * either replays the stored answer or runs the change for the first time. Concurrent retries
 * wait on the key's unique index. A refused call (thrown error) rolls back with its key, so the
 * retry is judged again.
 */
export async function runOnce<T>(
  db: Db,
  userId: string,
  key: string | undefined,
  route: string,
  create: (trx: Executor) => Promise<StoredReply<T>>,
): Promise<StoredReply<T> & { replayed: boolean }> {
  if (!key) {
    const reply = await db.transaction().execute(create);
    return { ...reply, replayed: false };
  }
  return db.transaction().execute(async (trx) => {
    const now = Date.now();
    const inserted = await trx
      .insertInto('idempotency_keys')
      .values({ user_id: userId, key, route, status: null, body: null, created_at: now })
      .onConflict((oc) => oc.columns(['user_id', 'key']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) {
      const stored = await trx
        .selectFrom('idempotency_keys')
        .select(['route', 'status', 'body'])
        .where('user_id', '=', userId)
        .where('key', '=', key)
        .executeTakeFirstOrThrow();
      if (stored.route === route && stored.status !== null && stored.body !== null) {
        return { status: stored.status, body: JSON.parse(stored.body) as T, replayed: true };
      }
    }
    const reply = await create(trx);
    await trx
      .updateTable('idempotency_keys')
      .set({ route, status: reply.status, body: JSON.stringify(reply.body) })
      .where('user_id', '=', userId)
      .where('key', '=', key)
      .execute();
    return { ...reply, replayed: false };
  });
}

/** Keys older than this are forgotten; an offline client retries well within it. */
export const IDEMPOTENCY_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export async function purgeIdempotencyKeys(db: Executor, now: number = Date.now()): Promise<void> {
  await db.deleteFrom('idempotency_keys').where('created_at', '<', now - IDEMPOTENCY_TTL_MS).execute();
}
