import { type Insertable, type Kysely, type RawBuilder, type Selectable, type SqlBool, type Transaction, sql } from 'kysely';
import type { Database, Executor } from './schema.js';

/** Small pieces every repository repeats: transactions, row-count checks, counters (the dialect's differences are in dialect.ts). */

/**
 * Runs fn in the caller's transaction when it is given one, else in a new one: a change that stands
 * alone opens its own, and one that is part of a larger change (a moderator's action and the
 * settling of its report) commits or fails with it.
 */
export function inTransaction<T>(db: Executor, fn: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db as Transaction<Database>) : newTransaction(db, fn);
}

/** PostgreSQL's answers when it gave up a transaction to let another one through. */
const RETRYABLE_CODES = new Set(['40P01', '40001']);
const TRANSACTION_ATTEMPTS = 4;

const isRetryable = (err: unknown): boolean => RETRYABLE_CODES.has(String((err as { code?: unknown } | null)?.code));

/**
 * Runs fn in a new transaction; when PostgreSQL breaks a deadlock or a serialization conflict by
 * aborting it, runs it again from the start (all it wrote was rolled back), after a short random
 * pause so the two do not meet again. Locks are taken in one order so this stays rare; it is
 * here so a request never answers 500 for the database's choice of victim. Every transaction a
 * request opens comes through here.
 */
export async function newTransaction<T>(db: Executor, fn: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(fn);
    } catch (err) {
      if (attempt >= TRANSACTION_ATTEMPTS || !isRetryable(err)) throw err;
      await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20 * attempt));
    }
  }
}

/** Whether a write touched a row: inserts, updates and deletes report it under different names. */
export function changedRows(result: { numInsertedOrUpdatedRows?: bigint | undefined; numUpdatedRows?: bigint; numDeletedRows?: bigint }): boolean {
  return Number(result.numDeletedRows ?? result.numUpdatedRows ?? result.numInsertedOrUpdatedRows ?? 0n) > 0;
}

/**
 * A flag column or an SQL test (EXISTS, a comparison) read as a boolean. SQLite answers them as
 * 0/1 and PostgreSQL answers the tests as true/false; repositories convert here, so no service
 * ever compares a row's value with 1.
 */
export const toBool = (value: SqlBool | number | bigint | string | null | undefined): boolean => value === true || Number(value) === 1;

/**
 * 1 when `subquery` (raw SQL correlated with the outer query) finds a row, else 0: the same number on
 * both databases, selected as a column a row and read with toBool.
 */
export const existsFlag = (subquery: RawBuilder<unknown>): RawBuilder<number> => sql<number>`case when exists (${subquery}) then 1 else 0 end`;

/** A boolean as stored in an integer flag column. */
export const toFlag = (value: boolean): 0 | 1 => (value ? 1 : 0);

/** Whether a select finds any row. */
export async function hasRow(query: { executeTakeFirst(): Promise<unknown> }): Promise<boolean> {
  return (await query.executeTakeFirst()) !== undefined;
}

type Table = keyof Database;
type Row<T extends Table> = Selectable<Database[T]>;
/** The text columns of a table (nullable or not): its ids, and the names and keys it is looked up by. */
type TextColumn<T extends Table> = { [C in keyof Row<T>]-?: string extends Row<T>[C] ? C : never }[keyof Row<T>] & string;
/** Columns a lookup pins to one value each: `{ user_id: viewerId }`. */
export type Match<T extends Table> = Partial<Record<TextColumn<T>, string>>;

/**
 * The table typed loosely for the helpers below, whose table and columns are parameters: Kysely
 * cannot follow a table name it does not know, so their signatures carry the types instead.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const loose = (db: Executor) => db as unknown as Kysely<any>;

/** A read of `table` narrowed to the rows `match` pins. */
function pinnedRows<T extends Table>(db: Executor, table: T, match: Match<T>) {
  let query = loose(db).selectFrom(table as string);
  for (const [column, value] of Object.entries(match)) query = query.where(column, '=', value);
  return query;
}

/** Whether `table` has a row with these values (a follow, a join request, a group by id). */
export function rowExists<T extends Table>(db: Executor, table: T, match: Match<T>): Promise<boolean> {
  return hasRow(pinnedRows(db, table, match).select(sql<number>`1`.as('found')));
}

/** The row of `table` that `match` pins, every column (an app by its client id, a token by its hash); undefined when there is none. */
export async function rowOf<T extends Table>(db: Executor, table: T, match: Match<T>): Promise<Row<T> | undefined> {
  return (await pinnedRows(db, table, match).selectAll().executeTakeFirst()) as Row<T> | undefined;
}

/** `column` of the row of `table` that `match` pins (a member's level, the follow a Follow's id names); undefined when there is none. */
export async function columnOf<T extends Table, C extends keyof Row<T> & string>(db: Executor, table: T, column: C, match: Match<T>): Promise<Row<T>[C] | undefined> {
  const row = await pinnedRows(db, table, match).select(column as string).executeTakeFirst();
  return (row as Pick<Row<T>, C> | undefined)?.[column];
}

/**
 * Inserts the row unless `table` already has one with the same `keys` (a membership, a remote
 * follow, a share, each kept once); whether it inserted.
 */
export async function insertOnce<T extends Table>(db: Executor, table: T, row: Insertable<Database[T]>, keys: readonly (keyof Database[T] & string)[]): Promise<boolean> {
  const result = await loose(db)
    .insertInto(table as string)
    .values(row)
    .onConflict((oc) => oc.columns([...keys]).doNothing())
    .executeTakeFirst();
  return changedRows(result);
}

/**
 * The rows of `table` that `match` pins and whose `column` is among `ids`: the likes a viewer
 * gave on a page, the follows of a list's users, the caller's roles in a page's groups. One
 * indexed lookup a page; no ids, no query.
 */
export async function rowsAmong<T extends Table, S extends keyof Row<T> & string>(
  db: Executor,
  table: T,
  select: readonly S[],
  match: Match<T>,
  column: TextColumn<T>,
  ids: readonly string[],
): Promise<Pick<Row<T>, S>[]> {
  if (ids.length === 0) return [];
  const rows = await pinnedRows(db, table, match)
    .select([...select] as string[])
    .where(column as string, 'in', [...ids])
    .execute();
  return rows as Pick<Row<T>, S>[];
}

/** Which of `ids` stand in `column` of a row of `table` that `match` pins (see rowsAmong). */
export async function idsAmong<T extends Table>(db: Executor, table: T, match: Match<T>, column: TextColumn<T>, ids: readonly string[]): Promise<Set<string>> {
  const rows = await rowsAmong(db, table, [column], match, column, ids);
  return new Set(rows.map((row) => row[column] as string));
}

/** The tables of likes, each with the column naming what was liked. */
const LIKED = { post_likes: 'post_id', comment_likes: 'comment_id' } as const;

/** Where a keyset-paged read goes on from: the last row's time, and its id, which breaks ties. */
export interface Keyset {
  at: number;
  id: string;
}

/** One page of a keyset-paged read: the rows after `after` (from the first when absent), at most `limit`. */
export interface KeysetPage {
  after?: Keyset | undefined;
  limit: number;
}

/**
 * The rows after `after` in (time, id) order. A range on the time, which an index ending in the
 * time walks from the right place, narrowed by the id among rows of the same time: each page costs
 * what it reads, however deep into the list it is.
 */
export function afterKeyset(after: Keyset | undefined, timeColumn: string, idColumn: string): RawBuilder<SqlBool> {
  return beyondKeyset(after, timeColumn, idColumn, '>');
}

/** The rows before `before` in (time, id) order, read the same way as afterKeyset. */
export function beforeKeyset(before: Keyset | undefined, timeColumn: string, idColumn: string): RawBuilder<SqlBool> {
  return beyondKeyset(before, timeColumn, idColumn, '<');
}

function beyondKeyset(key: Keyset | undefined, timeColumn: string, idColumn: string, direction: '<' | '>'): RawBuilder<SqlBool> {
  if (!key) return sql<SqlBool>`1 = 1`;
  const time = sql.ref(timeColumn);
  const strict = sql.raw(direction);
  return sql<SqlBool>`(${time} ${sql.raw(`${direction}=`)} ${key.at} and (${time} ${strict} ${key.at} or ${sql.ref(idColumn)} ${strict} ${key.id}))`;
}

/** A liked post or comment as the account export lists it, once its content may be read. */
export interface LikedWritingRow {
  id: string;
  author_id: string | null;
  author_username: string | null;
  text: string;
  created_at: number;
}

/**
 * A page of the likes the user gave, of posts or of comments, with when, oldest first: what the
 * account export lists (index post_likes_user / comment_likes_user).
 */
export async function likesGivenBy(db: Executor, table: keyof typeof LIKED, userId: string, page: KeysetPage): Promise<{ id: string; likedAt: number }[]> {
  const liked = LIKED[table];
  const rows = await loose(db)
    .selectFrom(table)
    .select([`${liked} as id`, 'created_at'])
    .where('user_id', '=', userId)
    .where(afterKeyset(page.after, 'created_at', liked))
    .orderBy('created_at')
    .orderBy(liked)
    .limit(page.limit)
    .execute();
  return rows.map((row: { id: string; created_at: number | string }) => ({ id: row.id, likedAt: Number(row.created_at) }));
}

/**
 * A page of the user's posts, or standing comments, that hold images, oldest first: which files
 * the account export puts in the zip (index posts_author / comments_author).
 */
export async function imagesOfAuthor(db: Executor, table: 'posts' | 'comments', authorId: string, page: KeysetPage): Promise<{ id: string; images: number; created_at: number }[]> {
  let query = loose(db).selectFrom(table).select(['id', 'images', 'created_at']).where('author_id', '=', authorId).where('images', '>', 0);
  // A deleted comment kept as a marker is no one's any more.
  if (table === 'comments') query = query.where('deleted', '=', 0);
  const rows = await query.where(afterKeyset(page.after, 'created_at', 'id')).orderBy('created_at').orderBy('id').limit(page.limit).execute();
  return rows.map((row: { id: string; images: number | string; created_at: number | string }) => ({ id: row.id, images: Number(row.images), created_at: Number(row.created_at) }));
}

/**
 * 1 when the viewer liked the post or comment whose id is in a column of the outer query, else 0
 * (always for a visitor): a page's likes read by the statement that reads its rows, one
 * primary-key lookup a row. Read it with toBool.
 */
export function likedBy(viewerId: string | null, table: keyof typeof LIKED, idColumn: string): RawBuilder<number> {
  if (viewerId === null) return sql<number>`0`;
  return existsFlag(sql`select 1 from ${sql.table(table)} liked_by where ${sql.ref(`liked_by.${LIKED[table]}`)} = ${sql.ref(idColumn)} and liked_by.user_id = ${viewerId}`);
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

/** Whether a statement failed on a unique key: the row is there already (made by another request meanwhile). */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
