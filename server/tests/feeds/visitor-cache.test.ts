import { describe, expect, it } from 'vitest';
import { CACHE_HEADER, VISITOR_CACHE_ENTRIES } from '../../src/plugins/visitor-cache';
import { call, createGroup, createPost, type TestUser, useUsers } from '../helpers/fixtures';
import { buildApp } from '../../src/app';
import { TEST_DB, createTestApp, useTestApp } from '../helpers/test-app';

type Feed = { posts: { _id: string; text: string; likes: number }[] };

/**
 * A signed-out reader's public listing is kept in memory and served again until anything is
 * written: the kept answer is the one a fresh read gives, every write through the API forgets it,
 * a signed-in reader never gets it, and it expires on its own.
 */
describe('kept visitor pages', () => {
  let statements = 0;
  const t = useTestApp({}, { onQuery: () => (statements += 1) });
  const { alice, bob } = useUsers(t, 'alice', 'bob');

  async function read(user: TestUser | null, url = '/api/feed?sort=newest') {
    statements = 0;
    const res = await call(t.app, user, { method: 'GET', url });
    expect(res.statusCode, res.body).toBe(200);
    return { body: res.json() as Feed, cache: res.headers[CACHE_HEADER], statements, headers: res.headers };
  }

  it('serves a second visitor the first answer without reading the database, with the same body and headers', async () => {
    await createPost(t.app, alice, { text: 'kept for visitors' });
    t.app.invalidateVisitorCache();
    const first = await read(null);
    expect(first.cache).toBe('miss');
    expect(first.statements).toBeGreaterThan(0);
    const second = await read(null);
    expect(second.cache).toBe('hit');
    expect(second.statements).toBe(0);
    expect(second.body).toEqual(first.body);
    for (const name of ['content-type', 'cache-control', 'content-security-policy', 'x-content-type-options']) {
      expect(second.headers[name], name).toBe(first.headers[name]);
    }
  });

  it('keeps each URL apart, hashtags included', async () => {
    const created = await call(t.app, alice, { method: 'POST', url: '/api/post', payload: { text: 'a #kingfisher at the pond' } });
    expect(created.statusCode, created.body).toBe(201);
    const newest = await read(null, '/api/feed?sort=newest');
    const tag = await read(null, '/api/feed/hash/kingfisher');
    expect(tag.cache).toBe('miss');
    expect(tag.body.posts.map((p) => p.text)).toEqual(['a #kingfisher at the pond']);
    expect((await read(null, '/api/feed/hash/kingfisher')).cache).toBe('hit');
    expect((await read(null, '/api/feed?sort=newest')).body).toEqual(newest.body);
  });

  it('forgets every kept page when anything is written through the API, refused writes included', async () => {
    const post = await createPost(t.app, alice, { text: 'about to be liked' });
    t.app.invalidateVisitorCache();
    await read(null);
    expect((await read(null)).cache).toBe('hit');

    const like = await call(t.app, bob, { method: 'PATCH', url: `/api/post/${post.id}/like`, payload: {} });
    expect(like.statusCode, like.body).toBe(200);
    const after = await read(null);
    expect(after.cache).toBe('miss');
    expect(after.body.posts.find((p) => p._id === post.id)?.likes).toBe(1);

    expect((await read(null)).cache).toBe('hit');
    const refused = await call(t.app, bob, { method: 'PATCH', url: `/api/post/${'0'.repeat(24)}/like`, payload: {} });
    expect(refused.statusCode).toBe(404);
    expect((await read(null)).cache).toBe('miss');
  });

  it('shows a new post and hides a deleted one at once', async () => {
    t.app.invalidateVisitorCache();
    await read(null);
    const created = await call(t.app, alice, { method: 'POST', url: '/api/post', payload: { text: 'fresh from the API' } });
    expect(created.statusCode, created.body).toBe(201);
    const id = (created.json() as { _id: string })._id;
    const shown = await read(null);
    expect(shown.body.posts[0]?._id).toBe(id);
    await read(null);
    const removed = await call(t.app, alice, { method: 'DELETE', url: `/api/post/${id}` });
    expect(removed.statusCode, removed.body).toBeLessThan(300);
    expect((await read(null)).body.posts.map((p) => p._id)).not.toContain(id);
  });

  it('never serves a kept page to a signed-in reader, whose page differs', async () => {
    const secret = await createGroup(t.app, alice, { isPrivate: true });
    await createPost(t.app, alice, { text: 'members only', groupIds: [secret.id] });
    t.app.invalidateVisitorCache();
    const visitor = await read(null);
    expect(visitor.body.posts.map((p) => p.text)).not.toContain('members only');
    const member = await read(alice);
    expect(member.cache).toBeUndefined();
    expect(member.statements).toBeGreaterThan(0);
    expect(member.body.posts.map((p) => p.text)).toContain('members only');
    // And the member's page was not kept for visitors either.
    expect((await read(null)).body).toEqual(visitor.body);
  });

  it('does not keep a refused read, and keeps a bounded number of pages', async () => {
    t.app.invalidateVisitorCache();
    const bad = await call(t.app, null, { method: 'GET', url: '/api/feed?sort=sideways' });
    expect(bad.statusCode).toBe(400);
    expect((await call(t.app, null, { method: 'GET', url: '/api/feed?sort=sideways' })).statusCode).toBe(400);
    for (let page = 1; page <= VISITOR_CACHE_ENTRIES + 1; page++) await call(t.app, null, { method: 'GET', url: `/api/feed?sort=newest&page=${page}` });
    // The oldest page made room for the newest.
    expect((await read(null, '/api/feed?sort=newest&page=1')).cache).toBe('miss');
    expect((await read(null, `/api/feed?sort=newest&page=${VISITOR_CACHE_ENTRIES + 1}`)).cache).toBe('hit');
  }, 60_000);

  it('expires a kept page after VISITOR_CACHE_MS, and keeps nothing with 0', async () => {
    const short = await createTestApp({ VISITOR_CACHE_MS: '50' });
    const off = await createTestApp({ VISITOR_CACHE_MS: '0' });
    try {
      const get = async (app: typeof short.app) => (await app.inject({ method: 'GET', url: '/api/feed' })).headers[CACHE_HEADER];
      expect(await get(short.app)).toBe('miss');
      expect(await get(short.app)).toBe('hit');
      await new Promise((resolve) => setTimeout(resolve, 80));
      expect(await get(short.app)).toBe('miss');
      expect(await get(off.app)).toBeUndefined();
      expect(await get(off.app)).toBeUndefined();
    } finally {
      await short.close();
      await off.close();
    }
  });

  it.runIf(TEST_DB === 'postgres')('is forgotten by another process on the same database when this one writes', async () => {
    // A second server process: its own memory, the same PostgreSQL.
    const other = await buildApp({ config: { ...t.config }, database: t.database, closeDatabase: false, logger: false });
    await other.ready();
    try {
      const post = await createPost(t.app, alice, { text: 'read by two processes' });
      t.app.invalidateVisitorCache();
      other.invalidateVisitorCache();
      const visit = async () => other.inject({ method: 'GET', url: '/api/feed?sort=newest' });
      await visit();
      expect((await visit()).headers[CACHE_HEADER]).toBe('hit');
      const like = await call(t.app, bob, { method: 'PATCH', url: `/api/post/${post.id}/like`, payload: {} });
      expect(like.statusCode, like.body).toBe(200);
      // The NOTIFY arrives on the other process's own connection shortly after the write.
      await expect.poll(async () => (await visit()).headers[CACHE_HEADER], { timeout: 5_000 }).toBe('miss');
      const seen = (await visit()).json() as Feed;
      expect(seen.posts.find((p) => p._id === post.id)?.likes).toBe(1);
    } finally {
      await other.close();
    }
  });
});
