/**
 * `npm run bench -- [--database-url postgres://...] [--data-dir DIR] [--duration 10]
 *   [--warmup 1] [--connections 10] [--note "..."] [--only feed_newest,search_posts,search_posts_words] [--no-writes] [--out DIR]
 *   [--processes 1] [--server compiled|source] [--turns 1] [--write-rate N]`
 *
 * The HTTP benchmark of a seeded database (`npm run seed` first, same --database-url/--data-dir):
 * 1. captures the SQL of every measured request (the app built in this process, each request
 *    once through inject, Kysely's log hook) and its query plan (EXPLAIN QUERY PLAN on SQLite,
 *    EXPLAIN on PostgreSQL);
 * 2. starts a bare Fastify JSON route in its own process (the ceiling) and measures it;
 * 3. starts the real server in its own process on the seeded data, compiled as production runs it
 *    (built first into server/dist; `--server source` runs the TypeScript through tsx instead), and
 *    measures each read scenario with autocannon (programmatic API). With `--processes N`, N server
 *    processes share the database (PostgreSQL; one runs the job worker) and the connections are
 *    split evenly between them, one autocannon per process at once: requests/s is their sum, p50
 *    and p99 the worst of them. With `--turns N`, the server's scenarios take N turns of
 *    duration/N seconds each, one after another in every turn, the bare route's with them (its
 *    server left running, idle meanwhile), so a spell of this machine's speed falls on all of them
 *    alike: requests/s is the mean of the turns, p50 and p99 the worst turn's;
 * 4. measures feed reads while a second load likes posts and comments on them, and reports
 *    refused writes and any busy/locked/deadlock error the server logged. The writes go as fast as
 *    the server takes them, or with `--write-rate N` at N a second in all.
 * Results: bench/results/<date>-<db>-<posts>.json and .md, and the index bench/results/README.md.
 * The old notification fan-out benchmark is `npm run bench:fanout`.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import SQLite from 'better-sqlite3';
import { type CompiledQuery, Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { type DatabaseHandle, PAGE_READ_SETTINGS, isPostgresUrl } from '../src/db/database';
import type { Database } from '../src/db/schema';
import { freePort } from '../tests/helpers/free-port';
import { SEED_NAMES, appTokenFor, readTargets, writeTargets } from './seed-data';
import { type Child, answers, compileServer, serverEnv, startProcess } from './processes';
import { shellArgs } from './shell-args';

const REPO = resolve(import.meta.dirname, '../..');

const { values: args } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    'data-dir': { type: 'string' },
    duration: { type: 'string', default: '10' },
    /** Seconds of load before each measure (0: none). */
    warmup: { type: 'string', default: '1' },
    connections: { type: 'string', default: '10' },
    'write-connections': { type: 'string', default: '4' },
    /** Writes a second in all beside the reads (default: as many as the write connections get through). */
    'write-rate': { type: 'string' },
    note: { type: 'string' },
    only: { type: 'string' },
    /** Where results go (default bench/results). */
    out: { type: 'string' },
    /** Leave out the feed-under-writes measure. */
    'no-writes': { type: 'boolean', default: false },
    /** Server processes sharing the database, the load split between them. */
    processes: { type: 'string', default: '1' },
    /** `compiled` (as production runs it) or `source` (TypeScript through tsx). */
    server: { type: 'string', default: 'compiled' },
    turns: { type: 'string', default: '1' },
    /** Re-render the .md and the index from a results .json (after a change of format), measuring nothing. */
    render: { type: 'string' },
  },
});
const RESULTS = args.out ? resolve(args.out) : join(REPO, 'bench/results');
const DURATION = Number(args.duration);
const WARMUP = Number(args.warmup);
const CONNECTIONS = Number(args.connections);
const WRITE_CONNECTIONS = Number(args['write-connections']);
const WRITE_RATE = args['write-rate'] === undefined ? undefined : Number(args['write-rate']);
const PROCESSES = Math.max(1, Number(args.processes));
const SERVER = args.server === 'source' ? 'source' : 'compiled';
const TURNS = Math.max(1, Math.floor(Number(args.turns)));

interface Scenario {
  name: string;
  title: string;
  path: string;
  token?: string;
}

interface Measure {
  name: string;
  title: string;
  path: string;
  status: number;
  requestsPerSec: number;
  p50: number;
  p99: number;
  mean: number;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

interface PlannedQuery {
  sql: string;
  parameters: unknown[];
  ms: number;
  plan: string[];
}

// ---- Load ----------------------------------------------------------------------------------------

/** Load on one server, or split evenly over several (one autocannon each, at the same time). */
async function measure(bases: string | string[], scenario: Scenario, duration = DURATION, { quiet = false } = {}): Promise<Measure> {
  const urls = (Array.isArray(bases) ? bases : [bases]).map((base) => base + scenario.path);
  const headers: Record<string, string> = scenario.token ? { authorization: `Bearer ${scenario.token}` } : {};
  const first = await fetch(urls[0]!, { headers });
  await first.arrayBuffer();
  const share = (i: number) => Math.floor(CONNECTIONS / urls.length) + (i < CONNECTIONS % urls.length ? 1 : 0);
  const load = (seconds: number) => Promise.all(urls.map((url, i) => autocannon({ url, connections: share(i), duration: seconds, headers })));
  // Warm-up: compiled routes, JIT, the database's page cache.
  if (WARMUP > 0) await load(WARMUP);
  const runs = await load(duration);
  const sum = (f: (r: autocannon.Result) => number) => runs.reduce((total, r) => total + f(r), 0);
  const worst = (f: (r: autocannon.Result) => number) => Math.max(...runs.map(f));
  const requests = sum((r) => r.requests.total);
  const m: Measure = {
    name: scenario.name,
    title: scenario.title,
    path: scenario.path,
    status: first.status,
    requestsPerSec: sum((r) => r.requests.average),
    p50: worst((r) => r.latency.p50),
    p99: worst((r) => r.latency.p99),
    mean: requests > 0 ? sum((r) => r.latency.average * r.requests.total) / requests : 0,
    requests,
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors),
    timeouts: sum((r) => r.timeouts),
  };
  if (!quiet) printMeasure(m);
  return m;
}

function printMeasure(m: Measure): void {
  console.log(`  ${m.title.padEnd(34)} ${m.requestsPerSec.toFixed(0).padStart(7)} req/s  p50 ${String(m.p50).padStart(5)} ms  p99 ${String(m.p99).padStart(5)} ms  (status ${m.status}, non-2xx ${m.non2xx})`);
}

/** One scenario's turns as one measure: the turns last alike, so requests/s is their mean; p50 and p99 are the worst turn's. */
function mergedTurns(turns: Measure[]): Measure {
  const first = turns[0]!;
  const sum = (f: (m: Measure) => number) => turns.reduce((total, m) => total + f(m), 0);
  const requests = sum((m) => m.requests);
  return {
    ...first,
    status: turns.find((m) => m.status !== 200)?.status ?? first.status,
    requestsPerSec: sum((m) => m.requestsPerSec) / turns.length,
    p50: Math.max(...turns.map((m) => m.p50)),
    p99: Math.max(...turns.map((m) => m.p99)),
    mean: requests > 0 ? sum((m) => m.mean * m.requests) / requests : 0,
    requests,
    non2xx: sum((m) => m.non2xx),
    errors: sum((m) => m.errors),
    timeouts: sum((m) => m.timeouts),
  };
}

/** A row to measure and the servers it is asked of. */
interface Row {
  bases: string[];
  scenario: Scenario;
}

/** Every row measured, in turns when asked (see --turns). */
async function measureAll(rows: Row[]): Promise<Measure[]> {
  if (TURNS === 1) {
    const measures: Measure[] = [];
    for (const row of rows) measures.push(await measure(row.bases, row.scenario));
    return measures;
  }
  const taken = rows.map(() => [] as Measure[]);
  for (let turn = 0; turn < TURNS; turn++) {
    for (const [i, row] of rows.entries()) taken[i]!.push(await measure(row.bases, row.scenario, DURATION / TURNS, { quiet: true }));
  }
  const measures = taken.map(mergedTurns);
  measures.forEach(printMeasure);
  return measures;
}

interface MixedResult {
  reads: Measure;
  writes: { requests: number; requestsPerSec: number; p50: number; p99: number; statuses: Record<string, number>; errors: number };
  busyErrors: string[];
}

/** Feed reads while a second load likes posts (toggles) and comments on them, as many users. */
async function measureMixed(base: string, read: Scenario, writers: { token: string }[], postIds: string[], server: Child): Promise<MixedResult> {
  const logStart = server.output.length;
  const statuses: Record<string, number> = {};
  let n = 0;
  const pick = () => {
    n++;
    const user = writers[n % writers.length]!;
    const post = postIds[Math.floor(Math.random() * postIds.length)]!;
    return { user, post };
  };
  const writeLoad = autocannon({
    url: base,
    connections: WRITE_CONNECTIONS,
    duration: DURATION,
    ...(WRITE_RATE === undefined ? {} : { overallRate: WRITE_RATE }),
    requests: [
      {
        setupRequest: (req) => {
          const { user, post } = pick();
          return { ...req, method: 'PATCH', path: `/api/post/${post}/like`, headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' }, body: '{}' };
        },
        onResponse: (status) => {
          statuses[`like ${status}`] = (statuses[`like ${status}`] ?? 0) + 1;
        },
      },
      {
        setupRequest: (req) => {
          const { user, post } = pick();
          return {
            ...req,
            method: 'POST',
            path: '/api/comment/',
            headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ text: `Benchmark comment ${n}`, parent: post }),
          };
        },
        onResponse: (status) => {
          statuses[`comment ${status}`] = (statuses[`comment ${status}`] ?? 0) + 1;
        },
      },
    ],
  });
  const reads = await measure(base, { ...read, name: `${read.name}_under_writes`, title: `${read.title} under writes` });
  const w = await writeLoad;
  const log = server.output.slice(logStart).join('');
  const busyErrors = [...new Set(log.split('\n').filter((line) => /SQLITE_BUSY|database is locked|deadlock|could not serialize|lock timeout/i.test(line)).map((l) => l.slice(0, 300)))];
  const writes = { requests: w.requests.total, requestsPerSec: w.requests.average, p50: w.latency.p50, p99: w.latency.p99, statuses, errors: w.errors };
  console.log(`  writes alongside: ${writes.requestsPerSec.toFixed(0)} req/s p50 ${writes.p50} ms p99 ${writes.p99} ms ${JSON.stringify(statuses)}; busy/locked lines in the server log: ${busyErrors.length}`);
  return { reads, writes, busyErrors };
}

// ---- Query plans ---------------------------------------------------------------------------------

/** The database as the bench process sees it, with every query it runs recorded. */
function openLogged(url: string | undefined, dataDir: string, captured: { sql: string; parameters: readonly unknown[]; ms: number }[]) {
  const log = (event: { level: string; query: CompiledQuery; queryDurationMillis: number }) => {
    if (event.level === 'query') captured.push({ sql: event.query.sql, parameters: event.query.parameters, ms: event.queryDurationMillis });
  };
  if (isPostgresUrl(url)) {
    // The server's own connection settings, so the plans captured are the ones it runs.
    const pool = new pg.Pool({ connectionString: url, max: 4, options: PAGE_READ_SETTINGS.join(' ') });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log });
    const explain = async (q: string, p: readonly unknown[]) => (await pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${q}`, [...p])).rows.map((r) => r['QUERY PLAN']);
    return { handle: { db, dialect: 'postgres', close: () => db.destroy() } as DatabaseHandle, explain };
  }
  const sqlite = new SQLite(join(dataDir, 'kruh.sqlite'));
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }), log });
  const explain = async (q: string, p: readonly unknown[]) =>
    (sqlite.prepare(`EXPLAIN QUERY PLAN ${q}`).all(...(p as unknown[])) as { id: number; parent: number; detail: string }[]).map(
      (r) => `${r.id}/${r.parent} ${r.detail}`,
    );
  return { handle: { db, dialect: 'sqlite', close: () => db.destroy() } as DatabaseHandle, explain };
}

/**
 * Each scenario's request once in this process: its SQL, time and plan, slowest first. Kept visitor
 * pages are off here, so the second run reads the database as a page not yet kept does.
 */
async function capturePlans(url: string | undefined, dataDir: string, scenarios: Scenario[], secret: string): Promise<Record<string, PlannedQuery[]>> {
  const captured: { sql: string; parameters: readonly unknown[]; ms: number }[] = [];
  const { handle, explain } = openLogged(url, dataDir, captured);
  const scratch = mkdtempSync(join(tmpdir(), 'kruh-bench-plans-'));
  const config = loadConfig({ DATA_DIR: dataDir, JWT_SECRET: secret, WEB_DIR: join(scratch, 'none'), LOG_LEVEL: 'silent', RUN_WORKER: 'false', VISITOR_CACHE_MS: '0', ...(url ? { DATABASE_URL: url } : {}) });
  const app = await buildApp({ config, database: handle, logger: false });
  await app.ready();
  const plans: Record<string, PlannedQuery[]> = {};
  try {
    for (const scenario of scenarios) {
      const headers = scenario.token ? { authorization: `Bearer ${scenario.token}` } : {};
      await app.inject({ method: 'GET', url: scenario.path, headers }); // warm
      captured.length = 0;
      await app.inject({ method: 'GET', url: scenario.path, headers });
      const queries: PlannedQuery[] = [];
      for (const q of captured) {
        let plan: string[];
        try {
          plan = await explain(q.sql, q.parameters);
        } catch (err) {
          plan = [`(no plan: ${(err as Error).message})`];
        }
        queries.push({ sql: q.sql, parameters: [...q.parameters], ms: Math.round(q.ms * 100) / 100, plan });
      }
      plans[scenario.name] = queries.sort((a, b) => b.ms - a.ms);
    }
  } finally {
    await app.close();
    rmSync(scratch, { recursive: true, force: true });
  }
  return plans;
}

// ---- The run -------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const url = args['database-url'] ?? process.env.DATABASE_URL ?? undefined;
  const postgres = isPostgresUrl(url);
  const dataDir = resolve(args['data-dir'] ?? process.env.DATA_DIR ?? './data');
  if (!postgres && !existsSync(join(dataDir, 'kruh.sqlite'))) throw new Error(`No database in ${dataDir}: run npm run seed -- --data-dir ${dataDir} first.`);

  // What to ask for: found in the seeded data.
  const secret = randomBytes(32).toString('hex');
  const look = openLogged(postgres ? url : undefined, dataDir, []);
  const db = look.handle.db;
  const rows = async (table: 'posts' | 'users' | 'comments' | 'post_likes') =>
    Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const size = { users: await rows('users'), posts: await rows('posts'), comments: await rows('comments'), likes: await rows('post_likes') };
  if (size.posts === 0) throw new Error('The database holds no seeded data: run npm run seed first.');
  const { heavy, hot, noticed } = await readTargets(db);
  const { writers: writerIds, posts: publicPosts } = await writeTargets(db);
  const heavyAppToken = await appTokenFor(db, heavy);
  await look.handle.close();

  // Tokens as the server signs them (HS256 with the secret it is given).
  const { SignJWT } = await import('jose');
  const key = new TextEncoder().encode(secret);
  const token = (id: string) => new SignJWT({ ver: 0 }).setProtectedHeader({ alg: 'HS256' }).setSubject(id).setIssuedAt().setExpirationTime('1d').sign(key);
  const heavyToken = await token(heavy);
  const noticedToken = await token(noticed.userId);
  const writers = await Promise.all(writerIds.map(async (id) => ({ token: await token(id) })));

  let scenarios: Scenario[] = [
    { name: 'feed_newest', title: 'feed, newest', path: '/api/feed?sort=newest' },
    // The same page to a signed-in reader, which is never served from the kept visitor pages.
    { name: 'feed_newest_signed_in', title: 'feed, newest, signed in', path: '/api/feed?sort=newest', token: noticedToken },
    { name: 'feed_popular_week', title: 'feed, popular week', path: '/api/feed?sort=popular&time=week' },
    { name: 'feed_popular_year', title: 'feed, popular year', path: '/api/feed?sort=popular&time=year' },
    { name: 'feed_newest_page_1000', title: 'feed, newest page 1,000', path: '/api/feed?sort=newest&page=1000' },
    { name: 'feed_following_1000', title: 'following feed (follows 1,000)', path: '/api/feed/following?sort=newest', token: heavyToken },
    // The same reader's home timeline through a fediverse app (the following feed with their groups' posts).
    { name: 'client_home_timeline', title: 'client API home timeline (follows 1,000)', path: '/api/v1/timelines/home', token: heavyAppToken },
    // The same timeline a page the size of the following feed's (4 posts against the apps' 20).
    { name: 'client_home_timeline_4', title: 'client API home timeline, 4 a page', path: '/api/v1/timelines/home?limit=4', token: heavyAppToken },
    { name: 'big_group_posts', title: 'big group posts', path: `/api/group/${SEED_NAMES.bigGroup}/posts?sort=newest` },
    { name: 'post_comments', title: `post page comments (${hot.comments})`, path: `/api/post/${hot.id}/comments` },
    { name: 'post_view', title: `post view (${hot.comments} comments)`, path: `/api/post/${hot.id}` },
    // The same pages to the signed-in reader of the newest feed: its role and likes are read with them.
    { name: 'big_group_posts_signed_in', title: 'big group posts, signed in', path: `/api/group/${SEED_NAMES.bigGroup}/posts?sort=newest`, token: noticedToken },
    { name: 'post_comments_signed_in', title: `post page comments (${hot.comments}), signed in`, path: `/api/post/${hot.id}/comments`, token: noticedToken },
    { name: 'post_view_signed_in', title: `post view (${hot.comments} comments), signed in`, path: `/api/post/${hot.id}`, token: noticedToken },
    { name: 'search_posts', title: `search posts "${SEED_NAMES.commonWord}"`, path: `/api/search/for/posts?query=${SEED_NAMES.commonWord}` },
    // Every word in any order: two common words, written in another order than posts have them.
    { name: 'search_posts_words', title: `search posts "${SEED_NAMES.commonWord} morning"`, path: `/api/search/for/posts?query=${SEED_NAMES.commonWord}%20morning` },
    { name: 'search_users', title: `search users "${SEED_NAMES.userQuery}"`, path: `/api/search/for/users?query=${SEED_NAMES.userQuery}` },
    { name: 'notifications', title: `notifications (${noticed.count} items)`, path: '/api/notification/', token: noticedToken },
  ];
  if (args.only) {
    const only = new Set(args.only.split(','));
    scenarios = scenarios.filter((s) => only.has(s.name));
  }

  const seedFile = join(dataDir, 'seed.json');
  const seeded = existsSync(seedFile) ? (JSON.parse(readFileSync(seedFile, 'utf8')) as { command: string; date: string; summary: unknown }) : undefined;
  console.log(`Database: ${postgres ? 'PostgreSQL' : 'SQLite'}, ${size.posts} posts, ${size.users} users, ${size.comments} comments, ${size.likes} likes`);
  console.log('Capturing query plans...');
  const plans = await capturePlans(postgres ? url : undefined, dataDir, scenarios, secret);

  // Built before the bare route starts: in turns its server stays up until the end, and a failed build would leave it running.
  let entry = 'server/src/server.ts';
  if (SERVER === 'compiled') {
    entry = await compileServer();
  }
  const results: Measure[] = [];
  const barePort = await freePort();
  const bare = await startProcess('server/bench/bare-server.ts', { PORT: String(barePort) }, () => answers(`http://127.0.0.1:${barePort}/`));
  const bareRow: Row = { bases: [`http://127.0.0.1:${barePort}`], scenario: { name: 'bare', title: 'bare Fastify JSON route', path: '/' } };
  // In turns the bare route takes its turn with the rest, its server idle meanwhile; else it is measured first, alone.
  if (TURNS === 1) {
    console.log(`Bare Fastify JSON route (${CONNECTIONS} connections, ${DURATION} s each):`);
    try {
      results.push(await measure(bareRow.bases, bareRow.scenario));
    } finally {
      await bare.stop();
    }
  }

  console.log(`Kruh server (${SERVER}, ${PROCESSES} process${PROCESSES > 1 ? 'es' : ''}):`);
  const scratch = mkdtempSync(join(tmpdir(), 'kruh-bench-web-'));
  const servers: Child[] = [];
  const bases: string[] = [];
  let mixed: MixedResult | undefined;
  try {
    for (let i = 0; i < PROCESSES; i++) {
      const port = await freePort();
      servers.push(await startProcess(
        entry,
        {
          ...serverEnv(port, dataDir, postgres ? url : undefined, secret, scratch),
          // One job worker is enough; the others only serve requests, as behind a load balancer.
          RUN_WORKER: i === 0 ? 'true' : 'false',
          // The write load comes from 50 users far faster than a person comments.
          RATE_COMMENTS_PER_30_MIN: '1000000',
        },
        () => answers(`http://127.0.0.1:${port}/api/health`),
      ));
      bases.push(`http://127.0.0.1:${port}`);
    }
    const rows = scenarios.map((scenario) => ({ bases, scenario }));
    results.push(...(await measureAll(TURNS === 1 ? rows : [bareRow, ...rows])));
    if (!args['no-writes']) {
      console.log('Feed reads while likes and comments are written:');
      mixed = await measureMixed(bases[0]!, scenarios[0]!, writers, publicPosts, servers[0]!);
    }
  } finally {
    for (const server of servers) await server.stop();
    if (TURNS > 1) await bare.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
  const serverErrors = servers.flatMap((server) => server.output.join('').split('\n')).filter((l) => /"level":(50|60)/.test(l)).slice(0, 20);

  const date = new Date().toISOString();
  const dbLabel = postgres ? 'postgres' : 'sqlite';
  const command = `npm run bench -- ${shellArgs(process.argv.slice(2))}`.trim();
  const run = {
    date,
    database: dbLabel,
    size,
    machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model ?? '', memoryGiB: Math.round(os.totalmem() / 2 ** 30), node: process.version, platform: `${os.type()} ${os.release()}`, loadAverage: os.loadavg() },
    settings: { durationSeconds: DURATION, warmupSeconds: WARMUP, connections: CONNECTIONS, writeConnections: WRITE_CONNECTIONS, ...(WRITE_RATE === undefined ? {} : { writeRate: WRITE_RATE }), serverLogLevel: 'warn', processes: PROCESSES, server: SERVER, turns: TURNS },
    command,
    seed: seeded,
    note: args.note ?? '',
    results,
    mixed,
    serverErrors,
    plans,
  };
  mkdirSync(RESULTS, { recursive: true });
  // A later run of the same day and size keeps the earlier one: it gets the time in its name.
  let stem = `${date.slice(0, 10)}-${dbLabel}-${size.posts}${PROCESSES > 1 ? `-x${PROCESSES}` : ''}`;
  if (existsSync(join(RESULTS, `${stem}.json`))) stem += `-${date.slice(11, 16).replace(':', '')}`;
  writeFileSync(join(RESULTS, `${stem}.json`), `${JSON.stringify(run, null, 2)}\n`);
  writeFileSync(join(RESULTS, `${stem}.md`), markdown(run));
  writeIndex();
  console.log(`Results: ${join(RESULTS, stem)}.json and .md`);
}

type Run = {
  date: string;
  database: string;
  size: { users: number; posts: number; comments: number; likes: number };
  machine: { cpus: number; cpuModel: string; memoryGiB: number; node: string; platform: string; loadAverage: number[] };
  settings: { durationSeconds: number; warmupSeconds?: number; connections: number; writeConnections: number; writeRate?: number; serverLogLevel: string; processes?: number; server?: string; turns?: number };
  command: string;
  seed?: { command: string; date: string; summary: unknown } | undefined;
  note: string;
  results: Measure[];
  mixed: MixedResult | undefined;
  serverErrors: string[];
  plans: Record<string, PlannedQuery[]>;
};

function markdown(run: Run): string {
  const lines = [
    `# ${run.database}, ${run.size.posts.toLocaleString('en')} posts — ${run.date}`,
    '',
    `Machine: ${run.machine.cpus} CPUs (${run.machine.cpuModel}), ${run.machine.memoryGiB} GiB, Node ${run.machine.node}, ${run.machine.platform}; load average at the end ${run.machine.loadAverage.map((l) => l.toFixed(2)).join(' ')}.`,
    `Data: ${run.size.users} users, ${run.size.posts} posts, ${run.size.comments} comments, ${run.size.likes} post likes.`,
    `Load: autocannon, ${run.settings.connections} connections, ${run.settings.durationSeconds} s per row after a ${run.settings.warmupSeconds ?? 1} s warm-up${(run.settings.turns ?? 1) > 1 ? `, taken in ${run.settings.turns} turns of every row (req/s their mean, p50/p99 the worst turn's; a warm-up before each)` : ''}; server LOG_LEVEL=${run.settings.serverLogLevel}.`,
    `Server: ${run.settings.server ?? 'source'} (${run.settings.server === 'compiled' ? 'server/dist on Node alone' : 'TypeScript through tsx'}), ${run.settings.processes ?? 1} process${(run.settings.processes ?? 1) > 1 ? 'es sharing the database, the connections split evenly; req/s summed, p50/p99 the worst process' : ''}.`,
    '',
    ...(run.seed ? [`Seeded with: \`${run.seed.command}\` (${run.seed.date})`, ''] : []),
    `Command: \`${run.command}\``,
    ...(run.note ? ['', `Note: ${run.note}`] : []),
    '',
    '| scenario | req/s | p50 ms | p99 ms | status | non-2xx | request |',
    '|---|---:|---:|---:|---:|---:|---|',
    ...run.results.map((m) => `| ${m.title} | ${m.requestsPerSec.toFixed(0)} | ${m.p50} | ${m.p99} | ${m.status} | ${m.non2xx} | \`${m.path.replace(/[0-9a-f]{24}/g, ':id')}\` |`),
  ];
  if (run.mixed) {
    const { reads, writes, busyErrors } = run.mixed;
    lines.push(
      `| ${reads.title} | ${reads.requestsPerSec.toFixed(0)} | ${reads.p50} | ${reads.p99} | ${reads.status} | ${reads.non2xx} | \`${reads.path}\` |`,
      '',
      `Writes alongside (${run.settings.writeConnections} connections${run.settings.writeRate === undefined ? '' : ` held to ${run.settings.writeRate} a second`}, likes and comments by 50 users): ${writes.requestsPerSec.toFixed(0)} req/s, p50 ${writes.p50} ms, p99 ${writes.p99} ms; answers ${Object.entries(writes.statuses).map(([k, v]) => `${k}: ${v}`).join(', ')}; connection errors ${writes.errors}.`,
      `Busy/locked/deadlock lines in the server log: ${busyErrors.length === 0 ? 'none' : busyErrors.map((l) => `\`${l}\``).join('; ')}.`,
    );
  }
  if (run.serverErrors.length) lines.push('', 'Server errors logged:', '', ...run.serverErrors.map((l) => `    ${l}`));
  lines.push(
    '',
    '## Query plans',
    '',
    'Each measured request run once in the bench process (after one warm-up run): every query it ran, slowest',
    'first, with its time in that one run (noisy on a loaded machine) and its plan.',
    '',
  );
  for (const [name, queries] of Object.entries(run.plans)) {
    lines.push(`### ${name}`, '');
    for (const q of queries) {
      lines.push(`${q.ms} ms:`, '', '```sql', q.sql, '```', '', '```', ...q.plan, '```', '');
    }
  }
  return `${lines.join('\n')}\n`;
}

/** bench/results/README.md: how to run, then one line per run found in the folder. */
function writeIndex(): void {
  const runs = readdirSync(RESULTS)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => ({ file: f, run: JSON.parse(readFileSync(join(RESULTS, f), 'utf8')) as Run }))
    // The folder also holds other measures' figures (bench:writes): only this benchmark's runs are listed.
    .filter(({ run }) => Array.isArray(run.results) && run.settings !== undefined);
  const get = (run: Run, name: string) => run.results.find((m) => m.name === name);
  const cell = (m: Measure | undefined) => (m ? `${m.requestsPerSec.toFixed(0)} / ${m.p50} / ${m.p99}` : '');
  const lines = [
    '# Benchmark results',
    '',
    'Written by `npm run bench` (see the README section "Benchmarks"). Each run has a `.json` (all figures, the',
    'machine, the command, the query plans) and a `.md` (the table and the plans). Cells: req/s / p50 ms / p99 ms.',
    'Where each performance target stands, with the reasons: [TARGETS.md](TARGETS.md). From the runs of',
    '2026-11-26 on, signed-out reads of the explore feed are served from kept visitor pages after their first',
    'read; the signed-in column reads the database every time.',
    '',
    '| run | db | posts | cpus | bare route | feed newest | feed newest signed in | popular week | popular year | newest p.1000 | following 1,000 | client home | big group | 500 comments | search posts | search users | notifications | feed under writes | note |',
    '|---|---|---:|---:|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...runs.map(({ file, run }) =>
      [
        `[${run.date.slice(0, 16)}](${file.replace(/\.json$/, '.md')})`,
        (run.settings.processes ?? 1) > 1 ? `${run.database} ×${run.settings.processes} processes` : run.database,
        run.size.posts,
        run.machine.cpus,
        cell(get(run, 'bare')),
        cell(get(run, 'feed_newest')),
        cell(get(run, 'feed_newest_signed_in')),
        cell(get(run, 'feed_popular_week')),
        cell(get(run, 'feed_popular_year')),
        cell(get(run, 'feed_newest_page_1000')),
        cell(get(run, 'feed_following_1000')),
        cell(get(run, 'client_home_timeline')),
        cell(get(run, 'big_group_posts')),
        cell(get(run, 'post_comments')),
        cell(get(run, 'search_posts')),
        cell(get(run, 'search_users')),
        cell(get(run, 'notifications')),
        cell(run.mixed?.reads),
        run.note,
      ].join(' | ').replace(/^/, '| ').replace(/$/, ' |'),
    ),
  ];
  writeFileSync(join(RESULTS, 'README.md'), `${lines.join('\n')}\n`);
}

async function render(file: string): Promise<void> {
  const run = JSON.parse(readFileSync(file, 'utf8')) as Run;
  writeFileSync(file.replace(/\.json$/, '.md'), markdown(run));
  writeIndex();
}

try {
  if (args.render) await render(resolve(args.render));
  else await main();
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
}
