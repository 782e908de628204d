import '../../test/setup';
import { beforeEach, describe, expect, it } from 'vitest';
import { profilesApi } from '#core/api/profiles';
import { mockFetch, servePages, startOnline, useCloneableBlobs } from '../../test/local-first';
import { getDb } from '../db/db';
import { listKeys, storedListKey } from './keys';
import { type PagedSource, fetchPage, listItemStore, readPages } from './paged';

interface User {
  pfp: string;
  username: string;
}

const user = (n: number, username = `user${n}`): User => ({ pfp: String(n).padStart(24, '0'), username });

// Only the fields the test reads: the store takes the contract's user items and reads back these.
function followersOf(
  username: string,
  which: 'followers' | 'following' = 'followers',
): PagedSource<(typeof profilesApi)['followers' | 'following'], 'userList', User> {
  return {
    key: storedListKey(listKeys.profileUsers(username, which)),
    endpoint: profilesApi[which],
    params: { username },
    limit: 2,
    field: 'userList',
    store: listItemStore<User>((u) => u.pfp),
  };
}

beforeEach(async () => {
  useCloneableBlobs();
  await startOnline();
});

describe('the paging engine', () => {
  it('stores each page and its order, pins later pages to the first and keeps what else page 1 said', async () => {
    const { calls } = servePages('userList', { '1': [user(2), user(1)], '2': [user(1), user(3)] }, { logged: true });
    const db = getDb();
    const source = followersOf('bob');
    expect(await fetchPage(db, source, 1)).toEqual({ ids: [user(2).pfp, user(1).pfp], hasMore: true });
    await fetchPage(db, source, 2);

    const first = new URL(calls[0]!.url, 'http://x');
    expect(first.pathname).toBe('/api/profile/user/bob/followers');
    expect(Object.fromEntries(first.searchParams)).toEqual({ page: '1', limit: '2' });
    const second = new URL(calls[1]!.url, 'http://x');
    expect(Number(second.searchParams.get('before'))).toBe((await db.feedPages.get([source.key, 1]))!.fetchedAt);

    const stored = await readPages(db, source, 2);
    // Each user once, in the server's order, read back without the network.
    expect(stored.items.map((u) => u.username)).toEqual(['user2', 'user1', 'user3']);
    expect(stored).toMatchObject({ hasMore: false, stored: 2, reply: { logged: true } });
    expect(await db.listItems.where('listKey').equals(source.key).count()).toBe(3);
  });

  it('keeps a copy per list, so one list refreshed does not change another', async () => {
    let name = 'carol';
    mockFetch(() => ({ body: { userList: [user(7, name)], logged: true, hasMore: false } }));
    const db = getDb();
    await fetchPage(db, followersOf('bob'), 1);
    name = 'carol-renamed';
    await fetchPage(db, followersOf('bob', 'following'), 1);
    expect((await readPages(db, followersOf('bob'), 1)).items).toEqual([user(7, 'carol')]);
    expect((await readPages(db, followersOf('bob', 'following'), 1)).items).toEqual([user(7, 'carol-renamed')]);
  });

  it('reads nothing for a list never fetched, and says more may follow', async () => {
    const stored = await readPages(getDb(), followersOf('nobody'), 1);
    expect(stored).toEqual({ items: [], hasMore: true, stored: 0, fetchedAt: 0, reply: undefined });
  });
});
