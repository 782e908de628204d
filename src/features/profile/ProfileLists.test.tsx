import { act, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { clearLocalData, getDb } from '../../lib/db/db';
import { listKeys, queryKeys } from '../../lib/query/keys';
import { storeSession } from '../../lib/session';
import { type FetchCall, apiProfile, mockFetch, setOnline } from '../../test/local-first';
import { renderWithApp } from '../../test/render';
import ProfilePage from './ProfilePage';

const BOB_ID = 'b'.repeat(24);
const ALICE = { token: 'token-alice', username: 'alice', id: 'a'.repeat(24) };
const DAVE = { token: 'token-dave', username: 'dave', id: 'd'.repeat(24) };

const profile = apiProfile(BOB_ID, 'bob', { followers: 1 });

const follower = (username: string) => ({ _id: username.padEnd(24, '0'), pfp: username.padEnd(24, '0'), username, follows: false, notify: false });

const login = (who: typeof ALICE) => storeSession(who.token, who.username, who.id);
const renderFollowers = () => renderWithApp(<ProfilePage />, { route: '/u/bob/followers', path: '/u/:username/:show?' });

beforeEach(async () => {
  setOnline(true);
  for (const who of [ALICE, DAVE]) {
    login(who);
    await clearLocalData();
  }
});

describe('profile lists across accounts and offline', () => {
  it('never shows one account the list another account cached', async () => {
    let releaseDave!: () => void;
    const daveMayAnswer = new Promise<void>((resolve) => (releaseDave = resolve));
    mockFetch(async (call: FetchCall) => {
      if (call.path === '/api/profile/user/bob') return { body: { user: profile } };
      if (call.path === '/api/profile/user/bob/followers') {
        if (call.headers.Authorization === `Bearer ${ALICE.token}`) return { body: { userList: [follower('carol')], logged: true, hasMore: false } };
        await daveMayAnswer;
        return { body: { userList: [follower('erin')], logged: true, hasMore: false } };
      }
      return { status: 404, body: { message: 'error/server_error' } };
    });

    login(ALICE);
    const aliceDb = getDb().name;
    const { queryClient } = renderFollowers();
    expect(await screen.findByRole('link', { name: 'carol' })).toBeInTheDocument();

    act(() => login(DAVE));
    expect(getDb().name).not.toBe(aliceDb);
    // Alice's answer is still in the shared in-memory cache, under her database's key only.
    expect(queryClient.getQueryData([...queryKeys.list(aliceDb, listKeys.profileUsers('bob', 'followers')), 1])).toBeDefined();
    await screen.findByRole('heading', { name: 'bob' });
    expect(screen.queryByRole('link', { name: 'carol' })).toBeNull();

    releaseDave();
    expect(await screen.findByRole('link', { name: 'erin' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'carol' })).toBeNull();
  });

  it("lists a follower from another server by its name and server, leading to its profile here", async () => {
    login(ALICE);
    mockFetch((call) => {
      if (call.path === '/api/profile/user/bob') return { body: { user: profile } };
      if (call.path === '/api/profile/user/bob/followers') return { body: { userList: [follower('dan@other.example')], logged: true, hasMore: false } };
      return { status: 404, body: { message: 'error/server_error' } };
    });
    renderFollowers();
    const row = await screen.findByRole('link', { name: 'dan on other.example' });
    expect(row).toHaveAttribute('href', `/u/${encodeURIComponent('dan@other.example')}`);
  });

  it('reads the followers offline after a reload', async () => {
    login(ALICE);
    mockFetch((call) => {
      if (call.path === '/api/profile/user/bob') return { body: { user: profile } };
      if (call.path === '/api/profile/user/bob/followers') return { body: { userList: [follower('carol')], logged: true, hasMore: false } };
      return { status: 404, body: { message: 'error/server_error' } };
    });
    const online = renderFollowers();
    expect(await screen.findByRole('link', { name: 'carol' })).toBeInTheDocument();
    online.unmount();

    // A reload: a new in-memory cache, and no answer from the network.
    setOnline(false);
    const { calls } = mockFetch(() => new TypeError('Failed to fetch'));
    renderFollowers();
    expect(await screen.findByRole('link', { name: 'carol' })).toHaveAttribute('href', '/u/carol');
    await waitFor(() => expect(calls.some((c) => c.path === '/api/profile/user/bob/followers')).toBe(true));
    expect(screen.getByRole('link', { name: 'carol' })).toBeInTheDocument();
  });

  it('says offline that a profile never seen, or a list of it never loaded, is not on this device', async () => {
    login(ALICE);
    setOnline(false);
    mockFetch(() => new TypeError('Failed to fetch'));
    const first = renderFollowers();
    expect(await screen.findByRole('heading', { name: 'You are offline, and this is not saved on this device.' })).toBeInTheDocument();
    first.unmount();

    await getDb().profiles.put({ username: 'bob', data: profile, cachedAt: Date.now() });
    renderFollowers();
    expect(await screen.findByText('You are offline, and this is not saved on this device.')).toBeInTheDocument();
    expect(screen.queryByText('No followers yet')).not.toBeInTheDocument();
  });
});
