import type { Executor } from '../../db/schema.js';

/**
 * A post the app writes with pictures uploads them after the post, one by one. Other servers take
 * a post as it first comes (Mastodon shows an Update's pictures only as an edit), so its sending
 * waits for the pictures the app said it would upload (`posts.awaiting_pictures`); the federation
 * module keeps the wait through these.
 */

/** The post waits for this many pictures before it goes to other servers. */
export async function awaitPictures(db: Executor, postId: string, count: number): Promise<void> {
  await db.updateTable('posts').set({ awaiting_pictures: count }).where('id', '=', postId).execute();
}

/** Whether the post still waits for pictures (it has not gone to other servers yet). */
export async function isAwaitingPictures(db: Executor, postId: string): Promise<boolean> {
  const row = await db.selectFrom('posts').select('awaiting_pictures').where('id', '=', postId).executeTakeFirst();
  return Number(row?.awaiting_pictures ?? 0) > 0;
}

/**
 * Ends the post's wait, when it waits (and, with `whenAllIn`, only once as many pictures are in as
 * it waits for): true for the one caller that ended it, who sends the post. One statement, so an
 * upload and the end of the wait racing each other send it once.
 */
export async function endPictureWait(db: Executor, postId: string, whenAllIn: boolean): Promise<boolean> {
  const result = await db
    .updateTable('posts')
    .set({ awaiting_pictures: 0 })
    .where('id', '=', postId)
    .where('awaiting_pictures', '>', 0)
    .$if(whenAllIn, (qb) => qb.whereRef('images', '>=', 'awaiting_pictures'))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
