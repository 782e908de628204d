/**
 * `npm run bench:writes -- [--data-dir DIR] [--database-url postgres://...] [--count 400] [--out FILE]`
 *
 * The server's own CPU per write: likes (toggled) and new comments sent through the app in this
 * process (Fastify's inject: routing, auth, the route's transaction, the answer; no socket), one
 * after another by 50 users on the newest public posts, then the jobs they queued (notifications)
 * run as the worker would. Each figure is process.cpuUsage() around one write, so it counts what
 * that write costs the Node process, SQLite included; PostgreSQL's own work is in its processes.
 * Each write carries an Idempotency-Key of its own, as the app's outbox sends them.
 * Without --data-dir a small data set is seeded into a temporary folder (SQLite) first. Run with
 * `node --cpu-prof` through the same entry for a profile.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildApp } from '../src/app';
import { isPostgresUrl, openDatabase } from '../src/db/database';
import { migrateToLatest } from '../src/db/migrator';
import { runDueJobs } from '../src/lib/jobs/worker';
import { inProcessConfig, isEmpty, runMain, seedDatabase, seedOptions, writeTargets } from './seed-data';

const { values: args } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    'database-url': { type: 'string' },
    count: { type: 'string', default: '400' },
    out: { type: 'string' },
  },
});

const COUNT = Number(args.count);
const url = args['database-url'];
const postgres = isPostgresUrl(url);

interface Figures {
  count: number;
  statuses: Record<string, number>;
  cpuMs: { median: number; mean: number; p90: number };
  wallMs: { median: number; mean: number; p90: number };
}

function summarise(cpu: number[], wall: number[], statuses: Record<string, number>): Figures {
  const stats = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
    const round = (n: number) => Math.round(n * 1000) / 1000;
    return { median: round(at(0.5)), mean: round(values.reduce((a, b) => a + b, 0) / values.length), p90: round(at(0.9)) };
  };
  return { count: cpu.length, statuses, cpuMs: stats(cpu), wallMs: stats(wall) };
}

async function main(): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'kruh-write-cost-'));
  const dataDir = args['data-dir'] ?? scratch;
  const database = postgres ? openDatabase({ url, dataDir }) : openDatabase({ dataDir });
  await migrateToLatest(database.db);
  if (await isEmpty(database.db)) {
    if (postgres || args['data-dir']) throw new Error('The database holds no seeded data: run npm run seed first.');
    await seedDatabase(database.db, 'sqlite', seedOptions({ users: 2_000, posts: 10_000, likes: 50_000, comments: 10_000, groups: 20, bigGroupMembers: 1_000 }));
  }
  const config = inProcessConfig(dataDir, url, scratch, {
    // As in npm run bench: 50 users write far faster than people do.
    RATE_COMMENTS_PER_30_MIN: '1000000',
    RATE_LIKES_PER_10_MIN: '1000000',
  });
  const app = await buildApp({ config, database, logger: false });
  await app.ready();
  try {
    const db = app.db;
    const { writers, posts } = await writeTargets(db);
    const tokens = await Promise.all(writers.map((id) => app.signToken({ id, token_version: 0 })));
    // Drain what the seed left queued, so the jobs measured are the writes' own.
    while ((await runDueJobs(app)) > 0);

    let runs = 0;
    const run = async (kind: 'like' | 'comment', n: number) => {
      const runId = `${Date.now()}-${runs++}`;
      const cpu: number[] = [];
      const wall: number[] = [];
      const statuses: Record<string, number> = {};
      for (let i = 0; i < n; i++) {
        const token = tokens[i % tokens.length]!;
        const post = posts[(i * 7) % posts.length]!;
        const request = kind === 'like'
          ? { method: 'PATCH' as const, url: `/api/post/${post}/like`, payload: {} }
          : { method: 'POST' as const, url: '/api/comment/', payload: { text: `Benchmark comment ${i}`, parent: post } };
        const started = process.cpuUsage();
        const t0 = performance.now();
        // With its Idempotency-Key, as the app's outbox sends every write.
        const headers = { authorization: `Bearer ${token}`, 'idempotency-key': `bench-${kind}-${runId}-${i}` };
        const res = await app.inject({ ...request, headers });
        wall.push(performance.now() - t0);
        const used = process.cpuUsage(started);
        cpu.push((used.user + used.system) / 1000);
        statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
      }
      return summarise(cpu, wall, statuses);
    };

    // Warm-up: the first calls compile code and prepare statements.
    await run('like', 50);
    await run('comment', 50);
    while ((await runDueJobs(app)) > 0);

    const like = await run('like', COUNT);
    const comment = await run('comment', COUNT);
    const started = process.cpuUsage();
    let jobs = 0;
    for (let ran = await runDueJobs(app); ran > 0; ran = await runDueJobs(app)) jobs += ran;
    const used = process.cpuUsage(started);
    const jobsCpuMsPerComment = Math.round(((used.user + used.system) / 1000 / COUNT) * 1000) / 1000;

    const result = {
      date: new Date().toISOString(),
      database: postgres ? 'postgres' : 'sqlite',
      dataDir: args['data-dir'] ?? '(small seed in a temporary folder)',
      machine: { cpus: cpus().length, node: process.version, loadAverage: loadavg().map((n) => Math.round(n * 100) / 100) },
      like,
      comment,
      jobs: { ran: jobs, cpuMsPerComment: jobsCpuMsPerComment },
    };
    console.log(JSON.stringify(result, null, 2));
    if (args.out) writeFileSync(args.out, `${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await app.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

await runMain(main);
