import type { Kysely } from 'kysely';

/**
 * Image descriptions and content warnings.
 * - posts.image_alts, comments.image_alts: the description (alt text) of each image, a JSON list
 *   in image order ('' for an image described by nothing). Kept on the row that counts the images,
 *   so they go wherever the row goes (deleted with it, emptied with a comment's marker).
 * - posts.content_warning: the short warning a post is shown behind, NULL for none.
 */
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['posts', 'comments']) {
    await db.schema.alterTable(table).addColumn('image_alts', 'text', (c) => c.notNull().defaultTo('[]')).execute();
  }
  await db.schema.alterTable('posts').addColumn('content_warning', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('posts').dropColumn('content_warning').execute();
  for (const table of ['posts', 'comments']) await db.schema.alterTable(table).dropColumn('image_alts').execute();
}
