import type { RouteOptions } from 'fastify';
import pg from 'pg';
import { sql } from 'kysely';
import { describe, expect, it, vi } from 'vitest';
import { COUNTS_STALE_MS } from '../../src/config';
import { CACHE_HEADER, CONTENT_CHANNEL, VISITOR_CACHE_ENTRIES, signalKind } from '../../src/plugins/visitor-cache';
import { call, createGroup, createPost, createUser, type TestUser, useUsers } from '../helpers/fixtures';
import { buildApp } from '../../src/app';
import { TEST_DB, createTestApp, useTestApp } from '../helpers/test-app';

type Feed = { posts: { _id: string; text: string; likes: number; comments: number }[] };

/**
 * Runs `body` with Date stopped (timers still run), so a test moves the clock by hand to either
 * side of the counts deadline.
 */
async function withStoppedClock(body: (advance: (ms: number) => void) => Promise<void>): Promise<void> {
  vi.useFakeTimers({ toFake: ['Date'] });
  try {
    await body((ms) => vi.setSystemTime(Date.now() + ms));
  } finally {
    vi.useRealTimers();
  }
}

/**
 * A signed-out reader's public listing is kept in memory and served again until a write changes
 * it: the kept answer is the one a fresh read gives, a write that may change which posts a visitor
 * sees or their text forgets it at once, a like or a comment within VISITOR_CACHE_COUNTS_MS, a
 * signed-in reader never gets it, and it expires on its own.
 */
describe('kept visitor pages', () => {
  let statements = 0;
  const declared: string[] = [];
  const t = useTestApp({}, {
    onQuery: () => (statements += 1),
    onRoute(route: RouteOptions) {
      const kind = route.config?.visitorCacheWrite;
      if (kind) for (const method of ([] as string[]).concat(route.method)) declared.push(`${method} ${route.url} ${kind}`);
    },
  });
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

  /** A like: a write that leaves a pending counts deadline behind. */
  async function like(postId: string) {
    const res = await call(t.app, bob, { method: 'PATCH', url: `/api/post/${postId}/like`, payload: {} });
    expect(res.statusCode, res.body).toBe(200);
  }

  it('keeps serving the page for VISITOR_CACHE_COUNTS_MS after a like, an unlike, a comment or a comment like, then shows the new counts', async () => {
    const bound = t.config.visitorCacheCountsMs;
    expect(bound).toBe(COUNTS_STALE_MS);
    const post = await createPost(t.app, alice, { text: 'counted for visitors' });
    const comment = await call(t.app, alice, { method: 'POST', url: '/api/comment/', payload: { text: 'first word', parent: post.id } });
    expect(comment.statusCode, comment.body).toBe(201);
    const commentId = (comment.json() as { _id: string })._id;
    t.app.invalidateVisitorCache();
    const writes = [
      { name: 'like', method: 'PATCH', url: `/api/post/${post.id}/like`, payload: {}, shows: { likes: 1, comments: 1 } },
      { name: 'comment', method: 'POST', url: '/api/comment/', payload: { text: 'second word', parent: post.id }, shows: { likes: 1, comments: 2 } },
      { name: 'unlike', method: 'PATCH', url: `/api/post/${post.id}/like`, payload: { liked: false }, shows: { likes: 0, comments: 2 } },
      { name: 'comment like', method: 'PATCH', url: `/api/comment/${commentId}/like`, payload: {}, shows: { likes: 0, comments: 2 } },
    ] as const;
    await withStoppedClock(async (advance) => {
      let kept = await read(null);
      expect(kept.cache).toBe('miss');
      for (const write of writes) {
        const res = await call(t.app, bob, { method: write.method, url: write.url, payload: write.payload });
        expect(res.statusCode, `${write.name}: ${res.body}`).toBeLessThan(300);
        advance(bound - 1);
        const during = await read(null);
        expect(during.cache, write.name).toBe('hit');
        expect(during.body, write.name).toEqual(kept.body);
        advance(1);
        const after = await read(null);
        expect(after.cache, write.name).toBe('miss');
        const shown = after.body.posts.find((p) => p._id === post.id);
        expect({ likes: shown?.likes, comments: shown?.comments }, write.name).toEqual(write.shows);
        kept = await read(null);
        expect(kept.cache, write.name).toBe('hit');
      }
      // A later count within the bound does not put the deadline off: a page lags at most the bound.
      await like(post.id);
      advance(bound - 1);
      const comment = await call(t.app, bob, { method: 'POST', url: '/api/comment/', payload: { text: 'third word', parent: post.id } });
      expect(comment.statusCode, comment.body).toBe(201);
      expect((await read(null)).cache).toBe('hit');
      advance(1);
      const both = await read(null);
      expect(both.cache).toBe('miss');
      expect(both.body.posts.find((p) => p._id === post.id)).toMatchObject({ likes: 1, comments: 3 });
      // With the pages forgotten, the deadline went with them: no write, no miss.
      advance(bound);
      expect((await read(null)).cache).toBe('hit');
    });
  });

  it('forgets every kept page at once on a write that may change what a visitor sees, refused ones and a pending count included', async () => {
    const post = await createPost(t.app, alice, { text: 'about to be edited' });
    await withStoppedClock(async (advance) => {
      await read(null);
      await like(post.id);
      expect((await read(null)).cache).toBe('hit');
      const edit = await call(t.app, alice, { method: 'PATCH', url: `/api/post/${post.id}`, payload: { text: 'edited for everyone' } });
      expect(edit.statusCode, edit.body).toBe(200);
      const after = await read(null);
      expect(after.cache).toBe('miss');
      const shown = after.body.posts.find((p) => p._id === post.id);
      expect(shown).toMatchObject({ text: 'edited for everyone', likes: 1 });
      // The edit cleared the like's deadline along with the pages: kept past it.
      advance(t.config.visitorCacheCountsMs);
      expect((await read(null)).cache).toBe('hit');

      const refused = await call(t.app, alice, { method: 'PATCH', url: `/api/post/${'0'.repeat(24)}`, payload: { text: 'nothing here' } });
      expect(refused.statusCode).toBe(404);
      expect((await read(null)).cache).toBe('miss');
      expect((await read(null)).cache).toBe('hit');
      expect((await call(t.app, alice, { method: 'POST', url: '/api/no-such-route' })).statusCode).toBe(404);
      expect((await read(null)).cache).toBe('miss');
    });
  });

  it('shows a new post and hides a deleted one at once, a pending count or not', async () => {
    t.app.invalidateVisitorCache();
    await read(null);
    const created = await call(t.app, alice, { method: 'POST', url: '/api/post', payload: { text: 'fresh from the API' } });
    expect(created.statusCode, created.body).toBe(201);
    const id = (created.json() as { _id: string })._id;
    const shown = await read(null);
    expect(shown.cache).toBe('miss');
    expect(shown.body.posts[0]?._id).toBe(id);
    await like(id);
    expect((await read(null)).cache).toBe('hit');
    const removed = await call(t.app, alice, { method: 'DELETE', url: `/api/post/${id}` });
    expect(removed.statusCode, removed.body).toBeLessThan(300);
    const after = await read(null);
    expect(after.cache).toBe('miss');
    expect(after.body.posts.map((p) => p._id)).not.toContain(id);
  });

  it('hides the posts of a group at once when it becomes private, and a deleted comment changes the count at once', async () => {
    const group = await createGroup(t.app, alice);
    const post = await createPost(t.app, alice, { text: 'public for now', groupIds: [group.id] });
    const comment = await call(t.app, bob, { method: 'POST', url: '/api/comment/', payload: { text: 'soon gone', parent: post.id } });
    expect(comment.statusCode, comment.body).toBe(201);
    t.app.invalidateVisitorCache();
    expect((await read(null)).body.posts.find((p) => p._id === post.id)?.comments).toBe(1);
    const deleted = await call(t.app, bob, { method: 'DELETE', url: `/api/comment/${(comment.json() as { _id: string })._id}` });
    expect(deleted.statusCode, deleted.body).toBe(200);
    const uncommented = await read(null);
    expect(uncommented.cache).toBe('miss');
    expect(uncommented.body.posts.find((p) => p._id === post.id)?.comments).toBe(0);

    await like(post.id);
    expect((await read(null)).cache).toBe('hit');
    const hidden = await call(t.app, alice, { method: 'PATCH', url: `/api/group/${group.id}/update`, payload: { name: group.name, isPrivate: true } });
    expect(hidden.statusCode, hidden.body).toBe(200);
    const after = await read(null);
    expect(after.cache).toBe('miss');
    expect(after.body.posts.map((p) => p._id)).not.toContain(post.id);
  });

  it('forgets at once on a write route that declares nothing', async () => {
    const other = await buildApp({ config: { ...t.config }, database: t.database, closeDatabase: false, logger: false });
    other.post('/undeclared-write', async () => ({ done: true }));
    await other.ready();
    try {
      const visit = async () => (await other.inject({ method: 'GET', url: '/api/feed?sort=newest' })).headers[CACHE_HEADER];
      await visit();
      expect(await visit()).toBe('hit');
      expect((await other.inject({ method: 'POST', url: '/undeclared-write' })).statusCode).toBe(200);
      expect(await visit()).toBe('miss');
    } finally {
      await other.close();
    }
  });

  it('lets only likes and new comments lag behind: no other route declares what it writes', () => {
    expect(declared.sort()).toEqual([
      'PATCH /api/comment/:commentId/like counts',
      'PATCH /api/post/:postId/like counts',
      'POST /api/comment/ counts',
    ]);
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

  it('with VISITOR_CACHE_COUNTS_MS=0, forgets the pages at once on a like too', async () => {
    const eager = await createTestApp({ VISITOR_CACHE_COUNTS_MS: '0' });
    try {
      const [author, liker] = [await createUser(eager.app), await createUser(eager.app)];
      const post = await createPost(eager.app, author, { text: 'liked at once' });
      const visit = async () => eager.app.inject({ method: 'GET', url: '/api/feed?sort=newest' });
      await visit();
      expect((await visit()).headers[CACHE_HEADER]).toBe('hit');
      const res = await call(eager.app, liker, { method: 'PATCH', url: `/api/post/${post.id}/like`, payload: {} });
      expect(res.statusCode, res.body).toBe(200);
      const after = await visit();
      expect(after.headers[CACHE_HEADER]).toBe('miss');
      expect((after.json() as Feed).posts.find((p) => p._id === post.id)?.likes).toBe(1);
    } finally {
      await eager.close();
    }
  });

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

  it.runIf(TEST_DB === 'postgres')('is forgotten by another process on the same database at once when this one writes content', async () => {
    // A second server process: its own memory, the same PostgreSQL.
    const other = await buildApp({ config: { ...t.config }, database: t.database, closeDatabase: false, logger: false });
    await other.ready();
    try {
      const post = await createPost(t.app, alice, { text: 'read by two processes' });
      other.invalidateVisitorCache();
      const visit = async () => other.inject({ method: 'GET', url: '/api/feed?sort=newest' });
      await visit();
      expect((await visit()).headers[CACHE_HEADER]).toBe('hit');
      await withStoppedClock(async () => {
        const edit = await call(t.app, alice, { method: 'PATCH', url: `/api/post/${post.id}`, payload: { text: 'changed by the first process' } });
        expect(edit.statusCode, edit.body).toBe(200);
        // The NOTIFY arrives on the other process's own connection shortly after the write; with
        // the clock stopped, no deadline or expiry can be what forgets the page.
        await expect.poll(async () => (await visit()).headers[CACHE_HEADER], { timeout: 5_000 }).toBe('miss');
      });
      const seen = (await visit()).json() as Feed;
      expect(seen.posts.find((p) => p._id === post.id)?.text).toBe('changed by the first process');
    } finally {
      await other.close();
    }
  });

  it.runIf(TEST_DB === 'postgres')('lets another process show a like within its counts bound, not at once', async () => {
    const bound = 400;
    const other = await buildApp({ config: { ...t.config, visitorCacheCountsMs: bound }, database: t.database, closeDatabase: false, logger: false });
    await other.ready();
    try {
      const post = await createPost(t.app, alice, { text: 'liked across processes' });
      other.invalidateVisitorCache();
      const visit = async () => other.inject({ method: 'GET', url: '/api/feed?sort=newest' });
      await visit();
      expect((await visit()).headers[CACHE_HEADER]).toBe('hit');
      const liked = Date.now();
      await like(post.id);
      expect((await visit()).headers[CACHE_HEADER]).toBe('hit');
      await expect.poll(async () => (await visit()).headers[CACHE_HEADER], { timeout: 5_000, interval: 20 }).toBe('miss');
      // The signal takes milliseconds; a page forgotten at once would miss long before the bound.
      expect(Date.now() - liked).toBeGreaterThanOrEqual(bound);
      expect(((await visit()).json() as Feed).posts.find((p) => p._id === post.id)?.likes).toBe(1);
    } finally {
      await other.close();
    }
  });

  it.runIf(TEST_DB === 'postgres')('signals a like and a new comment as counts, and any other write as content, naming the schema', async () => {
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(t.app.db);
    const schema = rows[0]!.schema;
    const listener = new pg.Client({ connectionString: t.config.databaseUrl });
    const payloads: string[] = [];
    listener.on('notification', (message) => {
      if (message.payload?.startsWith(`${schema}:`)) payloads.push(message.payload);
    });
    await listener.connect();
    await listener.query(`LISTEN ${CONTENT_CHANNEL}`);
    try {
      const post = await createPost(t.app, alice, { text: 'signalled' });
      const writes = [
        { method: 'PATCH', url: `/api/post/${post.id}/like`, payload: {} },
        { method: 'POST', url: '/api/comment/', payload: { text: 'a signalled comment', parent: post.id } },
        { method: 'PATCH', url: `/api/post/${post.id}`, payload: { text: 'signalled, edited' } },
        { method: 'PATCH', url: `/api/post/${'0'.repeat(24)}/like`, payload: {} },
      ] as const;
      // One at a time: each signal is sent after its answer, so two writes' signals could cross.
      for (const [index, write] of writes.entries()) {
        await call(t.app, bob, write);
        await expect.poll(() => payloads.length, { timeout: 5_000 }).toBe(index + 1);
      }
      const token = '[0-9a-f]{16}';
      expect(payloads).toEqual([
        expect.stringMatching(new RegExp(`^${schema}:${token}:counts$`)),
        expect.stringMatching(new RegExp(`^${schema}:${token}:counts$`)),
        expect.stringMatching(new RegExp(`^${schema}:${token}$`)),
        expect.stringMatching(new RegExp(`^${schema}:${token}:counts$`)),
      ]);
      expect(payloads.map((payload) => signalKind(payload, schema, 'another process'))).toEqual(['counts', 'counts', 'content', 'counts']);
    } finally {
      await listener.end();
    }
  });
});

describe('signalKind: what another process asks of this one', () => {
  const own = 'a1b2c3d4e5f60718';
  const other = '0f1e2d3c4b5a6978';

  it('sets a deadline for a counts write of the same schema, and forgets at once for any other', () => {
    expect(signalKind(`t_one:${other}:counts`, 't_one', own)).toBe('counts');
    expect(signalKind(`t_one:${other}`, 't_one', own)).toBe('content');
  });

  it('forgets at once on a reconnect and on a payload it cannot read (an older or newer process)', () => {
    expect(signalKind(null, 't_one', own)).toBe('content');
    expect(signalKind(`t_one:${other}:names`, 't_one', own)).toBe('content');
    expect(signalKind(`t_one:${other}:counts:more`, 't_one', own)).toBe('content');
    expect(signalKind('t_one:', 't_one', own)).toBe('content');
  });

  it("ignores its own signals and another schema's", () => {
    expect(signalKind(`t_one:${own}`, 't_one', own)).toBe('ignore');
    expect(signalKind(`t_one:${own}:counts`, 't_one', own)).toBe('ignore');
    expect(signalKind(`t_two:${other}`, 't_one', own)).toBe('ignore');
    expect(signalKind(`t_two:${other}:counts`, 't_one', own)).toBe('ignore');
    expect(signalKind(`t_one_more:${other}`, 't_one', own)).toBe('ignore');
    expect(signalKind('', 't_one', own)).toBe('ignore');
  });
});
