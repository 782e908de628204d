import { randomUUID } from 'node:crypto';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { keyPairsOf } from '../../src/modules/remote/actor-keys';
import { FEDERATION_DELIVERY_JOB, deliveryRetryDelay, enqueueDelivery } from '../../src/modules/federation/outbound/delivery';
import { PARKED } from '../../src/lib/jobs/queue';
import { runDueJobs } from '../../src/lib/jobs/worker';
import { type FakeFediverse, startFakeFediverse } from '../helpers/fake-fediverse';
import { createUser } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';
import { type SilentService, startSilentService } from '../push/support';

/**
 * Deliveries to other servers: many at once, a few per host, each within its timeouts, a host that
 * keeps failing held back for a while (on every process, since the database keeps it), and a
 * failed delivery tried again for about a day.
 */

const ORIGIN = 'https://kruh.example';
const FEDERATION = { FEDERATION: 'true', FEDERATION_ALLOW_HTTP: 'true', PUBLIC_URL: ORIGIN };
const HOUR = 60 * 60 * 1000;

/**
 * An inbox server that answers every POST with `status` (changed by the test), counts them and
 * keeps each one's path and activity id in order of arrival; while `holding`, it answers none until
 * `release`.
 */
interface Inbox {
  origin: string;
  status: number;
  posts: number;
  arrived: Array<{ path: string; id: string }>;
  holding: boolean;
  /** Requests held unanswered. */
  held: number;
  release(): void;
  close(): Promise<void>;
}

async function startInbox(status: number): Promise<Inbox> {
  let waiting: Array<() => void> = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      inbox.posts++;
      inbox.arrived.push({ path: request.url ?? '', id: (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string }).id });
      const answer = () => {
        response.statusCode = inbox.status;
        response.end();
      };
      if (inbox.holding) waiting.push(answer);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const inbox: Inbox = {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    status,
    posts: 0,
    arrived: [],
    holding: false,
    get held() {
      return waiting.length;
    },
    release() {
      this.holding = false;
      const answers = waiting;
      waiting = [];
      for (const answer of answers) answer();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  return inbox;
}

/** A local user's delivery of a small activity to `inbox`, queued at `now`; answers the activity's id. */
async function queueTo(app: FastifyInstance, actorId: string, inbox: string, now?: number): Promise<string> {
  const id = `${ORIGIN}/ap/likes/${randomUUID()}`;
  const activity = { '@context': 'https://www.w3.org/ns/activitystreams', type: 'Like', id, actor: `${ORIGIN}/ap/actors/${actorId}` };
  await enqueueDelivery(app.db, { actorId, keyId: `${ORIGIN}/ap/actors/${actorId}#main-key`, inbox, activity }, now);
  return id;
}

const deliveries = (app: FastifyInstance) =>
  app.db.selectFrom('jobs').selectAll().where('kind', '=', FEDERATION_DELIVERY_JOB).orderBy('id').execute();

describe('delivery: hosts that never answer do not hold up the others', () => {
  // A long timeout: the good peer must not get its delivery merely because the hung ones gave up.
  const t = useTestApp({ ...FEDERATION, FEDERATION_DELIVERY_CONCURRENCY: '8', FEDERATION_DELIVERY_PER_HOST: '2', FEDERATION_DELIVERY_TIMEOUT_MS: '120000' });
  let dead: SilentService;
  let otherDead: SilentService;
  let peer: FakeFediverse;
  beforeAll(async () => {
    dead = await startSilentService();
    otherDead = await startSilentService();
    peer = await startFakeFediverse();
  });
  afterAll(async () => {
    await dead.close();
    await otherDead.close();
    await peer.close();
  });

  it('delivers to a good peer while six inboxes hang, with at most two requests in flight to one host', async () => {
    const alice = await createUser(t.app);
    await keyPairsOf(t.app, alice.id);
    // Six followers on a server that accepts connections and never answers, three on another, all queued first.
    for (let i = 0; i < 6; i++) await queueTo(t.app, alice.id, `http://127.0.0.1:${dead.port}/users/f${i}/inbox`);
    for (let i = 0; i < 3; i++) await queueTo(t.app, alice.id, `http://127.0.0.1:${otherDead.port}/users/g${i}/inbox`);
    await queueTo(t.app, alice.id, peer.url('/shared-inbox'));

    const running = runDueJobs(t.app);
    try {
      await vi.waitFor(() => expect(peer.received).toHaveLength(1), { timeout: 5000 });
      // Its job is done; each dead host holds as many requests as its bound, no more; none of them has ended.
      await vi.waitFor(async () => expect(await deliveries(t.app)).toHaveLength(9), { timeout: 5000 });
      await vi.waitFor(() => expect([dead.open.size, otherDead.open.size]).toEqual([2, 2]), { timeout: 5000 });
      expect((await deliveries(t.app)).every((job) => job.attempts === 0)).toBe(true);
    } finally {
      await dead.close();
      await otherDead.close();
      await running;
    }
    expect(dead.peak).toBe(2);
    expect(otherDead.peak).toBe(2);
  });
});

describe('delivery: one inbox at a time', () => {
  const t = useTestApp({ ...FEDERATION, FEDERATION_DELIVERY_PER_HOST: '3' });
  let inbox: Inbox;
  beforeAll(async () => {
    inbox = await startInbox(202);
  });
  afterAll(async () => {
    await inbox.close();
  });

  it('sends the deliveries to one inbox one at a time, in the order queued, and other inboxes of the host meanwhile', async () => {
    const alice = await createUser(t.app);
    await keyPairsOf(t.app, alice.id);
    inbox.holding = true;
    const shared = `${inbox.origin}/shared-inbox`;
    const inOrder = [await queueTo(t.app, alice.id, shared), await queueTo(t.app, alice.id, shared), await queueTo(t.app, alice.id, shared)];
    const other = await queueTo(t.app, alice.id, `${inbox.origin}/users/bob/inbox`);

    const running = runDueJobs(t.app);
    try {
      await vi.waitFor(() => expect(inbox.held).toBe(2), { timeout: 5000 });
      expect(inbox.arrived.map((got) => got.id).sort()).toEqual([inOrder[0], other].sort());
      // A delivery queued after the shared inbox's second goes out while it waits: the host has room,
      // the shared inbox has not.
      const later = await queueTo(t.app, alice.id, `${inbox.origin}/users/carol/inbox`);
      await vi.waitFor(() => expect(inbox.held).toBe(3), { timeout: 5000 });
      expect(inbox.arrived.at(-1)!.id).toBe(later);
    } finally {
      inbox.release();
      await running;
    }
    expect(inbox.arrived.filter((got) => got.path === '/shared-inbox').map((got) => got.id)).toEqual(inOrder);
    expect(await deliveries(t.app)).toEqual([]);
  });
});

describe('delivery: timeouts', () => {
  // A name whose look-up never ends: the connection never starts, however long the request may take.
  const t = useTestApp(
    { ...FEDERATION, FEDERATION_DELIVERY_CONNECT_TIMEOUT_MS: '300', FEDERATION_DELIVERY_TIMEOUT_MS: '120000' },
    { resolve: (hostname) => (hostname === 'silent.test' ? new Promise(() => {}) : Promise.reject(new Error('unknown name'))) },
  );

  it('gives a connection up after the connect timeout, long before the request timeout', { timeout: 30_000 }, async () => {
    const alice = await createUser(t.app);
    await keyPairsOf(t.app, alice.id);
    await queueTo(t.app, alice.id, 'http://silent.test/inbox');
    const started = performance.now();
    await runDueJobs(t.app);
    // Well under the 120 s request timeout (or any default one): the connect timeout ended it.
    expect(performance.now() - started).toBeLessThan(5000);
    const [job] = await deliveries(t.app);
    expect(job!.attempts).toBe(1);
    expect(job!.last_error).toMatch(/connect/i);
  });
});

describe('delivery: a host that keeps failing is parked', () => {
  const lines: Array<Record<string, unknown>> = [];
  const TOKEN = 'metrics-token-for-parked-hosts';
  const t = useTestApp(
    { ...FEDERATION, LOG_LEVEL: 'info', METRICS_TOKEN: TOKEN, FEDERATION_DELIVERY_PER_HOST: '1', FEDERATION_HOST_PARK_AFTER: '3', FEDERATION_HOST_PARK_MS: '60000' },
    { logStream: { write: (line) => void lines.push(JSON.parse(line) as Record<string, unknown>) } },
  );
  let inbox: Inbox;
  beforeAll(async () => {
    inbox = await startInbox(503);
  });
  afterAll(async () => {
    await inbox.close();
  });

  const metric = async () => {
    const answer = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    return /^kruh_job_hosts\{state="parked"\} (\d+)$/m.exec(answer.body)?.[1];
  };
  const host = () => new URL(inbox.origin).host;
  const said = (msg: string) => lines.filter((line) => line.msg === msg && line.host === host());

  it('holds its deliveries back instead of trying each, tries again later for longer, and a success closes it', async () => {
    const alice = await createUser(t.app);
    await keyPairsOf(t.app, alice.id);
    const start = Date.now();
    for (let i = 0; i < 10; i++) await queueTo(t.app, alice.id, `${inbox.origin}/users/f${i}/inbox`, start);

    // Three failures in a row park the host: the seven other deliveries are not even tried.
    await runDueJobs(t.app, { clock: () => start });
    expect(inbox.posts).toBe(3);
    let jobs = await deliveries(t.app);
    expect(jobs).toHaveLength(10);
    expect(jobs.filter((job) => job.attempts === 0)).toHaveLength(7);
    expect(said('remote host parked')).toHaveLength(1);
    expect(await metric()).toBe('1');

    // Parked, nothing goes to it, however often the queue runs.
    await runDueJobs(t.app, { clock: () => start + 30_000 });
    expect(inbox.posts).toBe(3);

    // Once the park ends one delivery tries it; failing again parks the host for twice as long.
    const probe = start + 60_001;
    await runDueJobs(t.app, { clock: () => probe });
    expect(inbox.posts).toBe(4);
    const [state] = await t.app.db.selectFrom('job_hosts').selectAll().where('host', '=', host()).execute();
    expect(Number(state!.parked_until)).toBe(probe + 120_000);
    expect(said('remote host parked')).toHaveLength(2);

    // The server is back: the next try succeeds, the host is open again and everything due goes out.
    inbox.status = 202;
    await runDueJobs(t.app, { clock: () => probe + 120_001 });
    expect(said('remote host recovered')).toHaveLength(1);
    expect(await t.app.db.selectFrom('job_hosts').selectAll().execute()).toEqual([]);
    expect(await metric()).toBe('0');
    jobs = await deliveries(t.app);
    // What is left are the failed ones whose own retry is not due yet.
    expect(jobs.every((job) => job.attempts > 0 && job.run_at > probe + 120_001)).toBe(true);
    expect(inbox.posts).toBe(4 + 10 - jobs.length);
  });
});

describe('delivery: one host, however its inboxes spell it', () => {
  const t = useTestApp(FEDERATION);

  it('counts every spelling of a host as one host, so the per-host bound and parking cannot be split', async () => {
    const alice = await createUser(t.app);
    for (const inbox of ['https://Evil.Example./users/a/inbox', 'https://evil.example/users/b/inbox', 'https://EVIL.example:8443/inbox']) {
      await queueTo(t.app, alice.id, inbox);
    }
    expect((await deliveries(t.app)).map((job) => job.host)).toEqual(['evil.example', 'evil.example', 'evil.example:8443']);
  });
});

describe('delivery: retries', () => {
  const t = useTestApp(FEDERATION);
  let inbox: Inbox;
  beforeAll(async () => {
    // An answer that is not a success, from a server that is up: tried again, never parked.
    inbox = await startInbox(400);
  });
  afterAll(async () => {
    await inbox.close();
  });

  it('tries a failing delivery for about a day before giving up', async () => {
    const alice = await createUser(t.app);
    await keyPairsOf(t.app, alice.id);
    const start = Date.now();
    await queueTo(t.app, alice.id, `${inbox.origin}/inbox`, start);
    const tries: number[] = [];
    for (let at = start; at !== PARKED; ) {
      await runDueJobs(t.app, { clock: () => at });
      tries.push(at);
      const [job] = await deliveries(t.app);
      at = Number(job!.run_at);
    }
    expect(inbox.posts).toBe(tries.length);
    expect(tries).toHaveLength(12);
    const span = tries.at(-1)! - tries[0]!;
    expect(span).toBeGreaterThan(20 * HOUR);
    expect(span).toBeLessThan(30 * HOUR);
  });

  it('keeps to about a day however the jitter falls', () => {
    // The eleven waits between twelve tries, each as short or as long as the jitter makes it.
    const total = (random: () => number) => Array.from({ length: 11 }, (_, i) => deliveryRetryDelay(i + 1, random)).reduce((sum, wait) => sum + wait, 0);
    expect(total(() => 0)).toBeGreaterThan(20 * HOUR);
    expect(total(() => 1)).toBeLessThan(30 * HOUR);
  });
});
