import { PostgresAdapter, type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import type { Executor } from './schema.js';

/**
 * What differs between the two databases the server runs on, asked of the executor at hand (a
 * transaction answers for its database). Repositories and services call these instead of testing
 * the database themselves, so each difference is decided here once. Migrations keep their own
 * tests: they are history, and must keep doing what they did when they first ran.
 */
export type Dialect = 'sqlite' | 'postgres';

export const dialectOf = (db: Executor): Dialect => (db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite');

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnySelect = SelectQueryBuilder<any, any, any>;

/**
 * Makes a select lock the rows it reads until its transaction ends: `.$call(lockingRead(trx))`.
 * Only PostgreSQL needs it: SQLite runs one writing transaction at a time, so what a writer read
 * stays as it was without a lock. `skipLocked` passes over rows another transaction holds (workers
 * taking disjoint sets) instead of waiting for them.
 */
export function lockingRead(db: Executor, options: { skipLocked?: boolean } = {}): <Q extends AnySelect>(query: Q) => Q {
  if (dialectOf(db) !== 'postgres') return (query) => query;
  return (query) => (options.skipLocked ? query.forUpdate().skipLocked() : query.forUpdate()) as typeof query;
}

/**
 * Locks rows by id until the transaction ends, in id order so two transactions locking
 * overlapping sets wait for each other rather than deadlock: `update` against changes and other
 * locks, `share` against changes only. Sends nothing on SQLite (see lockingRead).
 */
export async function lockRows(db: Executor, table: 'users' | 'groups', ids: readonly string[], strength: 'update' | 'share' = 'update'): Promise<void> {
  if (ids.length === 0 || dialectOf(db) !== 'postgres') return;
  const query = db.selectFrom(table).select('id').where('id', 'in', [...ids]).orderBy('id');
  await (strength === 'share' ? query.forShare() : query.forUpdate()).execute();
}

/**
 * Serializes transactions on a key, a name rather than a row, until the transaction ends (a
 * PostgreSQL advisory lock); nothing to do on SQLite, whose writers run one at a time.
 */
export async function lockKey(db: Executor, key: string): Promise<void> {
  if (dialectOf(db) === 'postgres') await sql`select pg_advisory_xact_lock(hashtext(${key}))`.execute(db);
}

/**
 * Tells every process listening on `channel` (PostgreSQL NOTIFY; sent in a transaction, it is
 * delivered when and only if that commits). Answers whether it was sent: false on SQLite, whose
 * one server process tells its own listeners instead.
 */
export async function notify(db: Executor, channel: string, payload: string | RawBuilder<string>): Promise<boolean> {
  if (dialectOf(db) !== 'postgres') return false;
  await sql`select pg_notify(${channel}, ${payload})`.execute(db);
  return true;
}

/** A text column compared byte by byte on both databases (SQLite's default; PostgreSQL's "C" collation). */
export const byteOrdered = (db: Executor, column: RawBuilder<unknown>): RawBuilder<string> =>
  dialectOf(db) === 'postgres' ? sql<string>`${column} COLLATE "C"` : sql<string>`${column}`;
