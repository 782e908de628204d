import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { clearLocalData, getDb } from '../../lib/db/db';
import { storeSession } from '../../lib/session';
import { apiPost, apiProfile, mockFetch, setOnline } from '../../test/local-first';
import { expectLinks, renderWithApp } from '../../test/render';
import ProfilePage from './ProfilePage';

configure({ asyncUtilTimeout: 5000 });

const BOB_ID = 'b'.repeat(24);
const CREATED = Date.UTC(2026, 10, 5);

function profile(extra: Record<string, unknown> = {}) {
  return apiProfile(BOB_ID, 'bob', { bio: 'I like birds', createdAt: CREATED, followers: 3, following: 1, groups: 2, ...extra });
}

const params = (url: string) => Object.fromEntries(new URL(url, 'http://localhost').searchParams);

function renderProfile(route = '/u/bob', lng: 'en' | 'cs' = 'en') {
  return renderWithApp(<ProfilePage />, {
    route,
    path: '/u/:username/:show?',
    lng,
  });
}

beforeEach(async () => {
  setOnline(true);
  await clearLocalData();
});

describe('profile page', () => {
  it('between users a block stands between: the header stays, the follow button gives way to the note, the menu offers unblocking', async () => {
    // A reader of its own (its own local database), so the block it learns stays out of the other tests.
    storeSession('token-1', 'carol', 'c'.repeat(24));
    mockFetch((call) => {
      if (call.path === '/api/profile/user/bob') return { body: { user: profile() } };
      if (call.path === `/api/block/${BOB_ID}`) return { body: { blocking: true, blockedBy: false, muting: false } };
      return { body: { posts: [], hasMore: false } };
    });
    renderProfile();
    expect(await screen.findByRole('heading', { name: 'bob' })).toBeInTheDocument();
    expect(await screen.findByText('You have blocked @bob.')).toBeInTheDocument();
    // The follow state and the block state arrive by separate reads: the button goes once both are in.
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Follow' })).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'More about @bob' }));
    expect(screen.getByRole('menuitem', { name: 'Unblock @bob' })).toBeInTheDocument();
  });

  it('shows the profile fields, caches the profile and lists the posts', async () => {
    storeSession('token-1', 'alice', 'a'.repeat(24));
    const { calls } = mockFetch((call) => {
      if (call.path === '/api/profile/user/bob') return { body: { user: profile() } };
      if (call.path === '/api/profile/posts/bob') return { body: { posts: [apiPost('p'.repeat(24), { text: 'hello from bob' })], hasMore: false } };
      return { status: 404, body: { message: 'error/server_error' } };
    });
    renderProfile();
    expect(await screen.findByRole('heading', { name: 'bob' })).toBeInTheDocument();
    expect(screen.getByText('I like birds')).toBeInTheDocument();
    expect(screen.getByText('Member since November 2026')).toBeInTheDocument();
    expectLinks({ '3 followers': '/u/bob/followers', '1 following': '/u/bob/following', '2 groups': '/u/bob/groups' });
    expect(await screen.findByText('hello from bob')).toBeInTheDocument();
    const posts = calls.find((c) => c.path === '/api/profile/posts/bob')!;
    // The default listing (newest) sends neither sort nor time: newest without time is all time.
    expect(params(posts.url)).toEqual({ page: '1', limit: '4' });
    expect((await getDb().profiles.get('bob'))?.data).toMatchObject({ username: 'bob', followers: 3 });
    expect(screen.getByRole('link', { name: 'Replies' })).toHaveAttribute('href', '/u/bob/replies');
  });

  it("shows a remote person's full name, server, bio, follow button, original and posts, and keeps them on the device", async () => {
    storeSession('token-1', 'alice', 'a'.repeat(24));
    const name = 'bob@other.example';
    const remote = { host: 'other.example', url: 'https://other.example/@bob' };
    const path = encodeURIComponent(name);
    mockFetch((call) => {
      if (call.path === `/api/profile/user/${path}`) return { body: { user: apiProfile(BOB_ID, name, { bio: 'Far away', createdAt: CREATED, remote }) } };
      if (call.path === `/api/profile/posts/${path}`) {
        const post = apiPost('p'.repeat(24), { text: 'hello from afar', author: { username: name, pfp: BOB_ID }, remote: { host: 'other.example', url: 'https://other.example/@bob/1' } });
        return { body: { posts: [post], hasMore: false } };
      }
      return { status: 404, body: { message: 'error/server_error' } };
    });
    renderProfile(`/u/${path}`);
    const heading = await screen.findByRole('heading', { name });
    const title = heading.parentElement!;
    expect(within(title).getByText('on other.example')).toBeInTheDocument();
    expect(within(title).getByRole('link', { name: 'Open the original on other.example (in a new tab)' })).toHaveAttribute('href', remote.url);
    expect(screen.getByText('Far away')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Follow' })).toBeInTheDocument();
    expect(await screen.findByText('hello from afar')).toBeInTheDocument();
    expect((await getDb().profiles.get(name))?.data).toMatchObject({ username: name, remote });
  });

  it('shows the month in Czech, declined after "od"', async () => {
    mockFetch((call) => (call.path === '/api/profile/user/bob' ? { body: { user: profile({ logged: false }) } } : { body: { posts: [], hasMore: false } }));
    renderProfile('/u/bob', 'cs');
    expect(await screen.findByText('Členem od listopadu 2026')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Přihlaste se a sledujte' })).toHaveAttribute('href', '/login?next=%2Fu%2Fbob');
  });

  it('moves the follow control through follow, silent, notify and unfollow', async () => {
    storeSession('token-1', 'alice', 'a'.repeat(24));
    const { calls } = mockFetch((call) => {
      if (call.path === '/api/profile/user/bob') return { body: { user: profile() } };
      if (call.path === '/api/profile/posts/bob') return { body: { posts: [], hasMore: false } };
      if (call.path === '/api/follow') return { status: 201, body: { message: 'info/followed', follows: true, notify: false } };
      if (call.path === '/api/follow/change') return { body: { follows: true, notify: (call.body as { notify: boolean }).notify } };
      if (call.path === '/api/follow/delete') return { body: { message: 'info/unfollowed' } };
      return { status: 404, body: { message: 'error/server_error' } };
    });
    renderProfile();
    fireEvent.click(await screen.findByRole('button', { name: 'Follow' }));
    const menu = await screen.findByRole('button', { name: /Following · Silent/ });
    expect(calls.find((c) => c.path === '/api/follow')).toMatchObject({ method: 'POST', body: { following: BOB_ID } });
    expect(await screen.findByRole('link', { name: '4 followers' })).toBeInTheDocument();

    fireEvent.click(menu);
    // Each choice says what it means.
    expect(screen.getByRole('menuitemradio', { name: 'Silent' })).toHaveAccessibleDescription('Their posts show under Following, without notifications');
    expect(screen.getByRole('menuitemradio', { name: 'All' })).toHaveAccessibleDescription('Get a notification for each new post');
    fireEvent.click(screen.getByRole('menuitemradio', { name: 'All' }));
    await screen.findByRole('button', { name: /Following · All/ });
    expect(calls.filter((c) => c.path === '/api/follow/change').at(-1)).toMatchObject({ method: 'PATCH', body: { following: BOB_ID, notify: true } });

    fireEvent.click(screen.getByRole('button', { name: /Following · All/ }));
    fireEvent.click(screen.getByRole('menuitemradio', { name: 'Silent' }));
    await screen.findByRole('button', { name: /Following · Silent/ });
    expect(calls.filter((c) => c.path === '/api/follow/change').at(-1)).toMatchObject({ method: 'PATCH', body: { following: BOB_ID, notify: false } });

    fireEvent.click(screen.getByRole('button', { name: /Following · Silent/ }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Unfollow' }));
    expect(await screen.findByRole('button', { name: 'Follow' })).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/api/follow/delete')).toMatchObject({ method: 'DELETE', body: { following: BOB_ID } });
    expect(screen.getByRole('link', { name: '3 followers' })).toBeInTheDocument();
  });

  it('keeps the follow menu under the keyboard: focus on its first choice, End and round arrows, Escape back to its button', async () => {
    storeSession('token-1', 'alice', 'a'.repeat(24));
    mockFetch((call) => {
      if (call.path === '/api/profile/user/bob') return { body: { user: profile({ follows: true, notify: false }) } };
      if (call.path === '/api/profile/posts/bob') return { body: { posts: [], hasMore: false } };
      return { status: 404, body: { message: 'error/server_error' } };
    });
    renderProfile();
    const button = await screen.findByRole('button', { name: /Following · Silent/ });
    button.focus();
    fireEvent.click(button);
    await waitFor(() => expect(screen.getByRole('menuitemradio', { name: 'All' })).toHaveFocus());
    const press = (key: string) => fireEvent.keyDown(document.activeElement ?? document.body, { key });
    press('End');
    expect(screen.getByRole('menuitem', { name: 'Unfollow' })).toHaveFocus();
    press('ArrowDown');
    expect(screen.getByRole('menuitemradio', { name: 'All' })).toHaveFocus();
    press('Escape');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(button).toHaveFocus();
  });

  it('goes back when a follow call fails, only logging it', async () => {
    storeSession('token-1', 'alice', 'a'.repeat(24));
    mockFetch((call) => {
      if (call.path === '/api/profile/user/bob') return { body: { user: profile() } };
      if (call.path === '/api/follow') return { status: 400, body: { message: 'error/trying_to_follow' } };
      return { body: { posts: [], hasMore: false } };
    });
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => errors.push(args);
    try {
      renderProfile();
      fireEvent.click(await screen.findByRole('button', { name: 'Follow' }));
      await waitFor(() => expect(errors.length).toBeGreaterThan(0));
      // On a busy machine the control may still be settling when the error is logged.
      await waitFor(() => expect(screen.getByRole('button', { name: 'Follow' })).toBeEnabled());
    } finally {
      console.error = original;
    }
  });

  it('offers the owner an edit link instead of following', async () => {
    storeSession('token-1', 'bob', BOB_ID);
    mockFetch((call) => (call.path === '/api/profile/user/bob' ? { body: { user: profile({ itsme: true }) } } : { body: { posts: [], hasMore: false } }));
    renderProfile();
    expect(await screen.findByRole('link', { name: 'Edit profile' })).toHaveAttribute('href', '/account');
    expect(screen.queryByRole('button', { name: 'Follow' })).not.toBeInTheDocument();
  });

  it('says a deleted account was deleted without asking the server', async () => {
    const { calls } = mockFetch(() => ({ status: 404, body: { message: 'error/user_not_found' } }));
    renderProfile('/u/%3Cdeleted%3E');
    expect(await screen.findByText('This account was deleted')).toBeInTheDocument();
    expect(calls.filter((c) => c.path.startsWith('/api/profile/user'))).toHaveLength(0);
  });

  it('says when the user does not exist', async () => {
    mockFetch(() => ({ status: 404, body: { message: 'error/user_not_found' } }));
    renderProfile('/u/nobody');
    expect(await screen.findByRole('heading', { name: 'User not found.' })).toBeInTheDocument();
  });

  it('lists the groups page by page, each once, with create-group only for the owner', async () => {
    storeSession('token-1', 'bob', BOB_ID);
    const g = (n: number) => ({ _id: `g${n}`.padEnd(24, '0'), gp: `g${n}`.padEnd(24, '0'), name: `group${n}` });
    const { calls } = mockFetch((call) => {
      if (call.path === '/api/profile/user/bob') return { body: { user: profile({ itsme: true }) } };
      if (call.path === '/api/profile/user/bob/groups') {
        const page = params(call.url).page;
        return page === '1'
          ? { body: { groupList: [1, 2, 3, 4, 5].map(g), logged: true, hasMore: true } }
          : { body: { groupList: [g(5), g(6)], logged: true, hasMore: false } };
      }
      return { status: 404, body: { message: 'error/server_error' } };
    });
    renderProfile('/u/bob/groups');
    expect(await screen.findByRole('link', { name: 'group5' })).toHaveAttribute('href', '/g/group5');
    expect(screen.getByRole('link', { name: 'Create group' })).toHaveAttribute('href', '/create-group');
    expect(params(calls.find((c) => c.path === '/api/profile/user/bob/groups')!.url)).toMatchObject({ page: '1', limit: '5' });
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByRole('link', { name: 'group6' })).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'group5' })).toHaveLength(1);
  });

  it('hides create-group on somebody else\u2019s groups and lists followers by pfp', async () => {
    storeSession('token-1', 'alice', 'a'.repeat(24));
    mockFetch((call) => {
      if (call.path === '/api/profile/user/bob') return { body: { user: profile() } };
      if (call.path === '/api/profile/user/bob/groups') return { body: { groupList: [], logged: true, hasMore: false } };
      if (call.path === '/api/profile/user/bob/followers')
        return { body: { userList: [{ _id: 'c'.repeat(24), pfp: 'c'.repeat(24), username: 'carol', follows: false, notify: false }], logged: true, hasMore: false } };
      return { status: 404, body: { message: 'error/server_error' } };
    });
    const first = renderProfile('/u/bob/groups');
    expect(await screen.findByText('No groups yet')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Create group' })).not.toBeInTheDocument();
    first.unmount();
    renderProfile('/u/bob/followers');
    expect(await screen.findByRole('link', { name: 'carol' })).toHaveAttribute('href', '/u/carol');
  });

  it('lists the replies of the user by id, sending sort and time only where they differ from the defaults', async () => {
    const { calls } = mockFetch((call) => {
      if (call.path === '/api/profile/user/bob') return { body: { user: profile({ logged: false }) } };
      if (call.path === `/api/profile/comments/${BOB_ID}`)
        return {
          body: {
            comments: [{ _id: 'c'.repeat(24), postId: 'p'.repeat(24), text: 'nice one', createdAt: Date.now(), author: { username: 'bob', pfp: BOB_ID } }],
            hasMore: false,
          },
        };
      return { status: 404, body: { message: 'error/server_error' } };
    });
    const first = renderProfile('/u/bob/replies');
    expect(await screen.findByText('nice one')).toBeInTheDocument();
    const replies = () => calls.filter((c) => c.path === `/api/profile/comments/${BOB_ID}`).map((c) => new URL(c.url, 'http://localhost').searchParams);
    // The newest default: no time window, so older replies are not hidden.
    expect(replies()[0]!.has('time')).toBe(false);
    expect(replies()[0]!.has('sort')).toBe(false);
    first.unmount();
    renderProfile('/u/bob/replies?sort=popular&time=month');
    await waitFor(() => expect(replies().some((q) => q.get('sort') === 'popular' && q.get('time') === 'month')).toBe(true));
  });

  it('opens the avatar in the gallery', async () => {
    mockFetch((call) => (call.path === '/api/profile/user/bob' ? { body: { user: profile({ logged: false }) } } : { body: { posts: [], hasMore: false } }));
    renderProfile();
    fireEvent.click(await screen.findByRole('button', { name: 'Open the profile picture' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('group', { name: '1 of 1' })).toBeInTheDocument();
    expect(within(dialog).getByRole('img')).toHaveAttribute('src', `/media/pfp/${BOB_ID}.jpeg`);
  });

  it("offers reporting someone else's profile, queued with the user's id, and not one's own", async () => {
    storeSession('token-1', 'alice', 'a'.repeat(24));
    setOnline(false);
    mockFetch((call) => (call.path === '/api/profile/user/bob' ? { body: { user: profile() } } : { body: { posts: [], hasMore: false } }));
    const { unmount } = renderProfile();
    fireEvent.click(await screen.findByRole('button', { name: 'Report user' }));
    fireEvent.change(screen.getByLabelText('Why are you reporting it?'), { target: { value: 'a bot' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send report' }));
    await waitFor(async () => expect((await getDb().outbox.toArray()).map((r) => r.payload)).toEqual([{ kind: 'user', id: BOB_ID, reason: 'a bot' }]));
    unmount();
    mockFetch((call) => (call.path === '/api/profile/user/bob' ? { body: { user: profile({ itsme: true }) } } : { body: { posts: [], hasMore: false } }));
    renderProfile();
    expect(await screen.findByRole('heading', { name: 'bob' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Report user' })).toBeNull();
  });
});
