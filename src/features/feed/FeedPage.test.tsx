import '../../test/setup';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getDb, clearLocalData } from '../../lib/db/db';
import { cancelScheduledSend } from '../../lib/outbox/outbox';
import { queuePost } from '../../lib/outbox/kinds/post';
import { feedKey } from '../../lib/query/feed';
import { getSession, storeSession } from '../../lib/session';
import { getToasts } from '../../lib/toast';
import { apiPost, mockFetch, setOnline, useCloneableBlobs } from '../../test/local-first';
import { renderWithApp } from '../../test/render';
import FeedPage from './FeedPage';

const feedRoutes = (route: string) =>
  renderWithApp(<FeedPage />, { route, path: '/feed/*', routes: [{ path: '/', element: <FeedPage /> }] });

const texts = () => screen.queryAllByRole('article').map((a) => a.querySelector('.post-text')?.textContent);

beforeEach(async () => {
  useCloneableBlobs();
  setOnline(true);
  vi.stubGlobal('IntersectionObserver', undefined);
  await clearLocalData();
});
afterEach(() => cancelScheduledSend());

describe('FeedPage', () => {
  it('paints the stored page before the network answers, then shows the fresh one', async () => {
    await getDb().posts.bulkPut(['s1', 's2'].map((id) => ({ ...apiPost(id, { text: `stored ${id}` }), cachedAt: 1 })));
    await getDb().feedPages.put({ feedKey: feedKey({ feed: 'explore' }), page: 1, ids: ['s2', 's1'], hasMore: false, fetchedAt: 1 });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const { calls } = mockFetch(async () => {
      await gate;
      return { body: { posts: [apiPost('n1', { text: 'fresh n1' }), apiPost('s1', { text: 'stored s1' })], hasMore: false } };
    });
    feedRoutes('/feed');
    await waitFor(() => expect(texts()).toEqual(['stored s2', 'stored s1']));
    expect(screen.getAllByRole('link', { name: /Explore/ })).toHaveLength(1);
    expect(screen.queryByRole('link', { name: 'Following' })).toBeNull();
    release();
    await waitFor(() => expect(texts()).toEqual(['fresh n1', 'stored s1']));
    expect(new URL(calls[0]!.url, 'http://x').pathname).toBe('/api/feed');
  });

  it('sends visitors from the following tab to /feed', async () => {
    mockFetch(() => ({ body: { posts: [], hasMore: false } }));
    const { router } = feedRoutes('/feed/following');
    await waitFor(() => expect(router.state.location.pathname).toBe('/feed'));
  });

  it('shows the groups tab with the strip of the user’s groups', async () => {
    storeSession('t1', 'me', 'u9');
    const { calls } = mockFetch((call) =>
      call.path === '/api/profile/user/me/groups'
        ? { body: { groupList: [{ gp: 'g1', name: 'cats' }], hasMore: false } }
        : { body: { posts: [apiPost('gp1', { text: 'group post' })], hasMore: false } },
    );
    feedRoutes('/feed/groups');
    expect(screen.getByRole('link', { name: 'Following' })).toBeInTheDocument();
    const strip = await screen.findByRole('navigation', { name: 'Your groups' });
    await waitFor(() => expect(within(strip).getByRole('link', { name: 'cats' })).toHaveAttribute('href', '/g/cats'));
    expect(within(strip).getByRole('link', { name: 'All your groups' })).toHaveAttribute('href', '/u/me/groups');
    await waitFor(() => expect(texts()).toEqual(['group post']));
    expect(calls.some((c) => c.path === '/api/feed/groups')).toBe(true);
  });

  it('reaches every one of the user’s groups in the strip, 20 at a time', async () => {
    storeSession('t1', 'me', 'u9');
    const groups = Array.from({ length: 25 }, (_, i) => ({ gp: `g${i + 1}`, name: `group${i + 1}` }));
    const { calls } = mockFetch((call) => {
      if (call.path !== '/api/profile/user/me/groups') return { body: { posts: [], hasMore: false } };
      const query = new URL(call.url, 'http://x').searchParams;
      const [page, limit] = [Number(query.get('page')), Number(query.get('limit'))];
      return { body: { groupList: groups.slice((page - 1) * limit, page * limit), hasMore: page * limit < groups.length } };
    });
    feedRoutes('/feed/groups');
    const strip = await screen.findByRole('navigation', { name: 'Your groups' });
    const shown = () => within(strip).queryAllByRole('link', { name: /^group\d+$/ }).map((a) => a.textContent);
    await waitFor(() => expect(shown()).toHaveLength(20));
    fireEvent.click(within(strip).getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(shown()).toEqual(groups.map((g) => g.name)));
    expect(within(strip).queryByRole('button', { name: 'Load more' })).toBeNull();
    const asked = calls.filter((c) => c.path === '/api/profile/user/me/groups').map((c) => new URL(c.url, 'http://x').searchParams);
    expect(asked.map((q) => [q.get('page'), q.get('limit')])).toEqual([['1', '20'], ['2', '20']]);
  });

  it('shows posts waiting in the outbox at the top, marked pending', async () => {
    storeSession('t1', 'me', 'u9');
    setOnline(false);
    mockFetch(() => new TypeError('offline'));
    await queuePost({ text: 'not sent yet', mentions: [], groups: [], replyingTo: null, images: [] });
    feedRoutes('/');
    const card = (await screen.findByText('not sent yet')).closest('article')!;
    expect(within(card).getByRole('status')).toHaveTextContent('Waiting to send');
    // No page of the feed is stored: offline says so, rather than that there are no posts.
    expect(await screen.findByText('You are offline, and these posts are not saved on this device.')).toBeInTheDocument();
    expect(screen.queryByText('No posts here yet.')).toBeNull();
  });

  it('keeps the stored posts when the server refuses the session, with no error toast', async () => {
    storeSession('t1', 'alice', 'u1');
    await getDb().posts.bulkPut(['s1', 's2'].map((id) => ({ ...apiPost(id, { text: `stored ${id}` }), cachedAt: 1 })));
    await getDb().feedPages.put({ feedKey: feedKey({ feed: 'explore' }), page: 1, ids: ['s2', 's1'], hasMore: false, fetchedAt: 1 });
    const before = getToasts().length;
    mockFetch(() => ({ status: 401, body: { message: 'error/invalid_token' } }));
    feedRoutes('/feed');
    await waitFor(() => expect(getSession().expired).toBe(true));
    await waitFor(() => expect(texts()).toEqual(['stored s2', 'stored s1']));
    expect(getToasts().slice(before)).toEqual([]);
  });

  it('says a tab never stored needs a login, not that it has no posts, once the server refuses the session', async () => {
    storeSession('t1', 'alice', 'u1');
    mockFetch(() => ({ status: 401, body: { message: 'error/invalid_token' } }));
    feedRoutes('/feed/following');
    expect(await screen.findByText('This is not saved on this device. Log in again to see it.')).toBeInTheDocument();
    expect(screen.queryByText('No posts here yet.')).toBeNull();
  });

  it('says a tab never stored failed to load when the server answers an error, not that it has no posts', async () => {
    mockFetch(() => ({ status: 500, body: { message: 'error/server_error' } }));
    feedRoutes('/feed');
    expect(await screen.findByText('Something went wrong while loading.')).toBeInTheDocument();
    expect(screen.queryByText('No posts here yet.')).toBeNull();
  });

  it('changes sort through the URL and loads the next page when asked', async () => {
    const { calls } = mockFetch((call) => {
      const page = new URL(call.url, 'http://x').searchParams.get('page');
      return page === '1'
        ? { body: { posts: ['a', 'b', 'c', 'd'].map((id) => apiPost(id, { text: id })), hasMore: true } }
        : { body: { posts: ['d', 'e'].map((id) => apiPost(id, { text: id })), hasMore: false } };
    });
    const { router } = feedRoutes('/feed');
    await waitFor(() => expect(texts()).toEqual(['a', 'b', 'c', 'd']));
    fireEvent.change(screen.getByRole('combobox', { name: 'Sort' }), { target: { value: 'popular' } });
    await waitFor(() => expect(router.state.location.search).toBe('?sort=popular'));
    expect(screen.getByRole('combobox', { name: 'Time' })).toHaveValue('week');
    await waitFor(() => expect(calls.some((c) => c.url.includes('sort=popular'))).toBe(true));
    await waitFor(() => expect(texts()).toEqual(['a', 'b', 'c', 'd']));
    fireEvent.click(await screen.findByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(texts()).toEqual(['a', 'b', 'c', 'd', 'e']));
    expect(screen.getByText('You have reached the end.')).toBeInTheDocument();
  });
});
