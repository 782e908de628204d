import { useQueries } from '@tanstack/react-query';
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useRef, useState } from 'react';
import { PAGE_SIZES } from '#core/limits';
import { FEED_DEFAULTS, type Sort, type TimeWindow } from '#core/listing';
import { NetworkError } from '../api/client';
import type { Post } from '../api/types';
import { type CachedPost, type KruhDb, getDb } from '../db/db';
import { useDb } from '../db/useDb';
import { toast } from '../toast';
import { type ListingPageResult, fetchListingPage, readListingPages } from './listing';

/** Which listing of posts. */
export type FeedSource =
  | 'explore'
  | 'following'
  | 'groups'
  | { hash: string }
  | { profile: string }
  | { group: string }
  | { search: string };

export interface FeedParams {
  feed: FeedSource;
  sort?: Sort;
  time?: TimeWindow;
}

function sourcePath(feed: FeedSource): { path: string; query?: Record<string, string>; name: string } {
  if (feed === 'explore') return { path: '/feed', name: 'explore' };
  if (feed === 'following' || feed === 'groups') return { path: `/feed/${feed}`, name: feed };
  if ('hash' in feed) return { path: `/feed/hash/${encodeURIComponent(feed.hash)}`, name: `hash:${feed.hash}` };
  if ('profile' in feed) return { path: `/profile/posts/${encodeURIComponent(feed.profile)}`, name: `profile:${feed.profile}` };
  if ('group' in feed) return { path: `/group/${encodeURIComponent(feed.group)}/posts`, name: `group:${feed.group}` };
  return { path: '/search/for/posts', query: { query: feed.search }, name: `search:${feed.search}` };
}

const sortOf = (p: FeedParams) => p.sort ?? FEED_DEFAULTS.sort;
const timeOf = (p: FeedParams) => p.time ?? FEED_DEFAULTS.time;

/** The stored key of a listing: its source and its sort and time. */
export function feedKey(params: FeedParams): string {
  return `${sourcePath(params.feed).name}|sort=${sortOf(params)}|time=${timeOf(params)}`;
}

export type FeedPageResult = ListingPageResult;

/** GET one page of a listing of posts and store its posts and its ids in order. */
export function fetchFeedPage(
  params: FeedParams & { page: number },
  options: { signal?: AbortSignal; db?: KruhDb } = {},
): Promise<FeedPageResult> {
  const db = options.db ?? getDb();
  const { path, query } = sourcePath(params.feed);
  return fetchListingPage<Post>(db, db.posts, 'posts', {
    key: feedKey(params),
    page: params.page,
    path,
    query,
    limit: PAGE_SIZES.posts,
    sort: sortOf(params),
    time: timeOf(params),
    defaults: FEED_DEFAULTS,
    signal: options.signal,
  });
}

/** Posts of stored pages 1..pages, in page order, each id once. */
export async function readFeed(db: KruhDb, key: string, pages: number): Promise<{ posts: CachedPost[]; hasMore: boolean; stored: number }> {
  const { items, hasMore, stored } = await readListingPages(db, db.posts, key, pages);
  return { posts: items, hasMore, stored };
}

export interface FeedState {
  /** Posts from the local database: painted before the network answers. */
  posts: Post[];
  hasMore: boolean;
  /** Nothing stored yet and nothing fetched yet. */
  isLoading: boolean;
  isFetching: boolean;
  /** A page asked for by loadMore is on its way. */
  isLoadingMore: boolean;
  error: unknown;
  pages: number;
  loadMore: () => void;
}

/**
 * A listing page by page: stored pages paint at once, every shown page is fetched again in the
 * background (stale-while-revalidate). Resets to page 1 when the params change.
 */
export function useFeed(params: FeedParams, enabled = true): FeedState {
  const db = useDb();
  const key = feedKey(params);
  const [paging, setPaging] = useState({ key, pages: 1 });
  const pages = paging.key === key ? paging.pages : 1;

  const queries = useQueries({
    queries: Array.from({ length: pages }, (_, i) => ({
      queryKey: ['feed', db.name, key, i + 1],
      queryFn: ({ signal }: { signal: AbortSignal }) => fetchFeedPage({ ...params, page: i + 1 }, { signal, db }),
      enabled,
    })),
  });

  const stored = useLiveQuery(() => readFeed(db, key, pages), [db, key, pages]);
  const isFetching = queries.some((q) => q.isFetching);
  const error = queries.find((q) => q.error)?.error ?? null;
  const lastQuery = queries[queries.length - 1];
  const hasMore = (lastQuery?.data?.hasMore ?? stored?.hasMore ?? true) && !(lastQuery?.error && !stored?.stored);

  const loadMore = () => setPaging({ key, pages: pages + 1 });

  return {
    posts: stored?.posts ?? [],
    hasMore: !!stored && stored.stored >= pages ? hasMore : false,
    isLoading: !stored || (stored.stored === 0 && queries.every((q) => q.isPending && q.fetchStatus !== 'idle')),
    isFetching,
    isLoadingMore: !!stored && stored.stored < pages && queries[pages - 1]?.isFetching === true,
    error,
    pages,
    loadMore,
  };
}

/**
 * Whether a listing's last call got no answer (offline: the stored pages stay shown); any other
 * failure is reported once by a toast.
 */
export function useListingOffline(error: unknown): boolean {
  const offline = error instanceof NetworkError;
  const reported = useRef<unknown>(null);
  useEffect(() => {
    if (error && !offline && reported.current !== error) {
      reported.current = error;
      toast.error('error/while_loading');
    }
  }, [error, offline]);
  return offline;
}
