import type { ExpressionBuilder } from 'kysely';
import { type KeysetPage, type LikedWritingRow, afterKeyset, imagesOfAuthor, likesGivenBy, toBool } from '../../db/helpers.js';
import type { Database, Executor } from '../../db/schema.js';
import { postIsPrivate, postReadableBy } from '../../policy/post-visibility.js';

/**
 * What the data export reads of a user's posts and likes of posts, a page at a time in
 * (created_at, id) order (see KeysetPage), so an export holds one page. The tags, mentions and
 * earlier versions of those posts are the posts module's to read (posts.service.ts, wordingOf).
 */

/**
 * What a liked post's content may be shown to its liker: a post they may read now, or their own (a
 * post of theirs in a private group they left is still theirs). Anything else (a private group
 * they are not in, a block either way, a suspended author) shows as its id alone.
 */
function readableByLiker(userId: string) {
  return (eb: ExpressionBuilder<Database, 'posts'>) => eb.or([eb('posts.author_id', '=', userId), postReadableBy(userId, 'posts')(eb)]);
}

/** The user's posts in export order, from after the page's key (index posts_author). */
function authoredPage(db: Executor, authorId: string, page: KeysetPage) {
  return db
    .selectFrom('posts')
    .where('posts.author_id', '=', authorId)
    .where(afterKeyset(page.after, 'posts.created_at', 'posts.id'))
    .orderBy('posts.created_at')
    .orderBy('posts.id')
    .limit(page.limit);
}

export interface AuthoredPostRow {
  id: string;
  text: string;
  edited_at: number | null;
  reply_to: string | null;
  likes: number;
  comments: number;
  images: number;
  image_alts: string;
  content_warning: string | null;
  created_at: number;
  is_private: boolean;
}

/** A page of the posts the user wrote, oldest first, in whatever group: they are the author's own data. */
export async function findPostsByAuthor(db: Executor, authorId: string, page: KeysetPage): Promise<AuthoredPostRow[]> {
  const rows = await authoredPage(db, authorId, page)
    .select(['posts.id', 'posts.text', 'posts.edited_at', 'posts.reply_to', 'posts.likes', 'posts.comments', 'posts.images', 'posts.image_alts', 'posts.content_warning', 'posts.created_at'])
    .select(postIsPrivate('posts.id').as('is_private'))
    .execute();
  return rows.map((row) => ({
    ...row,
    created_at: Number(row.created_at),
    edited_at: row.edited_at === null ? null : Number(row.edited_at),
    is_private: toBool(row.is_private),
  }));
}

/** A page of the user's posts that hold images, oldest first: which files the export puts in the zip. */
export const findImagesOfAuthor = (db: Executor, authorId: string, page: KeysetPage) => imagesOfAuthor(db, 'posts', authorId, page);

/** A page of the posts the user liked, with when, oldest like first: ids only, whoever may see them. */
export const findPostLikesOf = (db: Executor, userId: string, page: KeysetPage) => likesGivenBy(db, 'post_likes', userId, page);

/** Those of `postIds` (posts the user liked) whose content they may read: ones they may read now, and their own. */
export async function findReadableLikedPosts(db: Executor, userId: string, postIds: string[]): Promise<LikedWritingRow[]> {
  if (postIds.length === 0) return [];
  const rows = await db
    .selectFrom('posts')
    .leftJoin('users', 'users.id', 'posts.author_id')
    .select(['posts.id', 'posts.author_id', 'users.username as author_username', 'posts.text', 'posts.created_at'])
    .where('posts.id', 'in', postIds)
    .where(readableByLiker(userId))
    .execute();
  return rows.map((row) => ({ ...row, created_at: Number(row.created_at) }));
}
