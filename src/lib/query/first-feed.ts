import type { ReplyOf } from '#core/api/endpoint';
import type { feedsApi } from '#core/api/feeds';
import { FEED_DEFAULTS, FIRST_FEED_ELEMENT_ID } from '#core/listing';
import { opensOnExplore, parseAddress } from '../first-screen';
import { readListing } from '../listing-params';
import { mediaSrc } from '../media-url';
import { isLoggedIn } from '../session-store';


/** The answer of GET /feed (page 1) as the page at `/` carries it. */
export type FirstFeed = ReplyOf<typeof feedsApi.explore>;

/**
 * What the first picture is read from: the posts' media. The block is parsed but not checked
 * against the contract, so a post without media is passed over rather than trusted.
 */
type FeedMedia = { posts: ReadonlyArray<Partial<Pick<FirstFeed['posts'][number], 'media'>>> };

/** The page taken from the HTML, until the feed has read its stored copy (see useFeed). */
let carried: FirstFeed | null = null;

/** The first page the HTML came with, while the feed has not read its own stored copy yet. */
export const carriedFirstFeed = (): FirstFeed | null => carried;

/** The feed has read its stored copy: the page the HTML came with is not shown again. */
export function dropCarriedFirstFeed(): void {
  carried = null;
}

/**
 * The explore feed's first page the page came with, when it is what this start shows: a visitor's
 * explore feed in its default order (a session's feed holds more than a visitor's; another order
 * is another list). Taken once: the block leaves the page.
 */
export function takeFirstFeed(address: string, doc: Document = document): FirstFeed | null {
  const element = doc.getElementById(FIRST_FEED_ELEMENT_ID);
  if (!element) return null;
  element.remove();
  const { sort, time } = readListing(parseAddress(address).searchParams, FEED_DEFAULTS);
  if (!opensOnExplore(address) || isLoggedIn() || sort !== FEED_DEFAULTS.sort || time !== FEED_DEFAULTS.time) return null;
  try {
    const answer: unknown = JSON.parse(element.textContent ?? '');
    carried = answer && typeof answer === 'object' && Array.isArray((answer as Partial<FirstFeed>).posts) ? (answer as FirstFeed) : null;
    return carried;
  } catch {
    return null;
  }
}

/**
 * Asks for the first picture of that page now, beside the app's code: on a phone it is the
 * largest paint, and it would otherwise wait for the feed to draw.
 */
export function preloadFirstPicture(feed: FeedMedia, doc: Document = document): void {
  const url = feed.posts.find((post) => post.media?.length)?.media?.[0];
  if (!url) return;
  const link = doc.createElement('link');
  for (const [name, value] of Object.entries({ rel: 'preload', as: 'image', href: mediaSrc(url), fetchpriority: 'high' })) link.setAttribute(name, value);
  doc.head.append(link);
}
