import '../../test/setup';
import { beforeEach, describe, expect, it } from 'vitest';
import { gifsApi } from '#core/api/gifs';
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

  it('asks a list paged by cursor for each next page with the cursor the previous one gave', async () => {
    const gif = (id: string) => ({ id, url: `${id}.gif`, preview: `${id}-tiny.gif`, dims: [1, 1], tags: [] });
    const { calls } = mockFetch((call) => {
      const pos = new URL(call.url, 'http://x').searchParams.get('pos');
      return { body: pos === null ? { results: [gif('a'), gif('b')], next: 'CURSOR-2' } : { results: [gif('b'), gif('c')], next: '' } };
    });
    const db = getDb();
    const source: PagedSource<typeof gifsApi.search, 'results'> = {
      key: storedListKey(listKeys.gifResults('cats', 'en_US')),
      endpoint: gifsApi.search,
      query: { q: 'cats', locale: 'en_US' },
      cursor: { param: 'pos', next: (page) => page.next },
      field: 'results',
      store: listItemStore((g) => g.id),
    };
    expect(await fetchPage(db, source, 1)).toEqual({ ids: ['a', 'b'], hasMore: true });
    expect(await fetchPage(db, source, 2)).toEqual({ ids: ['b', 'c'], hasMore: false });

    // No page number, size or time: the cursor alone says where a page starts.
    const asked = calls.map((c) => Object.fromEntries(new URL(c.url, 'http://x').searchParams));
    expect(asked).toEqual([{ q: 'cats', locale: 'en_US' }, { q: 'cats', locale: 'en_US', pos: 'CURSOR-2' }]);
    const stored = await readPages(db, source, 2);
    expect(stored.items.map((g) => g.id)).toEqual(['a', 'b', 'c']);
    expect(stored.hasMore).toBe(false);
    // A page whose previous one is not stored has no cursor to be asked with.
    await expect(fetchPage(db, { ...source, key: 'list:other' }, 2)).rejects.toThrow(/no cursor/);
  });

  it('reads nothing for a list never fetched, and says more may follow', async () => {
    const stored = await readPages(getDb(), followersOf('nobody'), 1);
    expect(stored).toEqual({ items: [], hasMore: true, stored: 0, fetchedAt: 0, reply: undefined });
  });
});
