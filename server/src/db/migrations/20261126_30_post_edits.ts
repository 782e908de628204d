import { type Kysely, PostgresAdapter } from 'kysely';

/**
 * Editing a post.
 * - posts.edited_at: when the author last changed the text, NULL for a post never edited.
 * - post_edits: each version an edit replaced (its text and content warning, when it was written
 *   and when it was replaced), deleted with its post. Read newest first per post, which the index
 *   serves in that order (the id breaks ties of two edits in one millisecond).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ms = db.getExecutor().adapter instanceof PostgresAdapter ? 'bigint' : 'integer';
  await db.schema.alterTable('posts').addColumn('edited_at', ms).execute();
  await db.schema
    .createTable('post_edits')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('post_id', 'text', (c) => c.notNull().references('posts.id').onDelete('cascade'))
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
