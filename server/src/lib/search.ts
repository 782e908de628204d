import { type RawBuilder, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import { foldForSearch } from '#core/text';
import { type Dialect, dialectOf } from '../db/dialect.js';
import { PLAN_FOR_VALUES } from '../db/pg-prepared.js';
import type { Executor } from '../db/schema.js';

/**
 * Accent- and case-insensitive search over a table's `search_text` column, which holds the folded
 * text (foldForSearch). The query is folded the same way and split into words; a row matches when
 * its text contains every word, in any order, so "zluty" finds "žlutý" and "kun zluty" finds
 * "žlutý kůň".
 *
 * Each dialect answers from an index (migration 20261122_20_search_indexes):
 * - PostgreSQL: `search_text LIKE '%w%'` for each word, served by the GIN trigram index. Both sides
 *   are already folded, so the plain LIKE suffices; ILIKE would fold every row's text again as it
 *   is read, which doubled the cost of a common word's walk.
 * - SQLite: `rowid IN (SELECT rowid FROM <table>_fts WHERE <table>_fts MATCH '"w1" AND "w2"')`,
 *   served by the FTS5 trigram table. A trigram index cannot answer fewer than 3 characters, so
 *   shorter words are checked by LIKE on the rows the index found (a scan only when every word is
 *   one or two letters).
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

/**
 * The folded words of a query, each once: a text matches when it contains every one of them, in
 * any order, so "story horse" finds "another horse story".
 */
export function searchWords(query: string): string[] {
  return [...new Set(foldForSearch(query).split(/[\s\u0085]+/u).filter(Boolean))];
}

/** Words the trigram index can answer, and the rest, checked on the row's own text. */
function splitByLength(words: string[]): { indexed: string[]; short: string[] } {
  const indexed = words.filter((w) => [...w].length >= TRIGRAM_MIN);
  return { indexed, short: words.filter((w) => !indexed.includes(w)) };
}

/** An FTS5 query asking for every word, each as a phrase (so punctuation stays plain text). */
const ftsAllOf = (words: string[]) => words.map(ftsPhrase).join(' AND ');

/**
 * The row's folded text contains every word (a LIKE each). Whether PostgreSQL should answer it
 * through the trigram index or by walking the newest rows depends on how common the words are, so
 * the statement is planned for each call's words (a comment SQLite ignores).
 */
function containsEvery(table: SearchTable, words: string[]): RawBuilder<SqlBool> {
  const column = sql.ref(`${table}.search_text`);
  const each = words.map((w) => sql<SqlBool>`${column} LIKE ${`%${escapeLike(w)}%`} ESCAPE '\\'`);
  return each.length === 0 ? sql<SqlBool>`1 = 1` : sql<SqlBool>`(${sql.raw(PLAN_FOR_VALUES)} ${sql.join(each, sql` AND `)})`;
}

export function searchCondition(table: SearchTable, query: string, dialect: Dialect): RawBuilder<SqlBool> {
  const words = searchWords(query);
  // PostgreSQL's trigram index answers each LIKE, and ANDs them itself.
  if (dialect === 'postgres') return containsEvery(table, words);
  const { indexed, short } = splitByLength(words);
  if (indexed.length === 0) return containsEvery(table, short);
  const fts = sql.table(`${table}_fts`);
  const inIndex = sql<SqlBool>`${sql.ref(`${table}.rowid`)} IN (SELECT rowid FROM ${fts} WHERE ${fts} MATCH ${ftsAllOf(indexed)})`;
  return short.length === 0 ? inIndex : sql<SqlBool>`(${inIndex} AND ${containsEvery(table, short)})`;
}

/**
 * How many rows the SQLite search index matches, counted no further than `cap` (the index stops
 * there, so a common word costs no more than a rare one); undefined where no such index answers
 * (PostgreSQL, or a query with no word of three characters).
 */
export async function indexedMatchesUpTo(
  db: Executor,
  table: SearchTable,
  query: string,
  cap: number,
): Promise<number | undefined> {
  const { indexed } = splitByLength(searchWords(query));
  if (dialectOf(db) !== 'sqlite' || indexed.length === 0) return undefined;
  const fts = sql.table(`${table}_fts`);
  const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM (SELECT rowid FROM ${fts} WHERE ${fts} MATCH ${ftsAllOf(indexed)} LIMIT ${cap})`.execute(db);
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
export function searchTextContains(table: SearchTable, query: string) {
  const words = searchWords(query);
  return () => containsEvery(table, words);
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

/** The lowercased name a name match is ordered by after its rank. */
const NAME_COLUMNS = { users: 'users.username_lower', groups: 'groups.name_lower' } as const;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnySelect = SelectQueryBuilder<any, any, any>;

/**
 * Orders name matches best first (searchRank), then by name and id, so equal ranks keep one order:
 * `.$call(bestNameMatchesFirst('groups', query))`.
 */
export function bestNameMatchesFirst(table: keyof typeof NAME_COLUMNS, query: string): <Q extends AnySelect>(q: Q) => Q {
  return (q) => q.orderBy(searchRank(table, query)).orderBy(NAME_COLUMNS[table]).orderBy(`${table}.id`) as typeof q;
}
