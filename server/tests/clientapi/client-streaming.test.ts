import { get as httpGet } from 'node:http';
import { createRestAPIClient, createStreamingAPIClient, type mastodon } from 'masto';
import generator, { type Entity } from 'megalodon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../helpers/fixtures';
import { type KruhInstance, startInstance } from '../helpers/kruh-instance';
import { TEST_DB } from '../helpers/test-app';
import { openSibling } from '../notifications/support';
import { streamTiming } from '../../src/modules/notifications/notifications.stream';
import { appToken } from './oauth-helpers';

/**
 * The streaming endpoint of the client API through the libraries apps are built on: masto's
 * streaming client and megalodon's sockets, against a running instance, receiving what other
 * people's actions cause. Each stream is known to be listening once a marker post, made after its
 * subscriptions, has come through on a public stream of the same socket: the server handles a
 * socket's subscriptions and signals in order.
 */
interface Person {
  user: TestUser;
  token: string;
}

describe('client API streaming', () => {
  let instance: KruhInstance;
  let wsOrigin: string;
  beforeAll(async () => {
    instance = await startInstance();
    wsOrigin = instance.origin.replace(/^http/u, 'ws');
  });
  afterAll(async () => {
    await instance.close();
  });

  /** Every event of a subscription, kept as it comes, for the test to wait on. */
  function collect<T>(events: AsyncIterable<T>): T[] {
    const seen: T[] = [];
    void (async () => {
      for await (const event of events) seen.push(event);
    })().catch(() => {});
    return seen;
  }

  /** The first kept event that matches, once it has come (or a failure after a while). */
  async function until<T>(seen: readonly T[], matches: (event: T) => boolean, what: string, ms = 10_000): Promise<T> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = seen.find(matches);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`never came: ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Whether an event matching comes within `ms`: only ever used to wait, never to prove absence. */
  const within = <T,>(seen: readonly T[], matches: (event: T) => boolean, ms: number) =>
    until(seen, matches, '', ms).then(() => true, () => false);

  const rest = (token: string) => createRestAPIClient({ url: instance.origin, accessToken: token });
  const statusId = (event: mastodon.streaming.Event) => (event.event === 'update' || event.event === 'status.update' ? event.payload.id : undefined);

  /**
   * Posts public markers by `marker` until one comes through `publicEvents` (subscribed last on
   * the socket): then every subscription before it is in place.
   */
  async function listening(publicEvents: readonly mastodon.streaming.Event[], marker: { token: string }) {
    for (let attempt = 0; attempt < 40; attempt++) {
      const post = await rest(marker.token).v1.statuses.create({ status: `marker ${attempt}` });
      if (await within(publicEvents, (event) => statusId(event) === post.id, 250)) return;
    }
    throw new Error('the stream never started listening');
  }

  /** People each signed in to an app that may read, write and follow. */
  async function people(count: number) {
    const made = [];
    for (let i = 0; i < count; i++) {
      const user = await createUser(instance.app);
      made.push({ user, token: await appToken(instance.app, user, 'read write follow') });
    }
    return made as [Person, Person, Person];
  }

  /** A masto streaming client of the token's app for the body, closed after it. */
  async function streamingAs(token: string, body: (streaming: mastodon.streaming.Client) => Promise<void>) {
    const streaming = createStreamingAPIClient({ streamingApiUrl: wsOrigin, accessToken: token, retry: false });
    try {
      await body(streaming);
    } finally {
      streaming.close();
    }
  }

  it('masto: user and user:notification carry a new follower, a mention and a followed person\'s status, as the REST calls show them', async () => {
    const [me, friend, marker] = await people(3);
    await rest(me.token).v1.accounts.$select(friend.user.id).follow();
    await streamingAs(me.token, async (streaming) => {
      const notifications = collect(streaming.user.notification.subscribe());
      const user = collect(streaming.user.subscribe());
      await listening(collect(streaming.public.local.subscribe()), marker);

      await rest(friend.token).v1.accounts.$select(me.user.id).follow();
      const status = await rest(friend.token).v1.statuses.create({ status: `hello @${me.user.username}` });
      await instance.runJobs();

      const followed = await until(notifications, (e) => e.event === 'notification' && e.payload.type === 'follow', 'the follow notification');
      const mentioned = await until(notifications, (e) => e.event === 'notification' && e.payload.type === 'mention', 'the mention notification');
      expect(followed.stream).toEqual(['user:notification']);
      expect(followed).toMatchObject({ payload: { account: { id: friend.user.id } } });
      expect(mentioned).toMatchObject({ payload: { status: { id: status.id } } });
      // The payload is the REST answer itself.
      const listed = await rest(me.token).v1.notifications.list();
      for (const event of [followed, mentioned]) {
        if (event.event !== 'notification') throw new Error('not a notification');
        expect(event.payload).toEqual(listed.find((n) => n.id === event.payload.id));
      }

      const update = await until(user, (e) => statusId(e) === status.id, 'the status on the home stream');
      expect(update.stream).toEqual(['user']);
      expect(update.payload).toEqual(await rest(me.token).v1.statuses.$select(status.id).fetch());
      // The user stream carries the notifications too.
      await until(user, (e) => e.event === 'notification' && e.payload.type === 'follow', 'the follow on the user stream');

      await rest(friend.token).v1.statuses.$select(status.id).remove();
      const deleted = await until(user, (e) => e.event === 'delete', 'the delete');
      expect(deleted.payload).toBe(status.id);
    });
  });

  it('masto: hashtag and public:local streams carry new statuses, a hashtag only its own', async () => {
    const [me, author, marker] = await people(3);
    await streamingAs(me.token, async (streaming) => {
      const tagged = collect(streaming.hashtag.subscribe({ tag: 'pumpkins' }));
      const local = collect(streaming.public.local.subscribe());
      await listening(local, marker);

      const other = await rest(author.token).v1.statuses.create({ status: 'about #apples' });
      const post = await rest(author.token).v1.statuses.create({ status: 'about #pumpkins' });
      const event = await until(tagged, (e) => statusId(e) === post.id, 'the tagged status');
      expect(event.stream).toEqual(['hashtag', 'pumpkins']);
      expect(event.payload).toEqual(await rest(me.token).v1.statuses.$select(post.id).fetch());
      await until(local, (e) => statusId(e) === post.id, 'the status on public:local');
      // The other tag's status came before the tagged one, so its absence is settled.
      expect(tagged.map(statusId)).not.toContain(other.id);
      expect(local.map(statusId)).toContain(other.id);
    });
  });

  it('megalodon: the user stream (subscribed in the address) carries a followed person\'s status and a follow', async () => {
    const [me, friend, marker] = await people(3);
    const client = generator('mastodon', instance.origin, me.token);
    await client.followAccount(friend.user.id);
    const updates: Entity.Status[] = [];
    const notifications: Entity.Notification[] = [];
    const socket = await client.userStreaming();
    socket.on('update', (status: Entity.Status) => updates.push(status));
    socket.on('notification', (notification: Entity.Notification) => notifications.push(notification));
    const local = await client.localStreaming();
    const localStatuses: Entity.Status[] = [];
    local.on('update', (status: Entity.Status) => localStatuses.push(status));
    try {
      // Both sockets open; the user one is known to listen once a status of a followed person came.
      for (let attempt = 0; attempt < 40; attempt++) {
        const post = await rest(friend.token).v1.statuses.create({ status: `warming up ${attempt}` });
        if (await within(updates, (status) => status.id === post.id, 250)) break;
      }
      await rest(friend.token).v1.accounts.$select(me.user.id).follow();
      const status = await rest(friend.token).v1.statuses.create({ status: 'news from a friend' });
      await instance.runJobs();
      expect(await until(updates, (s) => s.id === status.id, 'the status')).toMatchObject({ account: { id: friend.user.id }, content: expect.stringContaining('news from a friend') });
      expect(await until(notifications, (n) => n.type === 'follow', 'the follow')).toMatchObject({ account: { id: friend.user.id } });
      const other = await rest(marker.token).v1.statuses.create({ status: 'someone else' });
      await until(localStatuses, (s) => s.id === other.id, 'the stranger\'s status on public:local');
      // The friend's next status comes after the stranger's on the user socket too, so by then the
      // stranger's was handled there: it is not on the user stream.
      const later = await rest(friend.token).v1.statuses.create({ status: 'later news' });
      await until(updates, (s) => s.id === later.id, 'the later status');
      expect(updates.map((s) => s.id)).not.toContain(other.id);
    } finally {
      socket.stop();
      local.stop();
    }
  });

  it.runIf(TEST_DB === 'postgres')('a status written through another server process on the same database reaches the socket', async () => {
    const [me, author, marker] = await people(3);
    const other = await openSibling(instance);
    try {
      await streamingAs(me.token, async (streaming) => {
        const local = collect(streaming.public.local.subscribe());
        await listening(local, marker);
        const res = await other.inject({ method: 'POST', url: '/api/v1/statuses', headers: { authorization: `Bearer ${author.token}` }, payload: { status: 'from the other process' } });
        expect(res.statusCode).toBe(200);
        const event = await until(local, (e) => statusId(e) === res.json().id, 'the status from the other process');
        expect(event.payload).toEqual(await rest(me.token).v1.statuses.$select(res.json().id).fetch());
      });
    } finally {
      await other.close();
    }
  });

  describe('opening a socket', () => {
    let user: TestUser;
    beforeAll(async () => {
      user = await createUser(instance.app);
    });

    /** Opens a socket and answers how it ended: opened, or the status of the refusal. */
    function open(query: string, init?: { protocols?: string[]; headers?: Record<string, string> }): Promise<string> {
      return new Promise((resolve) => {
        const socket = new WebSocket(`${wsOrigin}/api/v1/streaming${query}`, init?.protocols);
        socket.onopen = () => {
          socket.close();
          resolve('opened');
        };
        socket.onerror = () => resolve('refused');
      });
    }

    /** The status of the answer to an opening request: 101 when the socket opens, else the refusal's. */
    function statusOf(query: string, headers: Record<string, string> = {}): Promise<number> {
      return new Promise((resolve, reject) => {
        const key = Buffer.from('0123456789abcdef').toString('base64');
        const request = httpGet(`${instance.origin}/api/v1/streaming${query}`, {
          headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': key, ...headers },
        });
        request.on('upgrade', (_res, socket) => {
          socket.destroy();
          resolve(101);
        });
        request.on('response', (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        request.on('error', reject);
      });
    }

    it('takes the token as the WebSocket protocol or in the address, and refuses one without read, no token and an unknown stream', async () => {
      const read = await appToken(instance.app, user, 'read');
      const writeOnly = await appToken(instance.app, user, 'write');
      expect(await open('', { protocols: [read] })).toBe('opened');
      expect(await open(`?access_token=${read}&stream=public`)).toBe('opened');
      expect(await open('', { protocols: [writeOnly] })).toBe('refused');
      expect(await statusOf('', { authorization: `Bearer ${writeOnly}` })).toBe(403);
      expect(await statusOf('')).toBe(401);
      expect(await statusOf('?stream=everything', { authorization: `Bearer ${read}` })).toBe(400);
      expect(await statusOf('?stream=hashtag', { authorization: `Bearer ${read}` })).toBe(400);
      expect(await statusOf('', { authorization: 'Bearer not-a-token' })).toBe(401);
      expect(await statusOf('?stream=user', { authorization: `Bearer ${read}` })).toBe(101);
    });

    it('answers a plain request that it wants a WebSocket, and its health check OK', async () => {
      const read = await appToken(instance.app, user, 'read');
      const plain = await instance.app.inject({ method: 'GET', url: '/api/v1/streaming', headers: { authorization: `Bearer ${read}` } });
      expect(plain.statusCode).toBe(400);
      expect(plain.json()).toMatchObject({ message: 'error/websocket_required' });
      const health = await instance.app.inject({ method: 'GET', url: '/api/v1/streaming/health' });
      expect(health.statusCode).toBe(200);
      expect(health.body).toBe('OK');
    });

    it('the instance names a streaming address apps reach the endpoint at', async () => {
      const instanceV2 = (await instance.app.inject({ method: 'GET', url: '/api/v2/instance' })).json();
      const read = await appToken(instance.app, user, 'read');
      const socket = new WebSocket(`${instanceV2.configuration.urls.streaming}/api/v1/streaming?access_token=${read}`);
      await new Promise<void>((resolve, reject) => {
        socket.onopen = () => resolve();
        socket.onerror = () => reject(new Error('no socket at the advertised address'));
      });
      socket.close();
    });

    it('ends the socket at its next heartbeat once its token is revoked', async () => {
      const read = await appToken(instance.app, user, 'read');
      const before = streamTiming.heartbeatMs;
      streamTiming.heartbeatMs = 50;
      try {
        const socket = new WebSocket(`${wsOrigin}/api/v1/streaming?access_token=${read}`);
        const closed = new Promise<number>((resolve) => (socket.onclose = (event) => resolve(event.code)));
        await new Promise((resolve) => (socket.onopen = resolve));
        await instance.app.db.updateTable('oauth_tokens').set({ revoked_at: Date.now() }).where('user_id', '=', user.id).execute();
        expect(await closed).toBe(1008);
      } finally {
        streamTiming.heartbeatMs = before;
      }
    });

    it('a socket past the caps ends the oldest of the same account', async () => {
      const capped = await startInstance({ STREAMS_PER_ACCOUNT: '1' });
      try {
        const someone = await createUser(capped.app);
        const read = await appToken(capped.app, someone, 'read');
        const url = `${capped.origin.replace(/^http/u, 'ws')}/api/v1/streaming?access_token=${read}`;
        const first = new WebSocket(url);
        const closed = new Promise<number>((resolve) => (first.onclose = (event) => resolve(event.code)));
        await new Promise((resolve) => (first.onopen = resolve));
        await until([capped.app.clientStreams], (streams) => streams.size === 1, 'the first stream tracked');
        const second = new WebSocket(url);
        await new Promise((resolve) => (second.onopen = resolve));
        expect(await closed).toBe(1000);
        second.close();
      } finally {
        await capped.close();
      }
    });
  });
});
