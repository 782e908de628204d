import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import SQLite from 'better-sqlite3';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseLink, readMail } from '../auth/support';
import { multipartBody } from '../helpers/multipart';
import { type ServerProcess, startServerProcess, typeScriptArgs, typeScriptServerArgs } from '../helpers/server-process';
import { TEST_DB } from '../helpers/test-app';

const run = promisify(execFile);
const PASSWORD = 'Backed-up-passw0rd';

/** Runs `npm run backup` or `restore` (their TypeScript sources) with `env`; resolves to the exit code and output. */
function tool(name: 'backup' | 'restore', args: string[], cwd: string, env: Record<string, string | undefined>) {
  return run(process.execPath, [...typeScriptArgs(`cli/${name}.ts`), ...args], { cwd, env, timeout: 120_000 })
    .then(({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }))
    .catch((err: { code: number; stdout: string; stderr: string }) => ({ code: err.code, output: err.stdout + err.stderr }));
}

/**
 * `npm run backup` copies a running SQLite instance while it takes writes, and `npm run restore`
 * puts the copy into a new DATA_DIR on which a server finds every write acknowledged before the
 * backup began, the pictures, and the session secret (a token of the old server is good there).
 */
describe.skipIf(TEST_DB !== 'sqlite')('backup and restore', () => {
  let dir = '';
  let server: ServerProcess | undefined;
  let restored: ServerProcess | undefined;
  const env = (dataDir: string) => ({ PATH: process.env.PATH, DATA_DIR: dataDir, LOG_LEVEL: 'warn', WEB_DIR: join(dir, 'no-web'), RATE_SIGNUPS_PER_ADDRESS_PER_HOUR: '100000' });
  const post = (base: string, path: string, json: unknown, token?: string) =>
    fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(json) });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kruh-backup-'));
    server = await startServerProcess(typeScriptServerArgs(), { cwd: dir, env: env(join(dir, 'live')) });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await restored?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('backs up a running server under writes, and the restored copy holds every acknowledged write', async () => {
    const live = server!;
    // An account with a session and a picture, from before the backup.
    const email = 'keeper@example.test';
    expect((await post(live.url, '/api/auth/signup', { username: 'keeper', email, password: PASSWORD })).status).toBe(201);
    const mail = await vi.waitFor(() => readMail(join(dir, 'live'), email), { timeout: 20_000, interval: 20 });
    const { token: verifyToken } = parseLink(mail.link);
    expect((await fetch(`${live.url}/api/auth/verify?${new URLSearchParams({ token: verifyToken, email })}`)).status).toBe(200);
    const session = (await (await post(live.url, '/api/auth/login', { username: 'keeper', password: PASSWORD })).json()) as { token: string };
    const picture = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#cc2200' } }).png().toBuffer();
    const form = multipartBody({}, [{ field: 'pfp', filename: 'me.png', contentType: 'image/png', data: picture }]);
    const upload = await fetch(`${live.url}/api/upload/pfp`, { method: 'POST', headers: { authorization: `Bearer ${session.token}`, ...form.headers }, body: new Uint8Array(form.payload) });
    expect(upload.status).toBe(201);
    const avatarUrl = ((await upload.json()) as { url: string }).url;
    const avatar = Buffer.from(await (await fetch(`${live.url}${avatarUrl}`)).arrayBuffer());

    // Two writers sign people up until told to stop; each acknowledged sign-up is a write to find.
    const acknowledged: { username: string; at: number }[] = [];
    let writing = true;
    let n = 0;
    const writer = async () => {
      while (writing) {
        const username = `writer${n++}`;
        const res = await post(live.url, '/api/auth/signup', { username, email: `${username}@example.test`, password: PASSWORD });
        expect(res.status).toBe(201);
        acknowledged.push({ username, at: Date.now() });
      }
    };
    const writers = [writer(), writer()];
    await vi.waitFor(() => expect(acknowledged.length).toBeGreaterThanOrEqual(20), { timeout: 30_000, interval: 50 });

    let started = 0;
    let ended = 0;
    let before: string[];
    try {
      started = Date.now();
      before = acknowledged.map((write) => write.username);
      const backup = await tool('backup', [join(dir, 'backup')], dir, env(join(dir, 'live')));
      ended = Date.now();
      expect(backup.code, backup.output).toBe(0);
      expect(backup.output).toContain('the session secret');
      // The writes went on while the backup ran.
      await vi.waitFor(() => expect(acknowledged.some((write) => write.at > ended)).toBe(true), { timeout: 30_000, interval: 50 });
    } finally {
      writing = false;
      await Promise.allSettled(writers);
    }
    expect(acknowledged.some((write) => write.at > started && write.at < ended), 'a write acknowledged during the backup').toBe(true);
    expect(readdirSync(join(dir, 'backup')).sort()).toEqual(['jwt-secret', 'kruh.sqlite', 'media']);

    const restore = await tool('restore', [join(dir, 'backup')], dir, env(join(dir, 'restored')));
    expect(restore.code, restore.output).toBe(0);
    const copy = new SQLite(join(dir, 'restored/kruh.sqlite'), { readonly: true });
    const usernames = new Set(copy.prepare('SELECT username FROM users').pluck().all() as string[]);
    copy.close();
    for (const username of before) expect(usernames.has(username), username).toBe(true);

    restored = await startServerProcess(typeScriptServerArgs(), { cwd: dir, env: env(join(dir, 'restored')) });
    expect((await post(restored.url, '/api/auth/test', {}, session.token)).status).toBe(200);
    const served = await fetch(`${restored.url}${avatarUrl}`);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(avatar)).toBe(true);

    // Never over a database: a second restore into the same folder is refused.
    const again = await tool('restore', [join(dir, 'backup')], dir, env(join(dir, 'restored')));
    expect(again.code).toBe(1);
    expect(again.output).toContain('already holds a database');
  }, 180_000);

  it('on PostgreSQL says to use pg_dump and names the bucket, and fails', async () => {
    const result = await tool('backup', [], dir, {
      PATH: process.env.PATH,
      DATABASE_URL: 'postgres://kruh@127.0.0.1:1/kruh',
      JWT_SECRET: 'x'.repeat(32),
      MEDIA_STORAGE: 's3',
      S3_BUCKET: 'kruh-media-of-this-instance',
    });
    expect(result.code).toBe(2);
    expect(result.output).toContain('pg_dump');
    expect(result.output).toContain('kruh-media-of-this-instance');
  });
});
