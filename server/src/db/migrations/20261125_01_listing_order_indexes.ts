import type { Kysely } from 'kysely';

/**
 * Indexes that hold each hot listing in the order it is shown, ties broken by id as the listings
 * break them, so a page is read by walking the index and stopping at the page instead of sorting
 * every post of a group, hashtag or author, or every comment of a busy thread, first.
 */
const CHANGED: { name: string; table: string; before: string[]; after: string[] }[] = [
  { name: 'posts_author', table: 'posts', before: ['author_id', 'created_at'], after: ['author_id', 'created_at', 'id'] },
  { name: 'post_groups_group', table: 'post_groups', before: ['group_id', 'created_at'], after: ['group_id', 'created_at', 'post_id'] },
  { name: 'post_hashtags_tag', table: 'post_hashtags', before: ['tag', 'created_at'], after: ['tag', 'created_at', 'post_id'] },
  { name: 'comments_post', table: 'comments', before: ['post_id', 'parent_comment_id', 'created_at'], after: ['post_id', 'parent_comment_id', 'created_at', 'id'] },
];

/** A thread level, most liked first. */
const ADDED = { name: 'comments_post_popular', table: 'comments', columns: ['post_id', 'parent_comment_id', 'likes', 'created_at', 'id'] };

export async function up(db: Kysely<any>): Promise<void> {
  for (const index of CHANGED) {
    await db.schema.dropIndex(index.name).execute();
    await db.schema.createIndex(index.name).on(index.table).columns(index.after).execute();
  }
  await db.schema.createIndex(ADDED.name).on(ADDED.table).columns(ADDED.columns).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex(ADDED.name).ifExists().execute();
  for (const index of CHANGED) {
    await db.schema.dropIndex(index.name).execute();
    await db.schema.createIndex(index.name).on(index.table).columns(index.before).execute();
  }
}
