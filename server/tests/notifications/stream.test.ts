import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { enqueueNotificationEvent } from '../../src/modules/notifications/events';
import { streamTiming } from '../../src/modules/notifications/notifications.stream';
import { call, createFollow, createUser, type TestUser } from '../helpers/fixtures';
import { TEST_DB, useTestApp } from '../helpers/test-app';
import { drain, openSibling } from './support';

/** An open text/event-stream: its status, headers, and the `unread` counts received so far. */
interface Stream {
  status: number;
  contentType: string | undefined;
  cacheControl: string | undefined;
  contentEncoding: string | undefined;
  counts: number[];
  raw: string;
  next(predicate: (counts: number[]) => boolean): Promise<void>;
  onEnd(listener: () => void): void;
  /** Settles once the server has ended the stream. */
  ended: Promise<void>;
  isEnded(): boolean;
  close(): void;
}

function openStream(app: FastifyInstance, path: string, headers: Record<string, string> = {}): Promise<Stream> {
  const { port } = app.server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const waiters: Array<() => void> = [];
    const request = http.get({ host: '127.0.0.1', port, path, headers }, (res) => {
      let ended = false;
      const stream: Stream = {
        status: res.statusCode ?? 0,
        contentType: res.headers['content-type'],
        cacheControl: res.headers['cache-control'],
        contentEncoding: res.headers['content-encoding'],
        counts: [],
        raw: '',
        next(predicate) {
          return new Promise((done, fail) => {
            const timer = setTimeout(() => fail(new Error(`no matching event; got ${JSON.stringify(stream.counts)}`)), 10_000);
            const check = () => {
              if (!predicate(stream.counts)) return false;
              clearTimeout(timer);
              done();
              return true;
            };
            if (!check()) waiters.push(() => void check());
          });
        },
        onEnd: (listener) => res.on('end', listener),
        ended: new Promise((done) => res.on('end', done)),
        isEnded: () => ended,
        close: () => request.destroy(),
      };
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        stream.raw += chunk;
        for (const match of chunk.matchAll(/event: unread\ndata: (.*)\n\n/g)) stream.counts.push((JSON.parse(match[1]!) as { count: number }).count);
        for (const waiter of waiters.splice(0)) waiter();
      });
      res.on('end', () => (ended = true));
      res.on('error', () => {});
      resolve(stream);
    });
    request.on('error', reject);
  });
}

async function follow(app: FastifyInstance, user: TestUser) {
  const actor = await createUser(app);
  await createFollow(app, actor, user);
  await enqueueNotificationEvent(app.db, { kind: 'follow', actorId: actor.id, userId: user.id });
}

describe('live unread stream', () => {
  const t = useTestApp();
  beforeAll(async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
  });

  it('sends the unread count on connect and whenever it changes', async () => {
    const user = await createUser(t.app);
    await follow(t.app, user);
    await drain(t.app);
    const stream = await openStream(t.app, `/api/notification/stream?token=${user.token}`);
    try {
      expect(stream.status).toBe(200);
      expect(stream.contentType).toContain('text/event-stream');
      expect(stream.cacheControl).toBe('no-store, no-transform');
      await stream.next((counts) => counts.length === 1);
      expect(stream.counts).toEqual([1]);
      await follow(t.app, user);
      await drain(t.app);
      await stream.next((counts) => counts.at(-1) === 2);
      await call(t.app, user, { method: 'PATCH', url: '/api/notification/seen' });
      await stream.next((counts) => counts.at(-1) === 0);
      // Someone else's notifications do not reach this stream.
      await follow(t.app, await createUser(t.app));
      await drain(t.app);
      await new Promise((r) => setTimeout(r, 200));
      expect(stream.counts).toEqual([1, 2, 0]);
      expect(stream.raw.startsWith('retry: ')).toBe(true);
    } finally {
      stream.close();
    }
  });

  it('goes out uncompressed and event by event to a client that accepts compression', async () => {
    const user = await createUser(t.app);
    const stream = await openStream(t.app, `/api/notification/stream?token=${user.token}`, { 'accept-encoding': 'br, gzip' });
    try {
      expect(stream.status).toBe(200);
      expect(stream.contentEncoding).toBeUndefined();
      // The first count arrives while the stream stays open: nothing holds it back to compress it.
      await stream.next((counts) => counts.length === 1);
      expect(stream.isEnded()).toBe(false);
      expect(stream.raw.startsWith('retry: ')).toBe(true);
    } finally {
      stream.close();
    }
  });

  it('opens on the cookie the app asks for, with no session in the address a proxy logs', async () => {
    const user = await createUser(t.app);
    await follow(t.app, user);
    await drain(t.app);
    const asked = await call(t.app, user, { method: 'POST', url: '/api/notification/stream/cookie' });
    expect(asked.statusCode).toBe(200);
    expect(asked.json()).toEqual({ count: 1 });
    const cookie = String(asked.headers['set-cookie']);
    expect(cookie).toBe(`kruh_stream=${user.token}; Path=/api/notification/stream; Max-Age=3600; HttpOnly; SameSite=Strict`);
    const stream = await openStream(t.app, '/api/notification/stream', { cookie: `theme=dark; ${cookie.split(';')[0]}` });
    try {
      expect(stream.status).toBe(200);
      await stream.next((counts) => counts.length === 1);
      expect(stream.counts).toEqual([1]);
    } finally {
      stream.close();
    }
    expect((await call(t.app, null, { method: 'POST', url: '/api/notification/stream/cookie' })).statusCode).toBe(401);
    const noSession = await t.app.inject({ method: 'GET', url: '/api/notification/stream', headers: { cookie: 'kruh_stream=not-a-token' } });
    expect(noSession.statusCode).toBe(401);
  });

  it('refuses a missing or bad token before streaming', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/notification/stream?token=not-a-token' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'error/invalid_token' });
  });

  it.runIf(TEST_DB === 'postgres')('receives changes made by another server process on the same database', async () => {
    const other = await openSibling(t);
    try {
      const user = await createUser(t.app);
      const stream = await openStream(t.app, `/api/notification/stream?token=${user.token}`);
      try {
        await stream.next((counts) => counts.length === 1);
        expect(stream.counts).toEqual([0]);
        // The other process inserts and delivers; this process's stream hears of it.
        await follow(other, user);
        await drain(other);
        await stream.next((counts) => counts.at(-1) === 1);
        await call(other, user, { method: 'DELETE', url: '/api/notification/all' });
        await stream.next((counts) => counts.at(-1) === 0);
      } finally {
        stream.close();
      }
    } finally {
      await other.close();
    }
  });

  it('sends heartbeats, and ends the stream once the session is revoked', async () => {
    const user = await createUser(t.app);
    streamTiming.heartbeatMs = 50;
    const stream = await openStream(t.app, `/api/notification/stream?token=${user.token}`);
    try {
      const ended = new Promise<void>((resolve) => stream.onEnd(resolve));
      await stream.next((counts) => counts.length === 1);
      await new Promise((r) => setTimeout(r, 200));
      expect(stream.raw).toContain(': heartbeat\n\n');
      await t.app.db.updateTable('users').set({ token_version: 1 }).where('id', '=', user.id).execute();
      await ended;
    } finally {
      streamTiming.heartbeatMs = 25_000;
      stream.close();
    }
  });

  it('ends open streams when the app closes', async () => {
    const app = await openSibling(t);
    await app.listen({ host: '127.0.0.1', port: 0 });
    const user = await createUser(app);
    const stream = await openStream(app, `/api/notification/stream?token=${user.token}`);
    await stream.next((counts) => counts.length === 1);
    const ended = new Promise<void>((resolve) => stream.onEnd(resolve));
    await app.close();
    await ended;
    stream.close();
  });

  it('answers the list on the bare path too, and pins pages with before', async () => {
    const user = await createUser(t.app);
    await follow(t.app, user);
    await drain(t.app);
    const bare = await call(t.app, user, { method: 'GET', url: '/api/notification' });
    expect(bare.statusCode).toBe(200);
    expect(bare.json().notifications).toHaveLength(1);
    const pinned = await call(t.app, user, { method: 'GET', url: `/api/notification/?before=${Date.now() - 60_000}` });
    expect(pinned.json().notifications).toHaveLength(0);
  });
});

describe('stream caps', () => {
  // Each test names its own client address (the app believes X-Forwarded-For here), so the caps
  // of one test do not reach the streams of another.
  const t = useTestApp({ STREAMS_PER_ACCOUNT: '2', STREAMS_PER_ADDRESS: '3', TRUST_PROXY: 'true' });
  beforeAll(async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
  });

  const open = async (user: TestUser, address: string) => {
    const stream = await openStream(t.app, `/api/notification/stream?token=${user.token}`, { 'X-Forwarded-For': address });
    await stream.next((counts) => counts.length === 1);
    return stream;
  };

  /** Opens the streams one after another; the first must be ended by the server, the rest stay and hear a new follower. */
  async function expectOldestClosed(owners: TestUser[], address: string) {
    const streams: Stream[] = [];
    try {
      for (const owner of owners) streams.push(await open(owner, address));
      const [oldest, ...rest] = streams;
      await Promise.race([oldest!.ended, new Promise((_, fail) => setTimeout(() => fail(new Error('the oldest stream was not ended')), 5_000))]);
      for (const stream of rest) expect(stream.isEnded()).toBe(false);
      for (const owner of new Set(owners)) await follow(t.app, owner);
      await drain(t.app);
      for (const stream of rest) await stream.next((counts) => counts.at(-1) === 1);
      expect(rest.every((stream) => !stream.isEnded())).toBe(true);
    } finally {
      for (const stream of streams) stream.close();
    }
  }

  it('closes the oldest stream of an account that opens one more than its cap', async () => {
    const user = await createUser(t.app);
    await expectOldestClosed([user, user, user], '10.0.0.1');
  });

  it('closes the oldest stream of an address that opens one more than its cap, whatever the accounts', async () => {
    const users = await Promise.all([1, 2, 3, 4].map(() => createUser(t.app)));
    await expectOldestClosed(users, '10.0.0.2');
  });
});
