/**
 * `npm run seed -- [--users N] [--posts N] [--likes N] [--comments N] [--groups N] [--demo]
 *   [--database-url postgres://...] [--data-dir DIR] [--reset] [--seed N]`
 *
 * Fills the database the server would open (SQLite in DATA_DIR, or PostgreSQL at DATABASE_URL;
 * the flags win over the environment) with realistic data, by bulk inserts through the data
 * layer (see seed-data.ts). Refuses a database that already has users unless --reset (which
 * deletes the SQLite file, or drops and recreates the PostgreSQL database named in the URL).
 * A PostgreSQL database that does not exist yet is created.
 *
 * --demo adds a few users with known passwords (printed), avatars, a post with an image, groups,
 * follows, comments and the notifications they cause, made through the app's own services; alone
 * (without sizes) it seeds a small data set around them.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { availableParallelism, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import sharp from 'sharp';
import { skeleton } from '#core/text';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { isPostgresUrl, openDatabase } from '../src/db/database';
import { dialectOf } from '../src/db/dialect';
import { migrateToLatest } from '../src/db/migrator';
import { hashPassword } from '../src/lib/passwords';
import { contextOf } from '../src/lib/service-context';
import { runDueJobs } from '../src/lib/jobs/worker';
import { uploadContentImage } from '../src/modules/media/media.service';
import { storeAvatar } from '../src/modules/media/avatars';
import { preparePostgres } from './postgres';
import { shellArgs } from './shell-args';
import { type Progress, type SeedSummary, isEmpty, seedDatabase, seedOptions } from './seed-data';

const { values: args } = parseArgs({
  options: {
    users: { type: 'string' },
    posts: { type: 'string' },
    likes: { type: 'string' },
    comments: { type: 'string' },
    groups: { type: 'string' },
    seed: { type: 'string' },
    demo: { type: 'boolean', default: false },
    reset: { type: 'boolean', default: false },
    'database-url': { type: 'string' },
    'data-dir': { type: 'string' },
  },
});

function count(name: 'users' | 'posts' | 'likes' | 'comments' | 'groups' | 'seed'): number | undefined {
  const raw = args[name];
  if (raw === undefined) return undefined;
  const value = Number(raw.replace(/[_,]/g, ''));
  if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} must be a whole number, got "${raw}"`);
  return value;
}

const DEMO_SIZE = { users: 200, posts: 2_000, likes: 10_000, comments: 2_000, groups: 10, bigGroupMembers: 150 } as const;

function progressBar(): Progress {
  const bar = new cliProgress.SingleBar(
    { format: '{phase} [{bar}] {percentage}% | {value}/{total} | {duration_formatted}', hideCursor: true, etaBuffer: 50 },
    cliProgress.Presets.shades_classic,
  );
  let phase = '';
  return {
    start(name, total) {
      phase = name.padEnd(13);
      bar.start(Math.max(1, total), 0, { phase });
    },
    tick(done) {
      bar.update(done, { phase });
    },
    stop() {
      bar.stop();
    },
  };
}

async function main(): Promise<void> {
  const databaseUrl = args['database-url'] ?? process.env.DATABASE_URL ?? undefined;
  const dataDir = resolve(args['data-dir'] ?? process.env.DATA_DIR ?? './data');
  const postgres = isPostgresUrl(databaseUrl);
  const sized = ['users', 'posts', 'likes', 'comments', 'groups'].some((k) => args[k as 'users'] !== undefined);
  const base = args.demo && !sized ? DEMO_SIZE : {};
  const options = seedOptions({
    ...base,
    ...(count('users') !== undefined && { users: count('users')! }),
    ...(count('posts') !== undefined && { posts: count('posts')! }),
    ...(count('likes') !== undefined && { likes: count('likes')! }),
    ...(count('comments') !== undefined && { comments: count('comments')! }),
    ...(count('groups') !== undefined && { groups: count('groups')! }),
    ...(count('seed') !== undefined && { seed: count('seed')! }),
  });

  if (postgres) await preparePostgres(databaseUrl, args.reset);
  else if (args.reset) for (const suffix of ['', '-wal', '-shm']) rmSync(join(dataDir, `kruh.sqlite${suffix}`), { force: true });

  const database = openDatabase({ url: postgres ? databaseUrl : undefined, dataDir });
  try {
    await migrateToLatest(database.db);
    if (!(await isEmpty(database.db))) {
      throw new Error(`The database already has users (${postgres ? databaseUrl : dataDir}): pass --reset to start over.`);
    }
    console.log(
      `Seeding ${postgres ? `PostgreSQL ${new URL(databaseUrl).pathname.slice(1)}` : `SQLite in ${dataDir}`}: ` +
        `${options.users} users, ${options.posts} posts, ${options.likes} likes, ${options.comments} comments, ${options.groups} groups`,
    );
    // The wall time says little without the machine's load beside it: a shared machine's other
    // work can stretch it several times over (the CPU figures move far less).
    const before = { load: loadavg(), cpu: process.cpuUsage() };
    const summary = await seedDatabase(database.db, dialectOf(database.db), options, process.stdout.isTTY ? progressBar() : lineProgress());
    printSummary(summary);
    const cpu = process.cpuUsage(before.cpu);
    const load = (l: number[]) => l.map((n) => n.toFixed(2)).join(', ');
    const machine = { cpus: availableParallelism(), loadBefore: before.load, loadAfter: loadavg(), cpuSeconds: { user: cpu.user / 1e6, system: cpu.system / 1e6 } };
    console.log(
      `This process used ${machine.cpuSeconds.user.toFixed(0)} s user + ${machine.cpuSeconds.system.toFixed(0)} s system CPU` +
        `${postgres ? " (PostgreSQL's own work is in its processes)" : ''}; load average ${load(machine.loadBefore)} before, ` +
        `${load(machine.loadAfter)} after, on ${machine.cpus} cores.`,
    );
    // What the benchmark quotes about the data it measures.
    const command = `npm run seed -- ${shellArgs(process.argv.slice(2))}`.trim();
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(dataDir, 'seed.json'), `${JSON.stringify({ command, date: new Date().toISOString(), options, summary, machine }, null, 2)}\n`);
    if (args.demo) await seedDemo(database, dataDir, databaseUrl);
  } finally {
    await database.close();
  }
}

/** Without a terminal (CI, a log file): one line per phase. */
function lineProgress(): Progress {
  let phase = '';
  let started = 0;
  return {
    start(name) {
      phase = name;
      started = performance.now();
    },
    tick() {},
    stop() {
      console.log(`  ${phase} done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    },
  };
}

function printSummary(s: SeedSummary): void {
  console.log(
    `Seeded in ${(s.ms / 1000).toFixed(1)} s: ${s.users} users, ${s.follows} follows, ${s.groups} groups (${s.groupMembers} memberships), ` +
      `${s.posts} posts, ${s.postLikes} post likes, ${s.comments} comments, ${s.commentLikes} comment likes, ${s.notifications} notifications.`,
  );
}

const DEMO_PASSWORD = 'kruh-demo-1';
const DEMO_USERS = ['alice', 'bob', 'carol'] as const;

/** A small PNG with a colour and a letter-like stripe, so each avatar or image looks different. */
function picture(hue: number, size = 256): Promise<Buffer> {
  const [r, g, b] = [Math.round(128 + 127 * Math.sin(hue)), Math.round(128 + 127 * Math.sin(hue + 2)), Math.round(128 + 127 * Math.sin(hue + 4))];
  const stripe = Buffer.from(
    `<svg width="${size}" height="${size}"><rect width="100%" height="100%" fill="rgb(${r},${g},${b})"/>` +
      `<circle cx="${size / 2}" cy="${size / 2}" r="${size / 3}" fill="white" fill-opacity="0.5"/></svg>`,
  );
  return sharp(stripe).png().toBuffer();
}

/**
 * The hand-testing part: made through the app's services (in this process, no port opened), so
 * counters, notifications and media are exactly what the app makes.
 */
async function seedDemo(database: ReturnType<typeof openDatabase>, dataDir: string, databaseUrl: string | undefined): Promise<void> {
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', RUN_WORKER: 'false', DATABASE_URL: databaseUrl ?? '' });
  const app = await buildApp({ config, database: { ...database, close: async () => {} }, logger: false });
  await app.ready();
  try {
    const hash = await hashPassword(DEMO_PASSWORD);
    const users: { id: string; name: string; token: string }[] = [];
    for (const [i, name] of DEMO_USERS.entries()) {
      const id = `${Math.floor(Date.now() / 1000).toString(16)}00000000000000d${i}`;
      await app.db
        .insertInto('users')
        .values({ id, username: name, username_lower: name, username_skeleton: skeleton(name), email: `${name}@demo.test`, password_hash: hash, verified: 1, bio: `Demo account ${name}`, search_text: name, created_at: Date.now() })
        .execute();
      await storeAvatar(app, 'pfp', id, await picture(i * 1.7));
      users.push({ id, name, token: await app.signToken({ id, token_version: 0 }) });
    }
    const call = async (user: (typeof users)[number], method: 'POST' | 'PUT' | 'PATCH', url: string, payload?: object) => {
      const res = await app.inject({ method, url: `/api${url}`, headers: { authorization: `Bearer ${user.token}` }, ...(payload ? { payload } : {}) });
      if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
      return res.json() as Record<string, unknown>;
    };
    const [alice, bob, carol] = users as [(typeof users)[0], (typeof users)[0], (typeof users)[0]];
    await call(bob, 'POST', '/follow', { following: alice.id });
    await call(carol, 'POST', '/follow', { following: alice.id });
    await call(alice, 'POST', '/follow', { following: bob.id });
    const group = (await call(alice, 'POST', '/group', { name: 'demo_garden', description: 'Plants, seeds and soil' })) as { group: { _id: string } };
    await storeAvatar(app, 'gp', group.group._id, await picture(4));
    await call(alice, 'POST', '/group', { name: 'demo_secret', description: 'A private group', isPrivate: true, requestJoin: true });
    await call(bob, 'PUT', '/group/demo_garden/join');
    await call(carol, 'PUT', '/group/demo_garden/join');
    const post = (await call(alice, 'POST', '/post', { text: 'Hello from the demo garden #kruh', groups: ['demo_garden'], mentions: ['bob'] })) as { _id: string };
    const viewer = await app.viewerFromToken(alice.token);
    await uploadContentImage(contextOf(app), viewer, { file: await picture(2.5, 640), fields: { id: post._id, index: '0' } });
    await call(bob, 'PATCH', `/post/${post._id}/like`, { liked: true });
    await call(carol, 'PATCH', `/post/${post._id}/like`, { liked: true });
    const comment = (await call(bob, 'POST', '/comment/', { text: 'Lovely picture!', parent: post._id })) as { _id: string };
    await call(alice, 'POST', '/comment/', { text: 'Thanks @carol, look', parent: comment._id, mentions: ['carol'] });
    await call(carol, 'POST', '/post', { text: 'Reading about seeds on a rainy afternoon', replyingTo: post._id });
    await call(bob, 'POST', '/post', { text: 'Coffee with @alice later?', mentions: ['alice'] });
    // Deliver the notifications those calls queued.
    for (let i = 0; i < 20 && (await runDueJobs(app)) !== 0; i++);
    console.log(`Demo users: sign in as ${DEMO_USERS.join(', ')} (or NAME@demo.test) with the password "${DEMO_PASSWORD}"`);
    console.log(`Start the server on this data: ${databaseUrl ? `DATABASE_URL=${databaseUrl} ` : ''}DATA_DIR=${dataDir} npm start`);
  } finally {
    await app.close();
  }
}

try {
  await main();
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
}
