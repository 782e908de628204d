import type { Executor } from '../../db/schema.js';

/**
 * A group's pin names one of its posts, so it goes when the post does: the posts module drops it
 * here when it deletes a post or untags it from the group. This and the groups service's setting
 * of a pin are the only writes of the column; the groups module sits above posts, so the pin's
 * dropping cannot be its call.
 */

/** Drops every group's pin on these posts (they are being deleted). */
export async function unpinPosts(db: Executor, postIds: string[]): Promise<void> {
  if (postIds.length > 0) await db.updateTable('groups').set({ pinned_post_id: null }).where('pinned_post_id', 'in', postIds).execute();
}

/** Drops the group's pin if it is this post (it leaves the group). */
export async function unpinIfPinned(db: Executor, groupId: string, postId: string): Promise<void> {
  await db.updateTable('groups').set({ pinned_post_id: null }).where('id', '=', groupId).where('pinned_post_id', '=', postId).execute();
}
