import type { ServerErrorKey } from '#core/errors';
import { lockKey } from '../db/dialect.js';
import { reusableQuery } from '../db/reusable-query.js';
import type { Executor } from '../db/schema.js';
import { tooMany } from './app-error.js';

/**
 * Sliding-window limits kept in the database, so every server process counts the same actions.
 * Counting and recording happen under one lock per key (an advisory lock on PostgreSQL; SQLite
 * runs one writer at a time), so a burst of parallel requests cannot all slip under the limit.
 */
export interface RateRule {
  /** What is limited and for whom, e.g. `post:<userId>`. */
  key: string;
  max: number;
  windowMs: number;
}

async function inTransaction<T>(db: Executor, run: (trx: Executor) => Promise<T>): Promise<T> {
  return db.isTransaction ? run(db) : db.transaction().execute(run);
}

/** Locks the key for the rest of the transaction (PostgreSQL); a no-op on SQLite. */
export async function lockRateKey(trx: Executor, key: string): Promise<void> {
  await lockKey(trx, key);
}

/** How many actions the key has recorded within the window ending at `now`. */
const countQuery = reusableQuery((db, key: string, since: number) =>
  db.selectFrom('rate_events').select((eb) => eb.fn.countAll<number>().as('n')).where('key', '=', key).where('created_at', '>', since));
const recordQuery = reusableQuery((db, key: string, now: number) => db.insertInto('rate_events').values({ key, created_at: now }));

export async function countRecent(db: Executor, key: string, windowMs: number, now: number = Date.now()): Promise<number> {
  const row = await countQuery.first(db, key, now - windowMs);
  return Number(row?.n ?? 0);
}

/**
 * Records one action when the key is under its limit; false (nothing recorded) when it is not.
 * Inside a caller's transaction the record rolls back with it, so a refused change is not counted.
 */
export async function tryTakeSlot(db: Executor, rule: RateRule, now: number = Date.now()): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    await lockRateKey(trx, rule.key);
    if ((await countRecent(trx, rule.key, rule.windowMs, now)) >= rule.max) return false;
    await recordQuery.run(trx, rule.key, now);
    return true;
  });
}

/** As tryTakeSlot, refusing with 429 and the given key when the limit is reached. */
export async function takeSlot(db: Executor, rule: RateRule, refusal: ServerErrorKey, now: number = Date.now()): Promise<void> {
  if (!(await tryTakeSlot(db, rule, now))) throw tooMany(refusal);
}

/** Seconds until the key's oldest action in the window leaves it, freeing a slot (at least 1): a 429's Retry-After. */
export async function secondsUntilSlot(db: Executor, rule: RateRule, now: number = Date.now()): Promise<number> {
  const row = await db
    .selectFrom('rate_events')
    .select((eb) => eb.fn.min('created_at').as('oldest'))
    .where('key', '=', rule.key)
    .where('created_at', '>', now - rule.windowMs)
    .executeTakeFirst();
  const oldest = row?.oldest === null || row?.oldest === undefined ? now : Number(row.oldest);
  return Math.max(1, Math.ceil((oldest + rule.windowMs - now) / 1000));
}

/** Forgets actions older than `maxWindowMs` (the longest window in use). */
export async function purgeRateEvents(db: Executor, maxWindowMs: number, now: number = Date.now()): Promise<void> {
  await db.deleteFrom('rate_events').where('created_at', '<', now - maxWindowMs).execute();
}
