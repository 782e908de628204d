import { PostgresAdapter, sql } from 'kysely';
import type { Executor } from './schema';

/** Small pieces every repository repeats: the dialect, row-count checks, counters. */

/** PostgreSQL can lock rows for the rest of a transaction; SQLite serializes writers anyway. */
export const isPostgres = (db: Executor): boolean => db.getExecutor().adapter instanceof PostgresAdapter;

/** Whether a write touched a row: inserts, updates and deletes report it under different names. */
export function changedRows(result: { numInsertedOrUpdatedRows?: bigint | undefined; numUpdatedRows?: bigint; numDeletedRows?: bigint }): boolean {
  return Number(result.numDeletedRows ?? result.numUpdatedRows ?? result.numInsertedOrUpdatedRows ?? 0n) > 0;
}

/** Whether a select finds any row. */
export async function hasRow(query: { executeTakeFirst(): Promise<unknown> }): Promise<boolean> {
  return (await query.executeTakeFirst()) !== undefined;
}

/** The denormalized counters, by table. */
interface Counters {
  posts: 'likes' | 'comments';
  comments: 'likes' | 'replies';
  groups: 'members' | 'bans';
}

/**
 * Adds to counters of one row in place (`n = n + delta`), so concurrent changes never lose a
 * count; call it in the transaction of the change it counts.
 */
export async function addToCounters<T extends keyof Counters>(
  db: Executor,
  table: T,
  id: string,
  deltas: Partial<Record<Counters[T], number>>,
): Promise<void> {
  const sets = Object.entries(deltas as Record<string, number>)
    .filter(([, delta]) => delta !== 0)
    .map(([column, delta]) => sql`${sql.ref(column)} = ${sql.ref(column)} + ${delta}`);
  if (sets.length === 0) return;
  await sql`update ${sql.table(table)} set ${sql.join(sets)} where id = ${id}`.execute(db);
}
