import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { clearHistory, loadHistory } from '../../lib/search-history';
import { apiComment, apiPost, mockFetch, setOnline, startOnline, type FetchCall } from '../../test/local-first';
import { renderWithApp } from '../../test/render';
import SearchPage from './SearchPage';

const params = (call: FetchCall) => new URL(call.url, 'http://localhost').searchParams;
const user = (n: number) => ({ _id: `u${n}`, pfp: `u${n}`, pfpUrl: `/media/pfp/u${n}-v1.jpeg`, username: `ann${n}`, follows: false, notify: false });
const group = (n: number) => ({ _id: `g${n}`, gp: `g${n}`, gpUrl: `/media/gp/g${n}-v1.jpeg`, name: `annies${n}` });

function searchServer() {
  return mockFetch((call) => {
    const q = params(call);
    const limit = Number(q.get('limit'));
    const page = Number(q.get('page'));
    const slice = <T,>(all: T[]) => ({ items: all.slice((page - 1) * limit, page * limit), hasMore: all.length > page * limit });
    if (call.path === '/api/search/for/users') {
      const { items, hasMore } = slice([1, 2, 3, 4, 5, 6, 7].map(user));
      return { body: { userList: items, logged: true, hasMore } };
    }
    if (call.path === '/api/search/for/groups') {
      const { items, hasMore } = slice([1, 2, 3, 4].map(group));
      return { body: { groupList: items, logged: true, hasMore } };
    }
    if (call.path === '/api/search/for/posts') {
      return { body: { posts: [apiPost(`p${'0'.repeat(22)}01`, { text: 'a post about ann' })], hasMore: false } };
    }
    if (call.path === '/api/search/for/replies') {
      return {
        body: {
          comments: [
            apiComment('c1', 'p1', {
              text: 'a reply for ann',
              parent: { _id: 'p1', author: { username: 'bob' }, directParent: true },
              author: { username: 'carol', pfp: 'u9' },
              createdAt: Date.now() - 60_000,
            }),
          ],
          hasMore: false,
        },
      };
    }
    return { status: 404, body: { message: 'error/server_error' } };
  });
}

beforeEach(async () => {
  await startOnline();
  await clearHistory('u1');
});

describe('search page', () => {
  it('the all view shows 3 users, 3 groups and the posts, with show-more buttons', async () => {
    const { calls } = searchServer();
    renderWithApp(<SearchPage />, { route: '/search?q=ann', path: '/search' });
    const users = await screen.findByRole('region', { name: 'Users' });
    await waitFor(() => expect(within(users).getAllByRole('link')).toHaveLength(3));
    const groups = screen.getByRole('region', { name: 'Groups' });
    await waitFor(() => expect(within(groups).getAllByRole('link')).toHaveLength(3));
    expect(within(groups).getByRole('link', { name: /&annies1/ })).toHaveAttribute('href', '/g/annies1');
    expect(within(users).getByRole('link', { name: /ann1/ })).toHaveAttribute('href', '/u/ann1');
    expect(await screen.findByText('a post about ann')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Show more users' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Show more groups' })).toBeInTheDocument();
    const userCall = calls.find((c) => c.path === '/api/search/for/users')!;
    expect(Object.fromEntries(params(userCall))).toMatchObject({ query: 'ann', limit: '3', page: '1' });
    // Opening the page records nothing: only Enter or a tab click does.
    expect(await loadHistory('u1')).toEqual([]);
  });

  it('a tab click lists that kind page by page and records the query in the history', async () => {
    searchServer();
    const { router } = renderWithApp(<SearchPage />, { route: '/search?q=ann', path: '/search' });
    await screen.findByText('a post about ann');
    fireEvent.click(screen.getByRole('button', { name: 'Users' }));
    await waitFor(() => expect(router.state.location.search).toBe('?q=ann&s=users'));
    const list = await screen.findByRole('region', { name: 'Users' });
    await waitFor(() => expect(within(list).getAllByRole('link')).toHaveLength(5));
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(within(list).getAllByRole('link')).toHaveLength(7));
    await waitFor(async () => expect(await loadHistory('u1')).toEqual([{ type: 'text', text: 'ann' }]));

    fireEvent.click(screen.getByRole('button', { name: 'Replies' }));
    await waitFor(() => expect(router.state.location.search).toBe('?q=ann&s=replies'));
    expect(await screen.findByText('a reply for ann')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Show in the thread' })).toHaveAttribute('href', '/p/p1?c=c1');
  });

  it('records a user or a group opened from the results as that user or group, newest first', async () => {
    searchServer();
    const first = renderWithApp(<SearchPage />, { route: '/search?q=ann', path: '/search' });
    const users = await screen.findByRole('region', { name: 'Users' });
    fireEvent.click(await within(users).findByRole('link', { name: /ann2/ }));
    await waitFor(async () => expect(await loadHistory('u1')).toEqual([{ type: 'user', id: 'u2', name: 'ann2', avatar: '/media/pfp/u2-v1.jpeg' }]));
    // The link led away from the search page: back to it for the group.
    first.unmount();
    renderWithApp(<SearchPage />, { route: '/search?q=ann&s=groups', path: '/search' });
    const groups = await screen.findByRole('region', { name: 'Groups' });
    fireEvent.click(await within(groups).findByRole('link', { name: /&annies3/ }));
    await waitFor(async () =>
      expect(await loadHistory('u1')).toEqual([
        { type: 'group', id: 'g3', name: 'annies3', avatar: '/media/gp/g3-v1.jpeg' },
        { type: 'user', id: 'u2', name: 'ann2', avatar: '/media/pfp/u2-v1.jpeg' },
      ]),
    );
  });

  it('offline, the all view says users and groups never stored here are not on this device, not that none were found', async () => {
    setOnline(false);
    mockFetch(() => new TypeError('Failed to fetch'));
    renderWithApp(<SearchPage />, { route: '/search?q=ann', path: '/search' });
    for (const name of ['Users', 'Groups']) {
      const region = await screen.findByRole('region', { name });
      expect(await within(region).findByText('You are offline, and this is not saved on this device.')).toBeInTheDocument();
    }
    expect(screen.queryByText('No users found.')).not.toBeInTheDocument();
    expect(screen.queryByText('No groups found.')).not.toBeInTheDocument();
  });

  it('show more switches to the tab', async () => {
    searchServer();
    const { router } = renderWithApp(<SearchPage />, { route: '/search?q=ann', path: '/search' });
    fireEvent.click(await screen.findByRole('button', { name: 'Show more groups' }));
    await waitFor(() => expect(router.state.location.search).toBe('?q=ann&s=groups'));
    const list = await screen.findByRole('region', { name: 'Groups' });
    await waitFor(() => expect(within(list).getAllByRole('link')).toHaveLength(4));
  });

  it('Enter in the search input searches and records the text', async () => {
    const { calls } = searchServer();
    const { router } = renderWithApp(<SearchPage />, { route: '/search?s=posts', path: '/search' });
    expect(screen.getByText('Type what you are looking for and press Enter.')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
    const input = screen.getByRole('searchbox', { name: 'Search for users, groups, posts and replies' });
    fireEvent.change(input, { target: { value: ' ann ' } });
    fireEvent.submit(input.closest('form')!);
    await waitFor(() => expect(router.state.location.search).toBe('?q=ann&s=posts'));
    expect(await screen.findByText('a post about ann')).toBeInTheDocument();
    await waitFor(async () => expect(await loadHistory('u1')).toEqual([{ type: 'text', text: 'ann' }]));
  });

  it('sort and time follow the listing rules in the address', async () => {
    searchServer();
    const { router } = renderWithApp(<SearchPage />, { route: '/search?q=ann&s=posts', path: '/search' });
    await screen.findByText('a post about ann');
    fireEvent.change(screen.getByRole('combobox', { name: 'Sort' }), { target: { value: 'popular' } });
    await waitFor(() => expect(router.state.location.search).toBe('?q=ann&s=posts&sort=popular'));
    fireEvent.change(screen.getByRole('combobox', { name: 'Time' }), { target: { value: 'all' } });
    await waitFor(() => expect(router.state.location.search).toBe('?q=ann&s=posts&sort=popular&time=all'));
  });
});
