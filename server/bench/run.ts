/**
 * Notification fan-out benchmark: `npm run bench`. On SQLite, and on PostgreSQL too when
 * BENCH_DATABASE_URL is set, it seeds a group of BENCH_MEMBERS (default 100,000) members, then
 * measures how long POST /api/post into that group takes to answer, and how long the worker takes
 * to deliver every notification. Each run uses a throw-away database (temp folder or schema).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { foldForSearch } from '#core/text';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { type DatabaseHandle, openDatabase } from '../src/db/database';
import { dialectOf } from '../src/db/dialect';
import { refreshPlannerStatistics } from '../src/db/sqlite-statistics';
import { newId } from '../src/lib/ids';
import { runDueJobs } from '../src/lib/jobs/worker';
import { enqueueNotificationEvent } from '../src/modules/notifications/events';

const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 100_000);
const SEED_BATCH = 5000;

interface Result {
  database: string;
  members: number;
  seedMs: number;
  postMs: number;
  postVia: string;
  deliverMs: number;
  delivered: number;
  perSecond: number;
}

async function seed(app: FastifyInstance): Promise<{ author: { id: string; token: string }; groupId: string; groupName: string }> {
  const now = Date.now();
  const authorId = newId(now);
  const authorName = `bench_${authorId.slice(-8)}`;
  await app.db
    .insertInto('users')
    .values({ id: authorId, username: authorName, username_lower: authorName, email: `${authorName}@bench.test`, verified: 1, search_text: authorName, created_at: now })
    .execute();
  const groupId = newId(now);
  const groupName = `benchgroup${groupId.slice(-6)}`;
  await app.db
    .insertInto('groups')
    .values({ id: groupId, name: groupName, name_lower: groupName, owner_id: authorId, pinned_post_id: null, members: MEMBERS + 1, search_text: groupName, created_at: now })
    .execute();
  await app.db.insertInto('group_members').values({ group_id: groupId, user_id: authorId, role: 'owner', created_at: now }).execute();
  for (let start = 0; start < MEMBERS; start += SEED_BATCH) {
    const users = Array.from({ length: Math.min(SEED_BATCH, MEMBERS - start) }, (_, i) => {
      const username = `b${groupId.slice(-6)}_${start + i}`;
      return { id: newId(now), username, username_lower: username, search_text: foldForSearch(username), created_at: now };
    });
    await app.db.transaction().execute(async (trx) => {
      await trx.insertInto('users').values(users).execute();
      await trx.insertInto('group_members').values(users.map((u) => ({ group_id: groupId, user_id: u.id, created_at: now }))).execute();
    });
  }
  // A group that grew to this size over time has planner statistics; a freshly seeded one not yet.
  if (dialectOf(app.db) === 'postgres') await sql`analyze`.execute(app.db);
  else await refreshPlannerStatistics(app.db);
  return { author: { id: authorId, token: await app.signToken({ id: authorId, token_version: 0 }) }, groupId, groupName };
}

/** Creates the post through the API when the posts module answers; otherwise straight in the database. */
async function createPost(app: FastifyInstance, author: { id: string; token: string }, groupId: string | null): Promise<{ postId: string; via: string }> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/post',
    headers: { authorization: `Bearer ${author.token}` },
    payload: { text: 'Hello, everyone', groups: groupId ? [groupId] : [], mentions: [] },
  });
  if (res.statusCode === 200 || res.statusCode === 201) return { postId: res.json()._id as string, via: 'POST /api/post' };
  const postId = newId();
  const now = Date.now();
  await app.db.transaction().execute(async (trx) => {
    await trx.insertInto('posts').values({ id: postId, author_id: author.id, text: 'Hello, everyone', reply_to: null, search_text: 'hello, everyone', created_at: now }).execute();
    if (groupId) await trx.insertInto('post_groups').values({ post_id: postId, position: 0, group_id: groupId, name: 'g', created_at: now }).execute();
    await enqueueNotificationEvent(trx, { kind: 'post_created', postId }, now);
  });
  return { postId, via: `direct insert (POST answered ${res.statusCode})` };
}

async function benchOne(label: string, open: (dataDir: string) => Promise<{ database: DatabaseHandle; url?: string; drop(): Promise<void> }>): Promise<Result> {
  const dataDir = mkdtempSync(join(tmpdir(), 'kruh-bench-'));
  const { database, url, drop } = await open(dataDir);
  const config = loadConfig({ DATA_DIR: dataDir, JWT_SECRET: randomBytes(32).toString('hex'), WEB_DIR: join(dataDir, 'none'), LOG_LEVEL: 'silent', RUN_WORKER: 'false' });
  config.databaseUrl = url;
  const app = await buildApp({ config, database, logger: false });
  await app.ready();
  try {
    let t = performance.now();
    const { author, groupId } = await seed(app);
    const seedMs = performance.now() - t;

    // A first request compiles the route's schemas; measure a warm server.
    await createPost(app, author, null);
    await runDueJobs(app);
    t = performance.now();
    const { postId, via } = await createPost(app, author, groupId);
    const postMs = performance.now() - t;

    t = performance.now();
    await runDueJobs(app);
    const deliverMs = performance.now() - t;
    const row = await app.db
      .selectFrom('notifications')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('post_id', '=', postId)
      .executeTakeFirstOrThrow();
    const delivered = Number(row.n);
    return { database: label, members: MEMBERS, seedMs, postMs, postVia: via, deliverMs, delivered, perSecond: delivered / (deliverMs / 1000) };
  } finally {
    await app.close();
    await drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function printTable(results: Result[]): void {
  const rows = [
    ['database', 'members', 'seed (s)', 'POST answers (ms)', 'deliver all (s)', 'delivered', 'notifications/s', 'post via'],
    ...results.map((r) => [
      r.database,
      String(r.members),
      (r.seedMs / 1000).toFixed(1),
      r.postMs.toFixed(1),
      (r.deliverMs / 1000).toFixed(2),
      String(r.delivered),
      Math.round(r.perSecond).toString(),
      r.postVia,
    ]),
  ];
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((row) => row[col]!.length)));
  const line = (row: string[]) => `| ${row.map((cell, col) => cell.padEnd(widths[col]!)).join(' | ')} |`;
  console.log(line(rows[0]!));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const row of rows.slice(1)) console.log(line(row));
}

async function main(): Promise<void> {
  const results: Result[] = [];
  results.push(
    await benchOne('sqlite', async (dataDir) => ({ database: openDatabase({ dataDir }), drop: async () => {} })),
  );
  const pgUrl = process.env.BENCH_DATABASE_URL;
  if (pgUrl) {
    results.push(
      await benchOne('postgres', async (dataDir) => {
        const schema = `bench_${randomBytes(4).toString('hex')}`;
        const admin = new pg.Client({ connectionString: pgUrl });
        await admin.connect();
        await admin.query(`CREATE SCHEMA ${schema}`);
        await admin.query('CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public');
        await admin.end();
        return {
          database: openDatabase({ url: pgUrl, dataDir, schema: `${schema},public` }),
          url: pgUrl,
          drop: async () => {
            const client = new pg.Client({ connectionString: pgUrl });
            await client.connect();
            await client.query(`DROP SCHEMA ${schema} CASCADE`);
            await client.end();
          },
        };
      }),
    );
  }
  printTable(results);
  for (const r of results) {
    if (r.delivered !== r.members) {
      console.error(`${r.database}: expected ${r.members} notifications, got ${r.delivered}`);
      process.exitCode = 1;
    }
  }
}

await main();
