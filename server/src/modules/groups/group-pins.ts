import type { Executor } from '../../db/schema.js';
import * as repo from './groups.repository.js';

/**
 * A group's pin names one of its posts, so the posts module drops it when it deletes or untags
 * that post: the pin is the groups module's column, written only here and in groups.service.
 */

/** Drops every group's pin on these posts (they are being deleted). */
export async function unpinPosts(db: Executor, postIds: string[]): Promise<void> {
  if (postIds.length > 0) await repo.unpinPosts(db, postIds);
}

/** Drops the group's pin if it is this post (it leaves the group). */
export function unpinIfPinned(db: Executor, groupId: string, postId: string): Promise<void> {
  return repo.unpinIf(db, groupId, postId);
}
