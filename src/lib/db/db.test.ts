import '../../test/setup';
import Dexie from 'dexie';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MEDIA_CACHE } from '../media-cache';
import { FakeCacheStorage } from '../../test/fake-caches';
import { apiPost, useCloneableBlobs } from '../../test/local-first';
import { storeSession } from '../session';
import { SCHEMA_VERSIONS, dbNameFor, getDb, logoutAndClear, openDb, pendingOutboxCount } from './db';

beforeEach(() => {
  useCloneableBlobs();
});

describe('per-account database', () => {
  it('gives each account its own database and deletes only the current one on logout', async () => {
    storeSession('t1', 'alice', 'u1');
    const alice = getDb();
    expect(alice.name).toBe('kruh-u1');
    await alice.posts.put({ ...apiPost('pa'), cachedAt: 1 });
    await alice.outbox.add({
      kind: 'like', target: 'post:pa', payload: { target: 'post', id: 'pa', liked: true, from: false }, images: [],
      idempotencyKey: 'k', status: 'pending', attempts: 0, nextAttemptAt: 0, createdAt: 1, clientId: 'c',
    });
    expect(await pendingOutboxCount()).toBe(1);

    storeSession('t2', 'bob', 'u2');
    const bob = getDb();
    expect(bob.name).toBe('kruh-u2');
    expect(await bob.posts.count()).toBe(0);
    await bob.posts.put({ ...apiPost('pb'), cachedAt: 1 });

    storeSession('t1', 'alice', 'u1');
    expect(await getDb().posts.get('pa')).toBeTruthy();
    await logoutAndClear();
    expect(localStorage.getItem('token')).toBeNull();
    expect(await Dexie.exists('kruh-u1')).toBe(false);
    expect(await Dexie.exists('kruh-u2')).toBe(true);
    expect(getDb().name).toBe('kruh-visitor');

    storeSession('t2', 'bob', 'u2');
    expect(await getDb().posts.get('pb')).toBeTruthy();
    expect(await getDb().posts.get('pa')).toBeUndefined();
  });

  it('drops private-group images from the media cache on logout and keeps public ones', async () => {
    const storage = new FakeCacheStorage();
    const cache = await storage.open(MEDIA_CACHE);
    const image = (cacheControl: string) => new Response('img', { headers: { 'Cache-Control': cacheControl } });
    await cache.put('/media/aaaaaaaaaaaaaaaaaaaaaaaa0.webp', image('private, max-age=3600'));
    await cache.put('/media/bbbbbbbbbbbbbbbbbbbbbbbb0.webp', image('public, max-age=31536000, immutable'));
    vi.stubGlobal('caches', storage.asCacheStorage());
    try {
      storeSession('t1', 'alice', 'u1');
      await logoutAndClear();
      expect(storage.urls(MEDIA_CACHE)).toEqual([new URL('/media/bbbbbbbbbbbbbbbbbbbbbbbb0.webp', location.href).href]);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('names the visitor database', () => {
    expect(dbNameFor(null)).toBe('kruh-visitor');
    expect(dbNameFor('abc')).toBe('kruh-abc');
  });
});

describe('schema upgrades', () => {
  it('keeps cached posts, drafts and the outbox when a new version is added', async () => {
    const name = 'kruh-upgrade-test';
    const latest = SCHEMA_VERSIONS[SCHEMA_VERSIONS.length - 1]!.version;
    const v1 = openDb(name);
    await v1.posts.put({ ...apiPost('p1', { author: { username: 'carol', pfp: 'u3' } }), cachedAt: 1 });
    await v1.drafts.put({ key: 'post', text: 'unsent words', mentions: [], groups: [], images: [{ blob: new Blob(['img']), name: 'a.png' }], updatedAt: 1 });
    await v1.outbox.add({
      kind: 'post', payload: { text: 'queued', mentions: [], groups: [], replyingTo: null }, images: [],
      idempotencyKey: 'k1', status: 'pending', attempts: 0, nextAttemptAt: 0, createdAt: 1, clientId: 'c1',
    });
    expect(v1.verno).toBe(latest);
    v1.close();

    const v2 = openDb(name, [
      ...SCHEMA_VERSIONS,
      {
        version: latest + 1,
        stores: { posts: '_id, createdAt, cachedAt, author.username' },
        upgrade: async (tx) => {
          await tx.table('posts').toCollection().modify((p: { upgraded?: boolean }) => {
            p.upgraded = true;
          });
        },
      },
    ]);
    await v2.open();
    expect(v2.verno).toBe(latest + 1);
    expect(await v2.posts.where('author.username').equals('carol').first()).toMatchObject({ _id: 'p1', upgraded: true });
    const draft = await v2.drafts.get('post');
    expect(draft?.text).toBe('unsent words');
    expect(await draft!.images[0]!.blob.text()).toBe('img');
    expect((await v2.outbox.toArray()).map((r) => r.idempotencyKey)).toEqual(['k1']);
    v2.close();
    await Dexie.delete(name);
  });

  it('opens a database from the first release with the lists table added and the cache kept', async () => {
    const name = 'kruh-upgrade-lists-test';
    const first = openDb(name, SCHEMA_VERSIONS.slice(0, 1));
    await first.posts.put({ ...apiPost('p1'), cachedAt: 1 });
    await first.feedPages.put({ feedKey: 'explore|sort=newest|time=all', page: 1, ids: ['p1'], hasMore: false, fetchedAt: 1 });
    first.close();

    const now = openDb(name);
    await now.open();
    expect(await now.posts.get('p1')).toMatchObject({ _id: 'p1' });
    expect((await now.feedPages.get(['explore|sort=newest|time=all', 1]))?.ids).toEqual(['p1']);
    await now.listItems.put({ listKey: 'list:["profile-users","bob","followers"]', id: 'u2', data: { username: 'carol' }, cachedAt: 1 });
    expect(await now.listItems.where('listKey').equals('list:["profile-users","bob","followers"]').count()).toBe(1);
    now.close();
    await Dexie.delete(name);
  });

  it('drops the single-row lists an earlier release kept in meta and keeps the rest of meta', async () => {
    const name = 'kruh-upgrade-meta-test';
    const second = openDb(name, SCHEMA_VERSIONS.slice(0, 2));
    await second.meta.bulkPut([
      { key: 'moderation:reports:all', value: { items: [], hasMore: false } },
      { key: 'groups-of:alice', value: [] },
      { key: 'unread', value: 3 },
    ]);
    second.close();

    const now = openDb(name);
    await now.open();
    expect((await now.meta.toArray()).map((row) => row.key)).toEqual(['unread']);
    now.close();
    await Dexie.delete(name);
  });
});
