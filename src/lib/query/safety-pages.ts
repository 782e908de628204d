import { extractHashtags } from '#core/text';
import type { KruhDb, SafetyAction } from '../db/db';

// Stored pages changed by a block or a mute, so the screen changes at once, offline too. Free of
// React, like feed-pages.ts: the outbox calls it.

/** The stored listings that are feeds (a mute leaves profiles, searches and threads alone). */
const FEED_NAMES = ['explore|', 'following|', 'groups|', 'hash:', 'group:'];
const isFeedKey = (key: string) => FEED_NAMES.some((name) => key.startsWith(name));

/**
 * Takes out of the stored pages what the new block or mute hides. A block hides everything of the
 * user everywhere: their posts and comments leave the database and every page, and the user leaves
 * every stored list. A mute of a user takes their posts out of the feeds; a muted hashtag takes its
 * posts out of the feeds but its own page.
 */
export async function hideOnStoredPages(db: KruhDb, action: SafetyAction, subject: string): Promise<void> {
  await db.transaction('rw', db.posts, db.comments, db.feedPages, db.listItems, async () => {
    const posts = await db.posts
      .filter((post) => (action === 'muteTag' ? extractHashtags(post.text).includes(subject) : post.author.pfp === subject))
      .primaryKeys();
    const hidden = new Set<string>(posts);
    if (action === 'block') {
      const comments = await db.comments.filter((comment) => comment.author?.pfp === subject).primaryKeys();
      for (const id of comments) hidden.add(id);
      hidden.add(subject);
      await db.posts.bulkDelete(posts);
      await db.comments.bulkDelete(comments);
      await db.listItems.filter((item) => item.id === subject).delete();
    }
    if (hidden.size === 0) return;
    const ownPage = action === 'muteTag' ? `hash:${subject}|` : null;
    await db.feedPages
      .filter((page) => (action === 'block' || (isFeedKey(page.feedKey) && !page.feedKey.startsWith(ownPage ?? '\u0000'))) && page.ids.some((id) => hidden.has(id)))
      .modify((page) => {
        page.ids = page.ids.filter((id) => !hidden.has(id));
      });
  });
}
