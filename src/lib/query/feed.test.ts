import '../../test/setup';
import { beforeEach, describe, expect, it } from 'vitest';
import { apiPost, mockFetch, servePages, startOnline, useCloneableBlobs } from '../../test/local-first';
import { getDb } from '../db/db';
import { type FeedParams, feedKey, feedSource } from './feed';
import { fetchPage, readPages } from './paged';

// The calls the paging engine makes for a listing of posts (usePaged with feedSource).
const fetchFeedPage = ({ page, ...params }: FeedParams & { page: number }) => fetchPage(getDb(), feedSource(params), page);
const readFeed = (params: FeedParams, pages: number) => readPages(getDb(), feedSource(params), pages);

beforeEach(async () => {
  useCloneableBlobs();
  await startOnline();
});

describe('feed pages', () => {
  it('stores a page and reads it back in the server order, each post once', async () => {
    const { calls } = servePages('posts', { '1': ['c', 'a', 'd', 'b'].map((id) => apiPost(id)), '2': ['b', 'e'].map((id) => apiPost(id)) });
    const params = { feed: 'following' as const, sort: 'popular' as const, time: 'month' as const };
    await fetchFeedPage({ ...params, page: 1 });
    const key = feedKey(params);
    expect(await getDb().feedPages.get([key, 1])).toMatchObject({ ids: ['c', 'a', 'd', 'b'], hasMore: true });

    const first = await readFeed(params, 1);
    expect(first.items.map((p) => p._id)).toEqual(['c', 'a', 'd', 'b']);
    expect(first.hasMore).toBe(true);

    await fetchFeedPage({ ...params, page: 2 });
    const both = await readFeed(params, 2);
    expect(both.items.map((p) => p._id)).toEqual(['c', 'a', 'd', 'b', 'e']);
    expect(both.hasMore).toBe(false);

    const url1 = new URL(calls[0]!.url, 'http://x');
    expect(url1.pathname).toBe('/api/feed/following');
    expect(Object.fromEntries(url1.searchParams)).toEqual({ page: '1', limit: '4', sort: 'popular', time: 'month' });
    const url2 = new URL(calls[1]!.url, 'http://x');
    expect(Number(url2.searchParams.get('before'))).toBe((await getDb().feedPages.get([key, 1]))!.fetchedAt);
  });

  it('sends sort and time by the listing rule: time only for popular away from its default', async () => {
    const { calls } = mockFetch(() => ({ body: { posts: [], hasMore: false } }));
    const listings = [
      { sort: 'newest', time: 'week' },
      { sort: 'newest', time: 'month' },
      { sort: 'popular', time: 'week' },
      { sort: 'popular', time: 'all' },
    ] as const;
    for (const listing of listings) await fetchFeedPage({ feed: 'explore', ...listing, page: 1 });
    const sent = calls.map((c) => {
      const { sort, time } = Object.fromEntries(new URL(c.url, 'http://x').searchParams);
      return { sort, time };
    });
    // A newest listing without time is all time on the server.
    expect(sent).toEqual([
      { sort: undefined, time: undefined },
      { sort: undefined, time: undefined },
      { sort: 'popular', time: undefined },
      { sort: 'popular', time: 'all' },
    ]);
  });

  it('maps each listing to its call', async () => {
    const { calls } = mockFetch(() => ({ body: { posts: [], hasMore: false } }));
    await fetchFeedPage({ feed: 'explore', page: 1 });
    await fetchFeedPage({ feed: { hash: 'kočka' }, page: 1 });
    await fetchFeedPage({ feed: { profile: 'bob' }, page: 1 });
    await fetchFeedPage({ feed: { group: 'cats' }, page: 1 });
    await fetchFeedPage({ feed: { search: 'hello' }, page: 1 });
    expect(calls.map((c) => c.path)).toEqual([
      '/api/feed', `/api/feed/hash/${encodeURIComponent('kočka')}`, '/api/profile/posts/bob', '/api/group/cats/posts', '/api/search/for/posts',
    ]);
    expect(new URL(calls[4]!.url, 'http://x').searchParams.get('query')).toBe('hello');
    expect(feedKey({ feed: 'explore' })).not.toBe(feedKey({ feed: 'explore', sort: 'popular' }));
  });
});
