import type { Kysely } from 'kysely';
import { createKeyedTable, msType, ownedBy } from './table-shapes.js';

/**
 * staged_uploads: pictures a fediverse app uploaded before the status that carries them, with their
 * uploader, description and size. A status naming one copies it to its pictures and marks the row
 * attached; every row goes STAGED_UPLOAD_HOURS after its upload (the maintenance job), the bytes of
 * one never attached with it. The row goes with its account.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await createKeyedTable(db, 'staged_uploads')
    .addColumn('owner_id', 'text', ownedBy('users.id'))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('focus', 'text')
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('bytes', 'integer', (c) => c.notNull())
    .addColumn('animated', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', msType(db), (c) => c.notNull())
    .addColumn('attached_to', 'text')
    .execute();
  await db.schema.createIndex('staged_uploads_created').on('staged_uploads').column('created_at').execute();
  await db.schema.createIndex('staged_uploads_owner').on('staged_uploads').column('owner_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('staged_uploads').ifExists().execute();
}
