import { type Kysely, sql } from 'kysely';
import { onPostgres } from './table-shapes.js';

/**
 * Indexes behind the accent- and case-insensitive substring search over `search_text` (which holds
 * foldForSearch of the searchable text), so a search never scans a whole table.
 *
 * PostgreSQL: GIN trigram indexes (pg_trgm, installed by the base migration), which serve
 * `search_text ILIKE '%q%'`.
 * SQLite: FTS5 tables with the trigram tokenizer over the same column, as external-content tables
 * (they store only the index; the text stays in the base table) kept in step by triggers. They key
 * on the base tables' implicit rowid: a VACUUM may renumber those, so run
 * `INSERT INTO <table>_fts(<table>_fts) VALUES('rebuild')` after one.
 */
const TABLES = ['users', 'groups', 'posts', 'comments'] as const;

export async function up(db: Kysely<any>): Promise<void> {
  const pg = onPostgres(db);
  for (const table of TABLES) {
    const t = sql.table(table);
    if (pg) {
      await sql`CREATE INDEX ${sql.id(`${table}_search_trgm`)} ON ${t} USING gin (search_text gin_trgm_ops)`.execute(db);
      continue;
    }
    const fts = sql.table(`${table}_fts`);
    await sql`CREATE VIRTUAL TABLE ${fts} USING fts5(search_text, content=${sql.lit(table)}, content_rowid='rowid', tokenize='trigram')`.execute(db);
    await sql`INSERT INTO ${fts}(${fts}) VALUES ('rebuild')`.execute(db);
    await sql`CREATE TRIGGER ${sql.id(`${table}_fts_insert`)} AFTER INSERT ON ${t} BEGIN
      INSERT INTO ${fts}(rowid, search_text) VALUES (new.rowid, new.search_text);
    END`.execute(db);
    await sql`CREATE TRIGGER ${sql.id(`${table}_fts_delete`)} AFTER DELETE ON ${t} BEGIN
      INSERT INTO ${fts}(${fts}, rowid, search_text) VALUES ('delete', old.rowid, old.search_text);
    END`.execute(db);
    // Only a change of the text touches the index: counter updates (likes, members) do not.
    await sql`CREATE TRIGGER ${sql.id(`${table}_fts_update`)} AFTER UPDATE OF search_text ON ${t} BEGIN
      INSERT INTO ${fts}(${fts}, rowid, search_text) VALUES ('delete', old.rowid, old.search_text);
      INSERT INTO ${fts}(rowid, search_text) VALUES (new.rowid, new.search_text);
    END`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const pg = onPostgres(db);
  for (const table of TABLES) {
    if (pg) {
      await sql`DROP INDEX IF EXISTS ${sql.id(`${table}_search_trgm`)}`.execute(db);
      continue;
    }
    for (const trigger of ['insert', 'delete', 'update']) {
      await sql`DROP TRIGGER IF EXISTS ${sql.id(`${table}_fts_${trigger}`)}`.execute(db);
    }
    await sql`DROP TABLE IF EXISTS ${sql.table(`${table}_fts`)}`.execute(db);
  }
}
