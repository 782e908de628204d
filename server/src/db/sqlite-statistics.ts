import { sql } from 'kysely';
import { dialectOf } from './dialect.js';
import type { Executor } from './schema.js';

/**
 * The SQLite planner's statistics: counts per index (`sqlite_stat1`), never per-value samples
 * (`sqlite_stat4`). PostgreSQL's autovacuum keeps its own, so this is for SQLite only.
 *
 * Why no samples: the SQLite inside better-sqlite3 is built with STAT4, and with samples present
 * a statement comparing an indexed column with a bound value (`posts.id in (?, ?, ...)`, a user's
 * id) is compiled again each time a value is bound, which is every run: the statement cache
 * (statement-cache.ts) then saves nothing. A page of five posts read by their ids took 140 µs
 * with the samples and 30 µs without, measured on the 100,000-post benchmark data. Every statement
 * the server runs is prepared once for all values, so a plan fitted to one value is of no use to it.
 *
 * Why a limit: an unbounded ANALYZE reads every index and holds the server's one thread meanwhile
 * (0.6 s at 100,000 posts, ten times that at a million). Under `analysis_limit` SQLite reads about
 * that many rows of each index, and gathers no samples at all.
 */

/** Rows SQLite reads of each index when it analyses one (its documentation suggests 100 to 1,000). */
export const ANALYSIS_LIMIT = 1000;

/** `PRAGMA optimize`'s mask: analyse the tables that would gain from it (0x2), looking at every table (0x10000). */
const OPTIMIZE_ALL_TABLES = 0x10002;

/** What a refresh did: whether it found per-value samples and dropped them. */
export interface StatisticsRefresh {
  droppedSamples: number;
}

/**
 * Removes any per-value samples, then has the planner read the statistics again (they are loaded
 * with the schema, so a change to the tables is not seen until asked). Samples come from a full
 * ANALYZE (an operator's, or the benchmark seed's) or from an older Kruh.
 */
export async function dropValueSamples(db: Executor): Promise<number> {
  const table = await sql<{ n: number }>`select count(*) as n from sqlite_master where type = 'table' and name = 'sqlite_stat4'`.execute(db);
  if (Number(table.rows[0]?.n ?? 0) === 0) return 0;
  const samples = await sql<{ n: number }>`select count(*) as n from sqlite_stat4`.execute(db);
  const dropped = Number(samples.rows[0]?.n ?? 0);
  if (dropped === 0) return 0;
  await sql`delete from sqlite_stat4`.execute(db);
  await sql`analyze sqlite_master`.execute(db);
  return dropped;
}

/**
 * SQLite's recommended upkeep for a long-lived connection: `PRAGMA optimize` analyses the tables
 * never analysed or much grown since, reading at most ANALYSIS_LIMIT rows of each index (usually
 * it does nothing); then any samples go. A no-op on PostgreSQL.
 */
export async function refreshPlannerStatistics(db: Executor): Promise<StatisticsRefresh> {
  if (dialectOf(db) === 'postgres') return { droppedSamples: 0 };
  await sql.raw(`pragma analysis_limit = ${ANALYSIS_LIMIT}`).execute(db);
  await sql.raw(`pragma optimize = ${OPTIMIZE_ALL_TABLES}`).execute(db);
  return { droppedSamples: await dropValueSamples(db) };
}
