import type { Kysely } from 'kysely';
import { createKeyedTable, msType, ownedBy } from './table-shapes.js';

/**
 * Editing a post.
 * - posts.edited_at: when the author last changed the text, NULL for a post never edited.
 * - post_edits: each version an edit replaced (its text and content warning, when it was written
 *   and when it was replaced), deleted with its post. Read newest first per post, which the index
 *   serves in that order (the id breaks ties of two edits in one millisecond).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ms = msType(db);
  await db.schema.alterTable('posts').addColumn('edited_at', ms).execute();
  await createKeyedTable(db, 'post_edits')
    .addColumn('post_id', 'text', ownedBy('posts.id'))
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('content_warning', 'text')
    .addColumn('written_at', ms, (c) => c.notNull())
    .addColumn('replaced_at', ms, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('post_edits_by_post').on('post_edits').columns(['post_id', 'replaced_at', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('post_edits').ifExists().execute();
  await db.schema.alterTable('posts').dropColumn('edited_at').execute();
}
