/**
 * `npm run bench:federation -- [--database-url postgres://.../kruh_bench_federation] [--followers 10000]
 *   [--servers 500] [--personal 50] [--dead 0.1] [--idle 10] [--connections 10] [--settle 10]
 *   [--server compiled|source] [--note "..."] [--out DIR]`
 *
 * Federation at fan-out scale: a post by an author with --followers remote followers spread over
 * --servers servers (all but --personal of them with a shared inbox), a --dead share of the servers
 * not answering (half refuse the connection, half take it and never answer), must reach every live
 * server within 60 s on one Kruh process, while the instance's own feed p99 stays within 2x of its
 * idle figure.
 *
 * 1. Seeds a throw-away database (a temp folder for SQLite; on PostgreSQL the database the URL names
 *    is dropped and made again): a small instance to read (seed-data.ts), then the remote followers
 *    of one seeded user, straight into remote_actors and remote_follows.
 * 2. Starts the fake remote servers in a process of their own (fake-inboxes.ts): each live server
 *    checks every delivery's HTTP signature against the author's published key and counts what it
 *    took per inbox, duplicates included.
 * 3. Starts the Kruh server compiled, as production runs it, with federation on and its egress
 *    guard letting plain http reach this machine (FEDERATION_ALLOW_HTTP), as the federation tests do.
 * 4. Reads the feed (a visitor and a signed-in reader at once) with autocannon for --idle seconds;
 *    then posts through the API and reads the same way until every live server has the post, and
 *    compares the p99s.
 * Results: bench/results/<date>-federation-<db>.md (and a line on the console).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { SignJWT } from 'jose';
import { type DatabaseHandle, isPostgresUrl, openDatabase } from '../src/db/database';
import { dialectOf } from '../src/db/dialect';
import { migrateToLatest } from '../src/db/migrator';
import { actorUrl } from '../src/modules/remote/actor-path';
import { freePort } from '../tests/helpers/free-port';
import type { Command } from './fake-inboxes-process';
import type { FakeServer, InboxReport, ServerMode, ServerPlan } from './fake-inboxes';
import { preparePostgres } from './postgres';
import { type Child, answers, compileServer, serverEnv, startProcess } from './processes';
import { SEED_NAMES, seedDatabase, seedOptions } from './seed-data';
import { shellArgs } from './shell-args';

const REPO = resolve(import.meta.dirname, '../..');

const { values: args } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    followers: { type: 'string', default: '10000' },
    servers: { type: 'string', default: '500' },
    /** Servers without a shared inbox (single-user servers): each follower there has a delivery of its own. */
    personal: { type: 'string', default: '50' },
    /** Share of the servers (of either kind) that do not answer. */
    dead: { type: 'string', default: '0.1' },
    /** Seconds of the idle feed measure. */
    idle: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
    /** Seconds to keep counting after every live server had the post (late duplicates). */
    settle: { type: 'string', default: '10' },
    /** Seconds after which the fan-out counts as failed. */
    limit: { type: 'string', default: '120' },
    server: { type: 'string', default: 'compiled' },
    note: { type: 'string' },
    out: { type: 'string' },
    /** Where to keep the server's log (it is read for errors either way). */
    'server-log': { type: 'string' },
    /** Extra server settings, NAME=value, comma separated (FEDERATION_DELIVERY_CONCURRENCY=32,...). */
    env: { type: 'string' },
  },
});

const FOLLOWERS = Number(args.followers);
const SERVERS = Number(args.servers);
const PERSONAL = Math.min(SERVERS, Number(args.personal));
const DEAD = Number(args.dead);
const IDLE_S = Number(args.idle);
const CONNECTIONS = Number(args.connections);
const SETTLE_S = Number(args.settle);
const LIMIT_S = Number(args.limit);
const TARGET_S = 60;
const RESULTS = args.out ? resolve(args.out) : join(REPO, 'bench/results');
const EXTRA_ENV = Object.fromEntries(
  (args.env ?? '')
    .split(',')
    .filter(Boolean)
    .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
);

/**
 * The servers: every tenth without a shared inbox (up to --personal), and dead ones spread evenly
 * over both kinds, alternately refusing and hanging. A single-user server has few followers; the
 * servers with a shared inbox share the rest.
 */
function planServers(servers: number, personal: number, dead: number, followers: number): ServerPlan[] {
  const personalEvery = personal > 0 ? servers / personal : Infinity;
  const deadEvery = dead > 0 ? 1 / dead : Infinity;
  const isPersonal = (i: number) => Math.floor(i % personalEvery) === 0 && Math.floor(i / personalEvery) < personal;
  const perPersonal = Math.min(4, Math.floor(followers / Math.max(1, servers)));
  const sharedCount = servers - personal;
  const sharedFollowers = followers - personal * perPersonal;
  let deadSeen = 0;
  let sharedSeen = 0;
  return Array.from({ length: servers }, (_, i): ServerPlan => {
    // One in each run of deadEvery, a different place in each run, so both kinds have their dead.
    const isDead = Math.floor(i % deadEvery) === Math.floor(i / deadEvery) % Math.floor(deadEvery);
    const mode: ServerMode = isDead ? (deadSeen++ % 2 === 0 ? 'refuse' : 'hang') : 'live';
    if (isPersonal(i)) return { mode, shared: false, followers: perPersonal };
    const share = Math.floor(sharedFollowers / sharedCount) + (sharedSeen++ < sharedFollowers % sharedCount ? 1 : 0);
    return { mode, shared: true, followers: share };
  });
}

// ---- The fake servers' process -------------------------------------------------------------------

interface Inboxes {
  child: Child;
  servers: FakeServer[];
  trust(origin: string): Promise<void>;
  report(): Promise<InboxReport>;
  close(): Promise<void>;
}

function ask<T>(child: Child, command: Command, answer: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: { type: string; message?: string } & Record<string, unknown>) => {
      if (message.type !== answer && message.type !== 'error') return;
      child.process.off('message', onMessage);
      if (message.type === 'error') reject(new Error(message.message));
      else resolve(message as T);
    };
    child.process.on('message', onMessage);
    child.process.send(command);
  });
}

async function startInboxes(plans: ServerPlan[]): Promise<Inboxes> {
  const child = await startProcess('server/bench/fake-inboxes-process.ts', {}, () => Promise.resolve(true), { ipc: true });
  const { servers } = await ask<{ servers: FakeServer[] }>(child, { type: 'start', plans }, 'started');
  return {
    child,
    servers,
    trust: async (origin) => {
      await ask(child, { type: 'trust', origin }, 'trusted');
    },
    report: async () => (await ask<{ report: InboxReport }>(child, { type: 'report' }, 'report')).report,
    async close() {
      if (child.process.connected) child.process.send({ type: 'close' } satisfies Command);
      await child.stop();
    },
  };
}

// ---- Seeding -------------------------------------------------------------------------------------

/** The followers, as a follow from each server would have left them: an actor row and a follow each. */
async function seedFollowers(database: DatabaseHandle, authorId: string, servers: FakeServer[]): Promise<void> {
  const now = Date.now();
  const rows = servers.flatMap((server) => server.followers.map((follower) => ({ follower, domain: new URL(server.origin).hostname })));
  for (let i = 0; i < rows.length; i += 500) {
    const chunk = rows.slice(i, i + 500);
    await database.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('remote_actors')
        .values(chunk.map(({ follower, domain }) => ({ id: follower.id, inbox: follower.inbox, shared_inbox: follower.sharedInbox, handle: null, fetched_at: now, domain })))
        .execute();
      await trx
        .insertInto('remote_follows')
        .values(chunk.map(({ follower }, j) => ({ remote_actor_id: follower.id, local_id: authorId, created_at: now - rows.length + i + j, follow_id: `${follower.id}#follow` })))
        .execute();
    });
  }
}

// ---- Load ----------------------------------------------------------------------------------------

interface FeedMeasure {
  reader: string;
  requests: number;
  requestsPerSec: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

interface Reader {
  name: string;
  path: string;
  token?: string;
}

/**
 * Both readers at once, the connections split between them, for `seconds`, or until `until`
 * settles when given (then at least `minSeconds`).
 */
async function readFeeds(base: string, readers: Reader[], seconds: number, until?: Promise<unknown>): Promise<FeedMeasure[]> {
  const runs = readers.map((reader) => {
    const headers: Record<string, string> = reader.token ? { authorization: `Bearer ${reader.token}` } : {};
    return autocannon({ url: base + reader.path, connections: Math.max(1, Math.floor(CONNECTIONS / readers.length)), duration: until ? LIMIT_S + SETTLE_S : seconds, headers });
  });
  if (until) {
    await Promise.all([until, new Promise((r) => setTimeout(r, seconds * 1000))]);
    // Without a callback autocannon answers its tracker made thenable; its types know only the promise.
    for (const run of runs) (run as unknown as { stop(): void }).stop();
  }
  const results = await Promise.all(runs);
  return results.map((r, i) => ({
    reader: readers[i]!.name,
    requests: r.requests.total,
    requestsPerSec: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
  }));
}

// ---- The run -------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const url = args['database-url'] ?? undefined;
  const postgres = isPostgresUrl(url);
  const scratch = mkdtempSync(join(tmpdir(), 'kruh-bench-federation-'));
  const dataDir = join(scratch, 'data');
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('hex');
  const plans = planServers(SERVERS, PERSONAL, DEAD, FOLLOWERS);
  const loadBefore = os.loadavg();
  let inboxes: Inboxes | undefined;
  let server: Child | undefined;
  try {
    if (postgres) await preparePostgres(url!, true);
    const database = openDatabase({ url: postgres ? url : undefined, dataDir });
    inboxes = await startInboxes(plans);
    let authorId: string;
    let readerId: string;
    try {
      await migrateToLatest(database.db);
      console.log(`Seeding ${postgres ? 'PostgreSQL' : 'SQLite'}: a small instance, then ${FOLLOWERS} remote followers on ${SERVERS} servers...`);
      await seedDatabase(database.db, dialectOf(database.db), seedOptions({ users: 500, posts: 5_000, likes: 10_000, comments: 2_000, groups: 10, heavyFollows: 200 }));
      const reader = await database.db.selectFrom('users').select('id').where('username_lower', '=', SEED_NAMES.heavyFollower).executeTakeFirstOrThrow();
      const author = await database.db.selectFrom('users').select('id').where('id', '!=', reader.id).orderBy('id').limit(1).executeTakeFirstOrThrow();
      readerId = reader.id;
      authorId = author.id;
      await seedFollowers(database, authorId, inboxes.servers);
    } finally {
      await database.close();
    }

    const entry = args.server === 'source' ? 'server/src/server.ts' : await compileServer();
    // Taken once every fake server has its port, so none of them can have it.
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    await inboxes.trust(base);
    server = await startProcess(
      entry,
      {
        ...serverEnv(port, dataDir, postgres ? url : undefined, secret, scratch),
        FEDERATION: 'true',
        // Plain http to this machine, which the fake servers are: every request still goes through the guard.
        FEDERATION_ALLOW_HTTP: 'true',
        ...EXTRA_ENV,
      },
      () => answers(`${base}/api/health`),
    );
    const key = new TextEncoder().encode(secret);
    const token = (id: string) => new SignJWT({ ver: 0 }).setProtectedHeader({ alg: 'HS256' }).setSubject(id).setIssuedAt().setExpirationTime('1d').sign(key);
    const readers: Reader[] = [
      { name: 'visitor', path: '/api/feed?sort=newest' },
      { name: 'signed in', path: '/api/feed?sort=newest', token: await token(readerId) },
    ];
    // The author's keys, as its followers' Follows left them: the first delivery finds them made.
    await (await fetch(actorUrl(base, authorId), { headers: { accept: 'application/activity+json' } })).arrayBuffer();
    for (const reader of readers) await (await fetch(base + reader.path, { headers: reader.token ? { authorization: `Bearer ${reader.token}` } : {} })).arrayBuffer();

    console.log(`Idle feed reads (${CONNECTIONS} connections over both readers, ${IDLE_S} s)...`);
    const loadIdle = os.loadavg();
    const idle = await readFeeds(base, readers, IDLE_S);
    printFeeds(idle);

    console.log('Posting, and reading the feed until every live server has the post...');
    const loadDuring = os.loadavg();
    let posted = 0;
    let done: { ms: number; report: InboxReport; activity: string } | null = null;
    const fanOut = (async () => {
      posted = Date.now();
      const response = await fetch(`${base}/api/post`, {
        method: 'POST',
        headers: { authorization: `Bearer ${await token(authorId)}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
        body: JSON.stringify({ text: `Fan-out benchmark post ${new Date().toISOString()}` }),
      });
      if (response.status !== 201) throw new Error(`POST /api/post answered ${response.status}: ${await response.text()}`);
      const postId = ((await response.json()) as { _id: string })._id;
      const answeredMs = Date.now() - posted;
      for (;;) {
        const report = await inboxes!.report();
        const activity = Object.keys(report.activities).find((id) => id.includes(postId));
        const reached = activity ? report.activities[activity]! : undefined;
        if (activity && reached?.allLiveAt) {
          done = { ms: reached.allLiveAt - posted, report, activity };
          return { answeredMs, postId };
        }
        if (Date.now() - posted > LIMIT_S * 1000) return { answeredMs, postId };
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    const during = await readFeeds(base, readers, 3, fanOut);
    const { answeredMs, postId } = await fanOut;
    printFeeds(during);
    const loadAfter = os.loadavg();
    // Set inside the fan-out's closure, which the compiler does not follow.
    const finished = done as { ms: number; report: InboxReport; activity: string } | null;
    const reachedMs = finished?.ms ?? null;
    console.log(
      reachedMs === null
        ? `Not every live server had the post within ${LIMIT_S} s.`
        : `Every live server had the post ${(reachedMs / 1000).toFixed(1)} s after it was sent (the API answered in ${answeredMs} ms, the first delivery came after ${finished!.report.activities[finished!.activity]!.firstAt - posted} ms).`,
    );
    console.log(`Counting ${SETTLE_S} s more for late duplicates...`);
    await new Promise((r) => setTimeout(r, SETTLE_S * 1000));
    const final = await inboxes.report();
    const liveCount = plans.filter((p) => p.mode === 'live').length;
    const activityId = Object.keys(final.activities).find((id) => id.includes(postId));
    const taken = activityId ? final.activities[activityId]! : { liveReached: 0, firstAt: posted, allLiveAt: null, reachedAt: [], delivered: 0, duplicates: 0 };
    const reachedAfter = (share: number) => {
      const at = taken.reachedAt[Math.ceil(share * liveCount) - 1];
      return at === undefined ? null : at - posted;
    };
    const log = server.output.join('');
    const lines = log.split('\n');
    // A delivery to a dead server fails by design, and says so at the error level.
    const failedDeliveries = lines.filter((line) => line.includes('"kind":"federation_delivery"') && line.includes('"msg":"job failed"')).length;
    const errors = lines.filter((line) => /"level":(50|60)/.test(line) && !(line.includes('"kind":"federation_delivery"') && line.includes('"msg":"job failed"')));
    const parked = lines.filter((line) => line.includes('remote host parked')).length;

    const liveServers = plans.filter((p) => p.mode === 'live');
    const expectedDeliveries = liveServers.reduce((sum, p) => sum + (p.shared ? 1 : p.followers), 0);
    const result = {
      date: new Date().toISOString(),
      database: postgres ? 'postgres' : 'sqlite',
      command: `npm run bench:federation -- ${shellArgs(process.argv.slice(2))}`.trim(),
      note: args.note ?? '',
      machine: { cpus: os.availableParallelism(), cpuModel: os.cpus()[0]?.model ?? '', node: process.version },
      load: { before: loadBefore, idle: loadIdle, during: loadDuring, after: loadAfter },
      setup: {
        followers: FOLLOWERS,
        servers: SERVERS,
        shared: plans.filter((p) => p.shared).length,
        personal: plans.filter((p) => !p.shared).length,
        refusing: plans.filter((p) => p.mode === 'refuse').length,
        hanging: plans.filter((p) => p.mode === 'hang').length,
        expectedDeliveries,
        extraEnv: EXTRA_ENV,
      },
      answeredMs,
      reachedMs,
      firstMs: taken.delivered ? taken.firstAt - posted : null,
      halfMs: reachedAfter(0.5),
      ninetyMs: reachedAfter(0.9),
      taken,
      unverified: final.unverified,
      malformed: final.malformed,
      hungConnections: final.hungConnections,
      failures: final.failures,
      idle,
      during,
      parkedLines: parked,
      failedDeliveries,
      serverErrors: errors.slice(0, 10).map((line) => line.slice(0, 400)),
      serverErrorCount: errors.length,
    };
    console.log(
      `Deliveries taken ${taken.delivered} of ${expectedDeliveries} expected at live servers, duplicates ${taken.duplicates}, ` +
        `unverified ${final.unverified}, live servers reached ${taken.liveReached} of ${final.live}; failed tries ${failedDeliveries}, hosts parked ${parked}; other server errors ${errors.length}.`,
    );
    mkdirSync(RESULTS, { recursive: true });
    let stem = `${result.date.slice(0, 10)}-federation-${result.database}`;
    if (existsSync(join(RESULTS, `${stem}.md`))) stem += `-${result.date.slice(11, 16).replace(':', '')}`;
    writeFileSync(join(RESULTS, `${stem}.md`), markdown(result));
    console.log(`Results: ${join(RESULTS, stem)}.md`);
  } finally {
    await server?.stop();
    if (args['server-log'] && server) writeFileSync(args['server-log'], server.output.join(''));
    await inboxes?.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

function printFeeds(measures: FeedMeasure[]): void {
  for (const m of measures) {
    console.log(`  ${m.reader.padEnd(10)} ${m.requestsPerSec.toFixed(0).padStart(6)} req/s  p50 ${String(m.p50).padStart(4)} ms  p99 ${String(m.p99).padStart(5)} ms  (${m.requests} requests, non-2xx ${m.non2xx}, errors ${m.errors})`);
  }
}

type Result = {
  date: string;
  database: string;
  command: string;
  note: string;
  machine: { cpus: number; cpuModel: string; node: string };
  load: Record<'before' | 'idle' | 'during' | 'after', number[]>;
  setup: { followers: number; servers: number; shared: number; personal: number; refusing: number; hanging: number; expectedDeliveries: number; extraEnv: Record<string, string> };
  answeredMs: number;
  reachedMs: number | null;
  firstMs: number | null;
  halfMs: number | null;
  ninetyMs: number | null;
  taken: { liveReached: number; delivered: number; duplicates: number };
  unverified: number;
  malformed: number;
  hungConnections: number;
  failures: string[];
  idle: FeedMeasure[];
  during: FeedMeasure[];
  parkedLines: number;
  failedDeliveries: number;
  serverErrors: string[];
  serverErrorCount: number;
};

function markdown(r: Result): string {
  const load = (l: number[]) => l.map((n) => n.toFixed(2)).join(' ');
  const ratio = (reader: string) => {
    const idle = r.idle.find((m) => m.reader === reader)!;
    const during = r.during.find((m) => m.reader === reader)!;
    return `| ${reader} | ${idle.requestsPerSec.toFixed(0)} | ${idle.p50} | ${idle.p99} | ${during.requestsPerSec.toFixed(0)} | ${during.p50} | ${during.p99} | ${(during.p99 / Math.max(1, idle.p99)).toFixed(2)}× |`;
  };
  const s = r.setup;
  const seconds = (ms: number | null) => (ms === null ? '-' : `${(ms / 1000).toFixed(1)} s`);
  return `${[
    `# Federation fan-out, ${r.database} — ${r.date}`,
    '',
    `Machine: ${r.machine.cpus} CPUs (${r.machine.cpuModel}), Node ${r.machine.node}, shared with other work; load average (1/5/15 min) before ${load(r.load.before)}, at the idle measure ${load(r.load.idle)}, at the post ${load(r.load.during)}, after ${load(r.load.after)}.`,
    `Setup: one author with ${s.followers.toLocaleString('en')} remote followers on ${s.servers} servers (${s.shared} with a shared inbox, ${s.personal} without), ${s.refusing} refusing connections and ${s.hanging} never answering; one compiled Kruh process (job worker included)${Object.keys(s.extraEnv).length ? `, with ${Object.entries(s.extraEnv).map(([k, v]) => `${k}=${v}`).join(', ')}` : ''}.`,
    `Command: \`${r.command}\``,
    ...(r.note ? ['', `Note: ${r.note}`] : []),
    '',
    `**Every live server had the post ${r.reachedMs === null ? 'NOT within the limit' : `${(r.reachedMs / 1000).toFixed(1)} s`} after it was sent** (target ${TARGET_S} s); the API answered the post in ${r.answeredMs} ms; the first delivery came after ${seconds(r.firstMs)}, half the live servers had it after ${seconds(r.halfMs)}, 90% after ${seconds(r.ninetyMs)}.`,
    `Deliveries the live servers took: ${r.taken.delivered} (${s.expectedDeliveries} expected: one per shared inbox, one per follower elsewhere), duplicates ${r.taken.duplicates}, signatures that failed ${r.unverified}, malformed ${r.malformed}; live servers reached ${r.taken.liveReached}. Connections the silent servers took: ${r.hungConnections}. Failed tries of deliveries (to the dead servers) ${r.failedDeliveries}; hosts parked (log lines) ${r.parkedLines}. Other server errors logged: ${r.serverErrorCount}.`,
    '',
    'Feed reads (`/api/feed?sort=newest`, a visitor and a signed-in reader at once, autocannon, connections split between them), idle right before the post, then from the post until every live server had it:',
    '',
    '| reader | idle req/s | idle p50 ms | idle p99 ms | during req/s | during p50 ms | during p99 ms | p99 during ÷ idle |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ratio('visitor'),
    ratio('signed in'),
    ...(r.failures.length ? ['', 'Refusals at the fake servers:', '', ...r.failures.map((f) => `    ${f}`)] : []),
    ...(r.serverErrors.length ? ['', 'Server errors:', '', ...r.serverErrors.map((l) => `    ${l}`)] : []),
  ].join('\n')}\n`;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
