import type { Executor } from '../../db/schema.js';

/**
 * A post or comment the app writes with pictures uploads them after it, one by one. Other servers
 * take a Note as it first comes (Mastodon shows an Update's pictures only as an edit), so its
 * sending waits for the pictures the app said it would upload (`awaiting_pictures` of its row); the
 * federation module keeps the wait through these.
 */

/** What waits for its pictures: a post or a comment, each kept in its own table. */
export type PictureOwner = 'post' | 'comment';

const TABLES = { post: 'posts', comment: 'comments' } as const;

/** The post or comment waits for this many pictures before it goes to other servers. */
export async function awaitPictures(db: Executor, of: PictureOwner, id: string, count: number): Promise<void> {
  await db.updateTable(TABLES[of]).set({ awaiting_pictures: count }).where('id', '=', id).execute();
}

/** Whether the post or comment still waits for pictures (it has not gone to other servers yet). */
export async function isAwaitingPictures(db: Executor, of: PictureOwner, id: string): Promise<boolean> {
  const row = await db.selectFrom(TABLES[of]).select('awaiting_pictures').where('id', '=', id).executeTakeFirst();
  return Number(row?.awaiting_pictures ?? 0) > 0;
}

/**
 * Ends the wait, when there is one (and, with `whenAllIn`, only once as many pictures are in as
 * it waits for): true for the one caller that ended it, who sends the Note. One statement, so an
 * upload and the end of the wait racing each other send it once.
 */
export async function endPictureWait(db: Executor, of: PictureOwner, id: string, whenAllIn: boolean): Promise<boolean> {
  const result = await db
    .updateTable(TABLES[of])
    .set({ awaiting_pictures: 0 })
    .where('id', '=', id)
    .where('awaiting_pictures', '>', 0)
    .$if(whenAllIn, (qb) => qb.whereRef('images', '>=', 'awaiting_pictures'))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
