import type { KeysetPage } from '../../db/helpers.js';
import type { Executor } from '../../db/schema.js';
import { withLikedTargets } from '../../lib/liked-targets.js';
import { readImageAlts } from '../../policy/image-alts.js';
import { type PostWording, groupTagsOf, wordingOf } from '../posts/posts.service.js';
import * as repo from './export.repository.js';

/** The user's posts and likes of posts in the data export, a page at a time (see KeysetPage). */

/** A post the user wrote, with its tags. */
export interface AuthoredPost extends PostWording {
  id: string;
  text: string;
  createdAt: number;
  /** The original's id (whoever wrote it; its content is not the author's to take). */
  replyingTo: string | null;
  /** In a private group: written for its members. */
  isPrivate: boolean;
  likes: number;
  comments: number;
  images: number;
  /** Each image's description, in image order ('' for none). */
  alts: string[];
  contentWarning: string | null;
  /** When the text was last changed, null if never. */
  editedAt: number | null;
}

/**
 * A page of the posts the user wrote, oldest first (see KeysetPage, keyed by createdAt and id),
 * including those in private groups they have left: four statements a page, whatever its size.
 */
export async function postsWrittenBy(db: Executor, authorId: string, page: KeysetPage): Promise<AuthoredPost[]> {
  const rows = await repo.findPostsByAuthor(db, authorId, page);
  const wordingOfPost = await wordingOf(db, rows.map((row) => row.id));
  return rows.map((row) => {
    const { groups, mentions, earlierVersions } = wordingOfPost(row.id);
    return {
      id: row.id,
      text: row.text,
      createdAt: row.created_at,
      replyingTo: row.reply_to,
      groups,
      mentions,
      isPrivate: row.is_private,
      likes: Number(row.likes),
      comments: Number(row.comments),
      images: Number(row.images),
      alts: readImageAlts(row.image_alts, Number(row.images)),
      contentWarning: row.content_warning,
      editedAt: row.edited_at,
      earlierVersions,
    };
  });
}

/** A page of the user's posts that hold images (keyed by createdAt and id), with how many each holds. */
export async function postImagesOf(db: Executor, authorId: string, page: KeysetPage): Promise<Array<{ id: string; createdAt: number; images: number }>> {
  const rows = await repo.findImagesOfAuthor(db, authorId, page);
  return rows.map((row) => ({ id: row.id, createdAt: row.created_at, images: row.images }));
}

/** A post the user liked; `post` only when they may read it (see findReadableLikedPosts). */
export interface LikedPost {
  postId: string;
  likedAt: number;
  post: { author: string; text: string; createdAt: number; groups: string[] } | null;
}

/**
 * A page of the user's likes of posts, oldest first (keyed by likedAt and postId). A post they may
 * not read now (a private group they are not in, a block either way) is named by its id alone.
 */
export async function postsLikedBy(db: Executor, userId: string, page: KeysetPage): Promise<LikedPost[]> {
  const likes = await repo.findPostLikesOf(db, userId, page);
  const readable = await repo.findReadableLikedPosts(db, userId, likes.map((like) => like.id));
  const groupsOf = await groupTagsOf(db, readable.map((row) => row.id));
  const liked = withLikedTargets(likes, readable, (row, author) => ({
    author,
    text: row.text,
    createdAt: row.created_at,
    groups: groupsOf(row.id).map((g) => g.name),
  }));
  return liked.map(({ id, likedAt, target }) => ({ postId: id, likedAt, post: target }));
}
