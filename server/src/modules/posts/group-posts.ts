import { LIMITS } from '#core/limits';
import type { Executor } from '../../db/schema.js';
import { isId } from '../../lib/ids.js';
import { commentImagesOf } from '../comments/comments.service.js';
import { unpinIfPinned, unpinPosts } from './group-pins.js';
import { type SecretSource, imageKey } from '../../policy/media-urls.js';
import { keptPicturesOf } from './remote-pictures.js';
import * as repo from './posts.repository.js';
import { recountAuthorsInGroup } from '../counters/account-counts.js';

/**
 * What other modules ask of posts: whether a post exists or is tagged with a group, untagging, and
 * deleting posts with everything hanging off them. Posts and their group tags are written only by
 * this module, so a group's deletion or an admin's removal comes through here.
 */

export async function postExists(db: Executor, postId: string): Promise<boolean> {
  return isId(postId) && (await repo.findPostAuthor(db, postId)) !== undefined;
}

export function isPostInGroup(db: Executor, groupId: string, postId: string): Promise<boolean> {
  return repo.isTaggedWith(db, groupId, postId);
}

/** Ids of the posts tagged with the group. */
export function postIdsInGroup(db: Executor, groupId: string): Promise<string[]> {
  return repo.findGroupPostIds(db, groupId);
}

/** Untags the post from the group (and drops the group's pin on it); false when it was not tagged. */
export async function untagPostFromGroup(db: Executor, groupId: string, postId: string): Promise<boolean> {
  if (!(await repo.untagPostFromGroup(db, groupId, postId))) return false;
  await unpinIfPinned(db, groupId, postId);
  return true;
}

/** The group turned private or public: its posts count for their authors, or stop counting, with it. */
export function groupPrivacyChanged(db: Executor, groupId: string): Promise<void> {
  return recountAuthorsInGroup(db, groupId);
}

/** Untags every post from a group that is being deleted. */
export function untagGroup(db: Executor, groupId: string): Promise<void> {
  return repo.untagGroup(db, groupId);
}

/**
 * Deletes the posts with their likes, comments, tags and notifications (by foreign key) and any
 * group's pin on them; answers the media keys of the posts and their comments, to remove once the
 * transaction has committed. Every image slot of a post is named: an upload may have filled a
 * slot beyond the count the post row holds. A remote post's pictures kept here go too (their keys
 * are named with the secret, as their addresses are).
 */
export async function deletePostsWithMedia(db: Executor, postIds: string[], secret: SecretSource): Promise<string[]> {
  if (postIds.length === 0) return [];
  const comments = await commentImagesOf(db, postIds);
  const remote = await keptPicturesOf(db, postIds, secret);
  await unpinPosts(db, postIds);
  await repo.deletePostRows(db, postIds);
  const keys = postIds.flatMap((postId) => Array.from({ length: LIMITS.imagesPerPost }, (_, index) => imageKey(postId, index)));
  for (const comment of comments) {
    for (let index = 0; index < Math.max(comment.images, LIMITS.imagesPerComment); index++) keys.push(imageKey(comment.id, index));
  }
  return [...keys, ...remote];
}
