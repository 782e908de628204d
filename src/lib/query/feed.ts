import { feedsApi } from '#core/api/feeds';
import { groupsApi } from '#core/api/groups';
import { profilesApi } from '#core/api/profiles';
import { searchApi } from '#core/api/search';
import { PAGE_SIZES } from '#core/limits';
import { FEED_DEFAULTS, type Sort, type TimeWindow } from '#core/listing';
import { NetworkError } from '../api/client';
import type { Post } from '../api/types';
import type { CachedPost } from '../db/db';
import { useFailureToast } from '../load-failure';
import { carriedFirstFeed, dropCarriedFirstFeed } from './first-feed';
import { queryKeys } from './keys';
import { type PagedSource, type PagedState, tableStore, usePaged } from './paged';

export { showNewPostOnFirstPages } from './feed-pages';

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

/** The calls listing posts: each answers a page of posts (the contract's PostList). */
type FeedEndpoint =
  | (typeof feedsApi)['explore' | 'following' | 'groups' | 'hashtag']
  | typeof profilesApi.posts
  | typeof groupsApi.posts
  | typeof searchApi.posts;

interface FeedCall {
  endpoint: FeedEndpoint;
  params?: Record<string, string>;
  query?: Record<string, string>;
  /** The listing's name in stored keys. */
  name: string;
}

function sourceOf(feed: FeedSource): FeedCall {
  if (feed === 'explore') return { endpoint: feedsApi.explore, name: 'explore' };
  if (feed === 'following') return { endpoint: feedsApi.following, name: feed };
  if (feed === 'groups') return { endpoint: feedsApi.groups, name: feed };
  if ('hash' in feed) return { endpoint: feedsApi.hashtag, params: { hashtag: feed.hash }, name: `hash:${feed.hash}` };
  if ('profile' in feed) return { endpoint: profilesApi.posts, params: { username: feed.profile }, name: `profile:${feed.profile}` };
  if ('group' in feed) return { endpoint: groupsApi.posts, params: { name: feed.group }, name: `group:${feed.group}` };
  return { endpoint: searchApi.posts, query: { query: feed.search }, name: `search:${feed.search}` };
}

const sortOf = (p: FeedParams) => p.sort ?? FEED_DEFAULTS.sort;
const timeOf = (p: FeedParams) => p.time ?? FEED_DEFAULTS.time;

/** The name of a listing's source, whatever its sort and time (queryKeys.feedsOf reaches them all). */
export const feedName = (feed: FeedSource): string => sourceOf(feed).name;

/** The stored key of a listing: its source and its sort and time. */
export function feedKey(params: FeedParams): string {
  return `${sourceOf(params.feed).name}|sort=${sortOf(params)}|time=${timeOf(params)}`;
}

const postStore = tableStore<Post>((db) => db.posts);

/** A listing of posts for the paging engine. */
export function feedSource(params: FeedParams): PagedSource<FeedEndpoint, 'posts', CachedPost> {
  const { endpoint, params: pathParams, query } = sourceOf(params.feed);
  return {
    key: feedKey(params),
    endpoint,
    ...(pathParams ? { params: pathParams } : {}),
    ...(query ? { query } : {}),
    listing: { sort: sortOf(params), time: timeOf(params), defaults: FEED_DEFAULTS },
    limit: PAGE_SIZES.posts,
    field: 'posts',
    store: postStore,
  };
}

/** A listing's paging state (see PagedState), its items as `posts`. */
export type FeedState = Pick<
  PagedState<Post, unknown>,
  'hasMore' | 'isLoading' | 'isFetching' | 'isLoadingMore' | 'error' | 'pages' | 'loadMore' | 'unavailable'
> & {
  /** Posts from the local database: painted before the network answers. */
  posts: Post[];
};

/**
 * A listing of posts page by page, through the paging engine: stored pages paint at once, every
 * shown page is fetched again in the background. Resets to page 1 when the params change.
 */
export function useFeed(params: FeedParams, enabled = true): FeedState {
  const source = feedSource(params);
  const name = feedName(params.feed);
  const list = usePaged({ source, queryKey: (dbName) => queryKeys.feed(dbName, name, source.key), enabled });
  // On a first visit the page the HTML came with (drawn by the server as plain cards) shows until
  // the stored copy has its posts, a moment later: the app's first drawing replaces the server's
  // cards with the same cards, not with a loading skeleton (or, while the copy is being written,
  // "no posts") in between.
  const carried = params.feed === 'explore' && params.sort === FEED_DEFAULTS.sort && params.time === FEED_DEFAULTS.time ? carriedFirstFeed() : null;
  if (carried && list.items.length > 0) dropCarriedFirstFeed();
  const early = carried && carried.posts.length > 0 && list.items.length === 0 ? carried : null;
  return {
    posts: early ? early.posts : list.items,
    hasMore: early ? early.hasMore : list.hasMore,
    isLoading: !early && list.isLoading,
    isFetching: list.isFetching,
    isLoadingMore: list.isLoadingMore,
    error: list.error,
    pages: list.pages,
    loadMore: list.loadMore,
    unavailable: list.unavailable,
  };
}

const whileLoading = () => 'error/while_loading';

/**
 * Whether a listing's last call got no answer (offline: the stored pages stay shown); any other
 * failure but a refused session (which the shell says) is reported once by a toast.
 */
export function useListingOffline(error: unknown): boolean {
  useFailureToast(error, whileLoading);
  return error instanceof NetworkError;
}
