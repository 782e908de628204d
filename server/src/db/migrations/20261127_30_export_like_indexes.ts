import type { Kysely } from 'kysely';

/**
 * A user's likes in the order the data export pages through them (time, then what was liked).
 * Without them each page of a user's likes read and sorted every like they ever gave; with them a
 * page reads its own rows. The new post_likes index starts with the user as the old one did, so it
 * serves every lookup by user that one served; comment likes had no index by user at all (the
 * deletion of an account read the whole table for them).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('post_likes_user_time').on('post_likes').columns(['user_id', 'created_at', 'post_id']).execute();
  await db.schema.dropIndex('post_likes_user').execute();
  await db.schema.createIndex('comment_likes_user').on('comment_likes').columns(['user_id', 'created_at', 'comment_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('comment_likes_user').execute();
  await db.schema.createIndex('post_likes_user').on('post_likes').column('user_id').execute();
  await db.schema.dropIndex('post_likes_user_time').execute();
}
