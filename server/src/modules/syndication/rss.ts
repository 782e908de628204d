import { Feed } from 'feed';
import type { Post } from '#core/api/posts';
import { appPaths } from '#core/app-paths';
import type { LinkLanguage } from './link-texts.js';
import { postPicture, postSummary } from './post-summary.js';

export interface FeedHead {
  title: string;
  description: string;
  /** The screen the feed follows (its real path), and the feed's own path. */
  page: string;
  self: string;
  image?: string | undefined;
}

/**
 * A page of posts as an RSS 2.0 document; `origin` makes every link absolute. An item's picture is
 * its enclosure, with its size in bytes from `sizes` (by URL); one whose size is unknown says 0, as
 * RSS readers take it.
 */
export function rssOf(origin: string, head: FeedHead, posts: readonly Post[], language: LinkLanguage, sizes: ReadonlyMap<string, number> = new Map()): string {
  const absolute = (path: string) => new URL(path, origin).href;
  const feed = new Feed({
    title: head.title,
    description: head.description,
    id: absolute(head.page),
    link: absolute(head.page),
    language,
    generator: 'Kruh',
    feedLinks: { rss: absolute(head.self) },
    ...(head.image ? { image: absolute(head.image) } : {}),
    copyright: '',
    ...(posts[0] ? { updated: new Date(posts[0].createdAt) } : {}),
  });
  for (const post of posts) {
    const { title, text } = postSummary(post, language);
    const picture = postPicture(post);
    feed.addItem({
      title,
      id: absolute(appPaths.post(post._id)),
      link: absolute(appPaths.post(post._id)),
      description: text,
      date: new Date(post.createdAt),
      author: [{ name: `@${post.author.username}`, link: absolute(appPaths.user(post.author.username)) }],
      ...(picture ? { image: { url: absolute(picture), type: 'image/webp', length: sizes.get(picture) ?? 0 } } : {}),
    });
  }
  return feed.rss2();
}
