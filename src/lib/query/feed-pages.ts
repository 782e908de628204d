import type { KruhDb } from '../db/db';

// Stored pages of listings changed from outside a screen (the outbox, in the service worker too):
// free of React, unlike feed.ts, which draws listings.

/**
 * Puts a post just created on this device at the top of the stored first pages of the explore
 * listing, where it was shown pending, so it stays on screen until the listing is fetched again.
 * The popular sort is left alone: a new post has earned no place there. Runs inside the caller's
 * transaction when that one includes `feedPages`.
 */
export async function showNewPostOnFirstPages(db: KruhDb, postId: string): Promise<void> {
  const firstPages = await db.feedPages.where('feedKey').startsWith('explore').filter((p) => p.page === 1).toArray();
  for (const page of firstPages) {
    if (page.feedKey.includes('sort=popular')) continue;
    if (!page.ids.includes(postId)) await db.feedPages.put({ ...page, ids: [postId, ...page.ids] });
  }
}
