/**
 * `npm run bench:reads -- --data-dir DIR [--database-url postgres://...] [--count 2000] [--out FILE]`
 *
 * The server's own CPU per signed-in read on seeded data (`npm run seed` first): the pages of
 * `npm run bench` that depend on who reads them, each asked through the app in this process
 * (Fastify's inject: routing, auth, the statements, serialising; no socket), one after another, and
 * a bare Fastify JSON route the same way for scale. Each figure is process.cpuUsage() around one
 * request, so it counts the Node process's work, SQLite included; PostgreSQL's own work is in its
 * processes. The requests only read; building the app migrates the database to the latest schema,
 * as the server does when it starts. Run with
 * `node --cpu-prof --import tsx server/bench/read-cost.ts ...` for a profile.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import Fastify from 'fastify';
import { buildApp } from '../src/app';
import { isPostgresUrl, openDatabase } from '../src/db/database';
import { SEED_NAMES, appTokenFor, inProcessConfig, readTargets, runMain } from './seed-data';

const { values: args } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    'database-url': { type: 'string' },
    count: { type: 'string', default: '2000' },
    /** Comma-separated scenario names (default: all). */
    only: { type: 'string' },
    out: { type: 'string' },
  },
});

const COUNT = Number(args.count);
const url = args['database-url'];
const postgres = isPostgresUrl(url);

interface Inject {
  inject(options: { method: 'GET'; url: string; headers?: Record<string, string> }): Promise<{ statusCode: number }>;
}

/** How many turns the scenarios take: each turn asks every scenario in a row, so a machine's drift falls on all of them alike. */
const TURNS = 10;

/** One request's CPU milliseconds, refused unless it answered 200. */
async function once(app: Inject, path: string, headers: Record<string, string> | undefined): Promise<number> {
  const started = process.cpuUsage();
  const res = await app.inject({ method: 'GET', url: path, ...(headers ? { headers } : {}) });
  const used = process.cpuUsage(started);
  if (res.statusCode !== 200) throw new Error(`${path} answered ${res.statusCode}`);
  // An injected request settles on promises alone, so the immediates it leaves (its fake socket's
  // cleanup) would wait for the whole run, holding every reply and growing the heap that each later
  // request's garbage collection walks: a server taking requests from its sockets runs them between.
  await new Promise((resolve) => setImmediate(resolve));
  return (used.user + used.system) / 1000;
}

/** Median, mean and 90th percentile of CPU milliseconds. */
function summary(cpu: number[]) {
  const sorted = [...cpu].sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 1000) / 1000;
  return {
    median: round(sorted[Math.floor(sorted.length / 2)]!),
    mean: round(cpu.reduce((a, b) => a + b, 0) / cpu.length),
    p90: round(sorted[Math.floor(sorted.length * 0.9)]!),
  };
}

interface Scenario {
  name: string;
  app: Inject;
  path: string;
  token?: string | undefined;
}

/**
 * The CPU of `count` requests of each scenario after a warm-up, taken in turns: a run of this
 * machine's speed (another tenant, a throttled core) would otherwise fall on whichever scenario ran
 * then, and the ratios between pages are what the targets are about.
 */
async function costs(scenarios: Scenario[], count: number): Promise<Record<string, ReturnType<typeof summary>>> {
  const headersOf = (s: Scenario) => (s.token ? { authorization: `Bearer ${s.token}` } : undefined);
  for (const s of scenarios) for (let i = 0; i < Math.min(200, count); i++) await once(s.app, s.path, headersOf(s));
  const cpu = new Map<string, number[]>(scenarios.map((s) => [s.name, []]));
  const perTurn = Math.ceil(count / TURNS);
  for (let turn = 0; turn < TURNS; turn++) {
    for (const s of scenarios) for (let i = 0; i < perTurn; i++) cpu.get(s.name)!.push(await once(s.app, s.path, headersOf(s)));
  }
  return Object.fromEntries(scenarios.map((s) => [s.name, summary(cpu.get(s.name)!)]));
}

async function main(): Promise<void> {
  if (!args['data-dir']) throw new Error('--data-dir is required (a seeded database).');
  const dataDir = resolve(args['data-dir']);
  const scratch = mkdtempSync(join(tmpdir(), 'kruh-read-cost-'));
  const database = postgres ? openDatabase({ url, dataDir }) : openDatabase({ dataDir });
  const config = inProcessConfig(dataDir, url, scratch);
  const app = await buildApp({ config, database, logger: false });
  await app.ready();
  const bare = Fastify({ logger: false });
  bare.get('/', async () => ({ hello: 'world' }));
  await bare.ready();
  try {
    const db = app.db;
    // The same readers and pages as npm run bench picks.
    const { heavy, hot, noticed } = await readTargets(db);
    const reader = await app.signToken({ id: noticed.userId, token_version: 0 });
    const heavyToken = await app.signToken({ id: heavy, token_version: 0 });
    const heavyAppToken = await appTokenFor(db, heavy);
    let scenarios: { name: string; path: string; token?: string }[] = [
      { name: 'feed_newest_signed_in', path: '/api/feed?sort=newest', token: reader },
      { name: 'feed_following_1000', path: '/api/feed/following?sort=newest', token: heavyToken },
      // The same reader's home timeline through a fediverse app, and the same page size as the feed's.
      { name: 'client_home_timeline', path: '/api/v1/timelines/home', token: heavyAppToken },
      { name: 'client_home_timeline_4', path: '/api/v1/timelines/home?limit=4', token: heavyAppToken },
      { name: 'big_group_posts_signed_in', path: `/api/group/${SEED_NAMES.bigGroup}/posts?sort=newest`, token: reader },
      { name: 'post_comments_signed_in', path: `/api/post/${hot.id}/comments`, token: reader },
      { name: 'post_view_signed_in', path: `/api/post/${hot.id}`, token: reader },
      { name: 'notifications', path: '/api/notification/', token: reader },
      { name: 'feed_newest_visitor', path: '/api/feed?sort=newest' },
    ];
    if (args.only) {
      const only = new Set(args.only.split(','));
      scenarios = scenarios.filter((s) => only.has(s.name));
    }
    const results = await costs([{ name: 'bare', app: bare, path: '/' }, ...scenarios.map((s) => ({ ...s, app }))], COUNT);
    for (const [name, figures] of Object.entries(results)) console.log(`${name} ${JSON.stringify(figures)}`);
    const result = {
      date: new Date().toISOString(),
      database: postgres ? 'postgres' : 'sqlite',
      dataDir,
      count: COUNT,
      machine: { cpus: cpus().length, node: process.version, loadAverage: loadavg().map((n) => Math.round(n * 100) / 100) },
      cpuMs: results,
    };
    console.log(JSON.stringify(result.machine));
    if (args.out) writeFileSync(args.out, `${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await bare.close();
    await app.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

await runMain(main);
