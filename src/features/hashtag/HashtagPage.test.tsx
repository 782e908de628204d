import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { apiPost, mockFetch, startOnline } from '../../test/local-first';
import { renderWithApp } from '../../test/render';
import HashtagPage from './HashtagPage';

const pid = (n: number) => `p${String(n).padStart(23, '0')}`;

beforeEach(() => startOnline());

describe('hashtag page', () => {
  it('lists the posts with the hashtag page by page and sorts through the address', async () => {
    const { calls } = mockFetch((call) => {
      if (call.path !== '/api/feed/hash/cats') return { status: 404, body: { message: 'error/server_error' } };
      const page = new URL(call.url, 'http://localhost').searchParams.get('page');
      return page === '1'
        ? { body: { posts: [1, 2, 3, 4].map((n) => apiPost(pid(n), { text: `#cats post ${n}` })), hasMore: true } }
        : { body: { posts: [apiPost(pid(5), { text: '#cats post 5' })], hasMore: false } };
    });
    const { router } = renderWithApp(<HashtagPage />, { route: '/h/Cats', path: '/h/:hashtag' });
    expect(screen.getByRole('heading', { name: '#cats' })).toBeInTheDocument();
    expect(await screen.findByText('post 4', { exact: false })).toBeInTheDocument();
    const first = new URL(calls[0]!.url, 'http://localhost').searchParams;
    // Newest is the default listing: no sort, and no time (newest without time is all time).
    expect(Object.fromEntries(first)).toEqual({ page: '1', limit: '4' });
    // jsdom has no IntersectionObserver: the list offers a button instead of scrolling.
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('post 5', { exact: false })).toBeInTheDocument();

    fireEvent.change(screen.getByRole('combobox', { name: 'Sort' }), { target: { value: 'popular' } });
    await waitFor(() => expect(router.state.location.search).toBe('?sort=popular'));
    await waitFor(() =>
      expect(calls.some((c) => new URL(c.url, 'http://localhost').searchParams.get('sort') === 'popular')).toBe(true),
    );
  });

  it('says so when no post has the hashtag', async () => {
    mockFetch(() => ({ body: { posts: [], hasMore: false } }));
    renderWithApp(<HashtagPage />, { route: '/h/nothing', path: '/h/:hashtag', lng: 'cs' });
    expect(await screen.findByText('S tímto hashtagem zatím nejsou žádné příspěvky.')).toBeInTheDocument();
  });
});
