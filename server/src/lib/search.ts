import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { foldForSearch } from '#core/text';
import { type Dialect, dialectOf } from '../db/dialect.js';
import type { Executor } from '../db/schema.js';

/**
 * Accent- and case-insensitive substring search over a table's `search_text` column, which holds
 * the folded text (foldForSearch). The query is folded the same way, so "zluty" finds "žlutý".
 *
 * Each dialect answers from an index (migration 20261122_20_search_indexes):
 * - PostgreSQL: `search_text ILIKE '%q%'`, served by the GIN trigram index.
 * - SQLite: `rowid IN (SELECT rowid FROM <table>_fts WHERE <table>_fts MATCH '"q"')`, served by
 *   the FTS5 trigram table. A trigram index cannot answer fewer than 3 characters, so shorter
 *   queries fall back to LIKE (a scan, but only for one- and two-letter queries).
 *
 * Callers pass the executor the query runs on, which says which of the two it is.
 */
export type SearchTable = 'posts' | 'comments' | 'users' | 'groups';

export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** An FTS5 string (phrase) literal: the text in double quotes, inner quotes doubled. */
export function ftsPhrase(value: string): string {
  return `"${value.replace(/"/g, '""')}"`;
}

/** Trigram indexes match only queries of at least this many characters. */
const TRIGRAM_MIN = 3;

export function searchCondition(table: SearchTable, query: string, dialect: Dialect): RawBuilder<SqlBool> {
  const folded = foldForSearch(query.trim());
  const column = sql.ref(`${table}.search_text`);
  if (dialect === 'postgres') return sql<SqlBool>`${column} ILIKE ${`%${escapeLike(folded)}%`} ESCAPE '\\'`;
  if (dialect === 'sqlite' && [...folded].length >= TRIGRAM_MIN) {
    const fts = sql.table(`${table}_fts`);
    return sql<SqlBool>`${sql.ref(`${table}.rowid`)} IN (SELECT rowid FROM ${fts} WHERE ${fts} MATCH ${ftsPhrase(folded)})`;
  }
  return sql<SqlBool>`${column} LIKE ${`%${escapeLike(folded)}%`} ESCAPE '\\'`;
}

/**
 * How many rows the SQLite search index matches, counted no further than `cap` (the index stops
 * there, so a common word costs no more than a rare one); undefined where no such index answers
 * (PostgreSQL, or a query under three characters).
 */
export async function indexedMatchesUpTo(
  db: Executor,
  table: SearchTable,
  query: string,
  cap: number,
): Promise<number | undefined> {
  const folded = foldForSearch(query.trim());
  if (dialectOf(db) !== 'sqlite' || [...folded].length < TRIGRAM_MIN) return undefined;
  const fts = sql.table(`${table}_fts`);
  const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM (SELECT rowid FROM ${fts} WHERE ${fts} MATCH ${ftsPhrase(folded)} LIMIT ${cap})`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/** A Kysely where-callback: `query.where(searchMatches(db, 'users', q))`. */
export function searchMatches(db: Executor, table: SearchTable, query: string) {
  const dialect = dialectOf(db);
  return () => searchCondition(table, query, dialect);
}

/**
 * The same match checked on the row itself (its folded text contains the folded query), for a
 * listing that walks another index in order and tests each row it reads: no index lookup, and the
 * same answer as the search index gives.
 */
export function searchTextContains(db: Executor, table: SearchTable, query: string) {
  const folded = foldForSearch(query.trim());
  const op = dialectOf(db) === 'postgres' ? sql`ILIKE` : sql`LIKE`;
  return () => sql<SqlBool>`${sql.ref(`${table}.search_text`)} ${op} ${`%${escapeLike(folded)}%`} ESCAPE '\\'`;
}

/**
 * Relevance for ordering matches: the whole text equal to the query first, then texts starting
 * with it, then the rest. Evaluated only over the rows the index already matched.
 */
export function searchRank(table: SearchTable, query: string): RawBuilder<number> {
  const folded = foldForSearch(query.trim());
  const column = sql.ref(`${table}.search_text`);
  return sql<number>`CASE WHEN ${column} = ${folded} THEN 0 WHEN ${column} LIKE ${`${escapeLike(folded)}%`} ESCAPE '\\' THEN 1 ELSE 2 END`;
}
