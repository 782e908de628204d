import '../../test/setup';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { apiPost, servePages, startOnline, useCloneableBlobs } from '../../test/local-first';
import { testQueryClient } from '../../test/render';
import { useFeed } from '../query/feed';
import { HistoryEntry } from './entry';

beforeEach(async () => {
  useCloneableBlobs();
  await startOnline();
});

const ids = (n: number) => Array.from({ length: n }, (_, i) => `p${i + 1}`);

/**
 * Every list screen (feeds, a profile's, a group's or a hashtag's posts, search, notifications)
 * pages through usePaged: shown again on the same history entry, a list has the pages it had loaded.
 */
describe('loaded pages kept per history entry', () => {
  it('come back on the entry, the list shows all its loaded pages; on a new entry, its first page', async () => {
    servePages('posts', { '1': ['p1', 'p2'].map((id) => apiPost(id)), '2': ['p3', 'p4'].map((id) => apiPost(id)), '3': [apiPost('p5')] });
    const client = testQueryClient();
    const shown = (entry: string) =>
      renderHook(() => useFeed({ feed: 'explore' }), {
        wrapper: ({ children }) => (
          <QueryClientProvider client={client}>
            <HistoryEntry value={entry}>{children}</HistoryEntry>
          </QueryClientProvider>
        ),
      });

    const first = shown('a');
    await waitFor(() => expect(first.result.current.posts.map((p) => p._id)).toEqual(ids(2)));
    act(() => first.result.current.loadMore());
    await waitFor(() => expect(first.result.current.posts.map((p) => p._id)).toEqual(ids(4)));
    act(() => first.result.current.loadMore());
    await waitFor(() => expect(first.result.current.posts.map((p) => p._id)).toEqual(ids(5)));
    first.unmount();

    const fresh = shown('b');
    await waitFor(() => expect(fresh.result.current.posts.map((p) => p._id)).toEqual(ids(2)));
    expect(fresh.result.current.pages).toBe(1);
    fresh.unmount();

    const back = shown('a');
    expect(back.result.current.pages).toBe(3);
    await waitFor(() => expect(back.result.current.posts.map((p) => p._id)).toEqual(ids(5)));
    back.unmount();
  });
});
