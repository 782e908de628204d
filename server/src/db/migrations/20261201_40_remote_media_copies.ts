import type { Kysely } from 'kysely';
import { createKeyedTable, msType } from './table-shapes.js';

/**
 * remote_media_copies: the copies kept in the media storage of remote posts' pictures, by their
 * storage key, with their size and when they were fetched, so the maintenance job can drop those
 * older than REMOTE_MEDIA_DAYS (a later read fetches the picture again). Copies kept before this
 * table have no row and stay until their post goes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await createKeyedTable(db, 'remote_media_copies', 'key')
    .addColumn('bytes', 'integer', (c) => c.notNull())
    .addColumn('fetched_at', msType(db), (c) => c.notNull())
    .execute();
  await db.schema.createIndex('remote_media_copies_fetched').on('remote_media_copies').column('fetched_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('remote_media_copies').ifExists().execute();
}
