import { type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely, PostgresAdapter } from 'kysely';

/*
 * Column and table shapes the migrations share. Applied migrations must keep producing the same
 * statements on both databases, so what these build never changes: a new shape is a new function.
 */

export const onPostgres = (db: Kysely<any>): boolean => db.getExecutor().adapter instanceof PostgresAdapter;

/** The type of an epoch-milliseconds column: PostgreSQL's integer is 32 bits, SQLite's holds 64. */
export const msType = (db: Kysely<any>): 'bigint' | 'integer' => (onPostgres(db) ? 'bigint' : 'integer');

/** A required reference to `target` (`table.column`): the row goes when the one it names does. */
export const ownedBy =
  (target: string) =>
  (c: ColumnDefinitionBuilder): ColumnDefinitionBuilder =>
    c.notNull().references(target).onDelete('cascade');

/** A column of a pair table: its name, and the row it names (`table.column`) where it names one. */
export type PairColumn = readonly [name: string, target?: string];

/**
 * A table holding a pair once (a block, a like, a post's tag): two required text columns, the
 * referencing ones owned by their rows, and the pair as its primary key `<table>_pk`. The caller
 * adds the pair's own columns and executes it.
 */
export function createPairTable(db: Kysely<any>, table: string, first: PairColumn, second: PairColumn): CreateTableBuilder<string, string> {
  const add = (builder: CreateTableBuilder<string, string>, [name, target]: PairColumn) =>
    builder.addColumn(name, 'text', target ? ownedBy(target) : (c) => c.notNull());
  return add(add(db.schema.createTable(table), first), second).addPrimaryKeyConstraint(`${table}_pk`, [first[0], second[0]]);
}

/**
 * A row's ordered list (a post's mentions, its group tags): the owning row's id, owned by it, and
 * the item's position, the two being its primary key `<table>_pk`. The caller adds the item's
 * columns and executes it.
 */
export function createListTable(db: Kysely<any>, table: string, [owner, target]: readonly [name: string, target: string]): CreateTableBuilder<string, string> {
  return db.schema
    .createTable(table)
    .addColumn(owner, 'text', ownedBy(target))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint(`${table}_pk`, [owner, 'position']);
}

/** A table whose rows are found by one text key (`id` unless named otherwise), its primary key. */
export const createKeyedTable = (db: Kysely<any>, table: string, key = 'id'): CreateTableBuilder<string, string> =>
  db.schema.createTable(table).addColumn(key, 'text', (c) => c.primaryKey());
