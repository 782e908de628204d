import type { QueryClient } from '@tanstack/react-query';
import { FEED_DEFAULTS } from '#core/listing';
import { getDb } from '../db/db';
import { readListing } from '../listing-params';
import { feedName, feedSource } from './feed';
import { opensOnExplore, parseAddress } from '../first-screen';
import type { FirstFeed } from './first-feed';
import { queryKeys } from './keys';
import { fetchPage, storePage } from './paged';

/**
 * When the app opens on the explore feed, its first page is asked for at once, beside the download
 * of the feed screen's code instead of after its first render: on a first visit the feed's pictures
 * (a phone's largest paint) can only be requested once this page has answered. It goes under the
 * query key the screen reads (usePaged), so the screen joins this request rather than repeating it.
 * `address` is the app's path and query (`/feed?sort=popular`); other screens fetch nothing here. `first`,
 * the page the app's HTML came with (see takeFirstFeed), is stored instead of asked for.
 */
export function prefetchFirstFeedPage(queryClient: QueryClient, address: string, first: FirstFeed | null = null): void {
  if (!opensOnExplore(address)) return;
  const { sort, time } = readListing(parseAddress(address).searchParams, FEED_DEFAULTS);
  const db = getDb();
  const source = feedSource({ feed: 'explore', sort, time });
  void queryClient.prefetchQuery({
    queryKey: [...queryKeys.feed(db.name, feedName('explore'), source.key), 1],
    queryFn: ({ signal }) => (first ? storePage(db, source, 1, first) : fetchPage(db, source, 1, signal)),
  });
}
