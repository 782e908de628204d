import '../../test/setup';
import { renderHook, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import { clearLocalData } from '../db/db';
import { apiPost, mockFetch, setOnline, useCloneableBlobs } from '../../test/local-first';
import { testQueryClient } from '../../test/render';
import { useFeed } from './feed';
import { prefetchFirstFeedPage } from './feed-prefetch';

beforeEach(async () => {
  useCloneableBlobs();
  setOnline(true);
  await clearLocalData();
});

const feedCalls = (calls: Array<{ path: string; url: string }>) =>
  calls.filter((c) => c.path.startsWith('/api/feed')).map((c) => new URL(c.url, 'http://x').search);

describe('the first feed page at start', () => {
  it.each([
    ['#/feed', { sort: 'newest', time: 'week' }, '?page=1&limit=4'],
    ['', { sort: 'newest', time: 'week' }, '?page=1&limit=4'],
    ['#/?sort=popular&time=all', { sort: 'popular', time: 'all' }, '?page=1&limit=4&sort=popular&time=all'],
  ] as const)('is asked for once at %j, and the feed screen shows it without asking again', async (hash, listing, search) => {
    const { calls } = mockFetch(() => ({ body: { posts: [apiPost('a', { text: 'first' })], hasMore: false } }));
    const client = testQueryClient();
    prefetchFirstFeedPage(client, hash);
    expect(feedCalls(calls)).toEqual([search]);
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
    const { result } = renderHook(() => useFeed({ feed: 'explore', ...listing }), { wrapper });
    await waitFor(() => expect(result.current.posts.map((p) => p.text)).toEqual(['first']));
    expect(feedCalls(calls)).toEqual([search]);
  });

  it("shows the page the app's HTML came with, asking the server nothing", async () => {
    const { calls } = mockFetch(() => ({ body: { posts: [apiPost('b', { text: 'asked' })], hasMore: false } }));
    const client = testQueryClient();
    prefetchFirstFeedPage(client, '#/feed', { posts: [apiPost('a', { text: 'carried' })], hasMore: true });
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
    const { result } = renderHook(() => useFeed({ feed: 'explore', sort: 'newest', time: 'week' }), { wrapper });
    await waitFor(() => expect(result.current.posts.map((p) => p.text)).toEqual(['carried']));
    expect(result.current.hasMore).toBe(true);
    expect(feedCalls(calls)).toEqual([]);
  });

  it('asks for nothing when the app opens on another screen', () => {
    const { calls } = mockFetch(() => ({ body: {} }));
    for (const hash of ['#/feed/following', '#/u/alice', '#/p/p1', '#/login']) prefetchFirstFeedPage(testQueryClient(), hash);
    expect(calls).toEqual([]);
  });
});
