import { type Kysely, sql } from 'kysely';
import { onPostgres } from './table-shapes.js';

/**
 * Users in the order a search lists them: by folded name (what `search_text` holds), then id. The
 * names that start with a query are one range of this index, so a page of them is read in order and
 * cut, however many match. PostgreSQL compares bytes here (`COLLATE "C"`), as SQLite does, so the
 * range and the order are the same on both.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (onPostgres(db)) {
    await sql`CREATE INDEX users_search_order ON users (search_text COLLATE "C", id)`.execute(db);
  } else {
    await db.schema.createIndex('users_search_order').on('users').columns(['search_text', 'id']).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('users_search_order').execute();
}
