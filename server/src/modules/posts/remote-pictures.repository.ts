import { type SqlBool, sql } from 'kysely';
import type { Executor } from '../../db/schema.js';
import { escapeLike } from '../../lib/search.js';

/**
 * The SQL of a remote post's pictures, kept on its row (`posts.remote_media`, JSON of `{url, alt}`):
 * read to show them and to find which kept copies no post lists any more (remote-pictures.ts).
 */

/** A remote post's stored pictures (`remote_media`), when the account wrote it; undefined when it did not. */
export async function findRemoteMediaOf(db: Executor, postId: string, authorId: string): Promise<string | null | undefined> {
  const row = await db.selectFrom('posts').select('remote_media').where('id', '=', postId).where('author_id', '=', authorId).executeTakeFirst();
  return row?.remote_media;
}

/**
 * The stored pictures (`remote_media`) of the author's posts that may list one of these addresses:
 * those whose JSON holds it as JSON writes it. The caller reads them, since the text may match
 * elsewhere (an alt that is the address; SQLite's LIKE ignores case). Only the author's posts are
 * read (by their index, never every post): a picture's address is its author's post's, and a copy
 * another author's post shows is fetched again by its next read.
 */
export async function findRemoteMediaNaming(db: Executor, authorId: string, urls: string[]): Promise<string[]> {
  if (urls.length === 0) return [];
  const rows = await db
    .selectFrom('posts')
    .select('remote_media')
    .where('author_id', '=', authorId)
    .where('remote_media', 'is not', null)
    .where((eb) => eb.or(urls.map((url) => sql<SqlBool>`${eb.ref('remote_media')} LIKE ${`%${escapeLike(JSON.stringify(url))}%`} ESCAPE '\\'`)))
    .execute();
  return rows.flatMap((row) => (row.remote_media === null ? [] : [row.remote_media]));
}

/** A remote post's pictures (JSON of `{url, alt}`), changed by its author only. */
export async function setRemoteMedia(db: Executor, postId: string, authorId: string, media: string | null): Promise<void> {
  await db.updateTable('posts').set({ remote_media: media }).where('id', '=', postId).where('author_id', '=', authorId).execute();
}

/** The stored pictures (`remote_media`) of those of the posts another server wrote. */
export async function findRemoteMedia(db: Executor, postIds: string[]): Promise<string[]> {
  const rows = await db.selectFrom('posts').select('remote_media').where('id', 'in', postIds).where('remote_media', 'is not', null).execute();
  return rows.flatMap((row) => (row.remote_media === null ? [] : [row.remote_media]));
}
