import '../../test/setup';
import Dexie from 'dexie';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiComment, apiPost } from '../../test/local-first';
import { storeSession } from '../session';
import { type KruhDb, getDb, openDb } from './db';
import { CACHE_LIMITS, type CacheLimits, isQuotaError, pruneCache, startCacheUpkeep, withRoom } from './prune';

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.UTC(2026, 10, 24);
const limits = (over: Partial<CacheLimits> = {}): CacheLimits => ({ ...CACHE_LIMITS, ...over });

let db: KruhDb;
beforeEach(() => {
  db = openDb(`prune-${Math.random()}`);
});
afterEach(async () => {
  db.close();
  await Dexie.delete(db.name);
});

const post = (id: string, daysAgo: number) => db.posts.put({ ...apiPost(id), cachedAt: NOW - daysAgo * DAY });
const page = (feedKey: string, pageNo: number, ids: string[], daysAgo: number) =>
  db.feedPages.put({ feedKey, page: pageNo, ids, hasMore: true, fetchedAt: NOW - daysAgo * DAY });
const ids = async (table: 'posts' | 'comments') => (await db[table].toCollection().primaryKeys()).sort();

const quota = () => Object.assign(new Error('full'), { name: 'QuotaExceededError' });

describe('pruneCache', () => {
  it('drops posts older than the age limit that no stored page shows, and keeps what pages show', async () => {
    await post('old-shown', 40);
    await post('old-alone', 40);
    await post('new-alone', 2);
    await page('feed:explore', 1, ['old-shown'], 1);
    const result = await pruneCache(db, limits(), NOW);
    expect(await ids('posts')).toEqual(['new-alone', 'old-shown']);
    expect(result.posts).toBe(1);
  });

  it('drops whole lists, least recently fetched first, with their list items', async () => {
    await page('feed:a', 1, ['p1'], 3);
    await page('feed:a', 2, ['p2'], 1);
    await page('feed:b', 1, ['p3'], 2);
    await page('followers:x', 1, ['u9'], 5);
    await db.listItems.put({ listKey: 'followers:x', id: 'u9', data: {}, cachedAt: NOW });
    const result = await pruneCache(db, limits({ maxLists: 2 }), NOW);
    // feed:a was last fetched a day ago (its page 2), so it stays whole; followers:x is the oldest.
    expect((await db.feedPages.toArray()).map((p) => `${p.feedKey}#${p.page}`).sort()).toEqual(['feed:a#1', 'feed:a#2', 'feed:b#1']);
    expect(await db.listItems.count()).toBe(0);
    expect(result.lists).toBe(1);
  });

  it('drops lists older than the age limit even under the count', async () => {
    await page('feed:old', 1, ['p1'], 31);
    await pruneCache(db, limits(), NOW);
    expect(await db.feedPages.count()).toBe(0);
  });

  it('keeps the newest unlisted posts up to the count, whatever their age', async () => {
    for (let i = 0; i < 5; i++) await post(`p${i}`, i);
    await page('feed:x', 1, ['p4'], 0);
    // p4 is shown by a page and does not count against the room left for the others.
    await pruneCache(db, limits({ maxPosts: 3 }), NOW);
    expect(await ids('posts')).toEqual(['p0', 'p1', 'p4']);
  });

  it('never drops what the outbox still points at', async () => {
    await post('liked', 90);
    await post('replied', 90);
    await post('thread', 90);
    await db.comments.put({ ...apiComment('c-parent', 'thread'), cachedAt: NOW - 90 * DAY });
    const pending = { idempotencyKey: 'k', status: 'pending' as const, attempts: 0, nextAttemptAt: 0, createdAt: NOW, clientId: 'c', images: [] };
    await db.outbox.bulkAdd([
      { ...pending, kind: 'like', target: 'post:liked', payload: { target: 'post', id: 'liked', liked: true, from: false } },
      { ...pending, kind: 'post', payload: { text: 't', mentions: [], groups: [], replyingTo: 'replied' } },
      { ...pending, kind: 'comment', payload: { text: 't', parent: 'c-parent', postId: 'thread', mentions: [] } },
    ]);
    await pruneCache(db, limits({ maxPosts: 0, maxComments: 0 }), NOW);
    expect(await ids('posts')).toEqual(['liked', 'replied', 'thread']);
    expect(await ids('comments')).toEqual(['c-parent']);
    expect(await db.outbox.count()).toBe(3);
  });

  it('drops old comments, profiles, groups and notifications, and keeps drafts', async () => {
    await db.comments.put({ ...apiComment('c-old', 'p'), cachedAt: NOW - 40 * DAY });
    await db.comments.put({ ...apiComment('c-new', 'p'), cachedAt: NOW });
    await db.profiles.put({ username: 'old', data: {}, cachedAt: NOW - 40 * DAY });
    await db.profiles.put({ username: 'new', data: {}, cachedAt: NOW });
    await db.groups.put({ name: 'old', data: {}, cachedAt: NOW - 40 * DAY });
    await db.notifications.put({ _id: 'n-old', data: {}, cachedAt: NOW - 40 * DAY });
    await db.drafts.put({ key: 'post', text: 'keep me', mentions: [], groups: [], images: [], updatedAt: NOW - 400 * DAY });
    const result = await pruneCache(db, limits(), NOW);
    expect(await ids('comments')).toEqual(['c-new']);
    expect(await db.profiles.toCollection().primaryKeys()).toEqual(['new']);
    expect(await db.groups.count()).toBe(0);
    expect(await db.notifications.count()).toBe(0);
    expect(await db.drafts.get('post')).toMatchObject({ text: 'keep me' });
    expect(result).toEqual({ lists: 0, posts: 0, comments: 1, others: 3 });
  });
});

describe('withRoom', () => {
  it('recognises a quota error also when Dexie wraps it', () => {
    expect(isQuotaError(quota())).toBe(true);
    expect(isQuotaError({ name: 'AbortError', inner: quota() })).toBe(true);
    expect(isQuotaError(new Error('other'))).toBe(false);
    expect(isQuotaError(undefined)).toBe(false);
  });

  it('makes room in the cache and writes again when storage is full', async () => {
    await post('stale', 2);
    let tries = 0;
    const written = await withRoom(db, async () => {
      tries += 1;
      if (tries === 1) throw quota();
      return db.outbox.add({
        kind: 'like', target: 'post:x', payload: { target: 'post', id: 'x', liked: true, from: false }, images: [],
        idempotencyKey: 'k', status: 'pending', attempts: 0, nextAttemptAt: 0, createdAt: NOW, clientId: 'c',
      });
    });
    expect(tries).toBe(2);
    expect(await db.outbox.get(written)).toBeDefined();
    // The tight limits keep nothing older than a day.
    expect(await db.posts.count()).toBe(0);
  });

  it('passes other errors and a second quota error to the caller', async () => {
    await expect(withRoom(db, async () => Promise.reject(new Error('broken')))).rejects.toThrow('broken');
    let tries = 0;
    await expect(withRoom(db, async () => { tries += 1; throw quota(); })).rejects.toMatchObject({ name: 'QuotaExceededError' });
    expect(tries).toBe(2);
  });
});

describe('startCacheUpkeep', () => {
  it("prunes the current account's cache after the delay, and again after a change of account", async () => {
    storeSession('t1', 'alice', 'upkeep-a');
    await getDb().posts.put({ ...apiPost('stale-a'), cachedAt: Date.now() - 60 * DAY });
    const stop = startCacheUpkeep(20);
    try {
      expect(await getDb().posts.count()).toBe(1);
      await vi.waitFor(async () => expect(await getDb().posts.count()).toBe(0));
      storeSession('t2', 'bob', 'upkeep-b');
      await getDb().posts.put({ ...apiPost('stale-b'), cachedAt: Date.now() - 60 * DAY });
      await vi.waitFor(async () => expect(await getDb().posts.count()).toBe(0));
    } finally {
      stop();
    }
  });

  it('does nothing once stopped', async () => {
    storeSession('t1', 'alice', 'upkeep-c');
    await getDb().posts.put({ ...apiPost('stale-c'), cachedAt: Date.now() - 60 * DAY });
    startCacheUpkeep(10)();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await getDb().posts.count()).toBe(1);
  });
});
