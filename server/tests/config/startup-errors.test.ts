import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { missingDatabaseMessage } from '../../src/db/database';
import { startS3 } from '../helpers/s3';
import { typeScriptServerArgs } from '../helpers/server-process';
import { TEST_DB } from '../helpers/test-app';
import { freePort } from '../helpers/free-port';

/** Runs the server program until it exits on its own: its exit code and what it wrote to stderr. */
async function runServer(env: Record<string, string>, dir: string): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, typeScriptServerArgs(), {
    cwd: dir,
    env: { PATH: process.env.PATH, DATA_DIR: join(dir, 'data'), WEB_DIR: join(dir, 'no-web'), HOST: '127.0.0.1', PORT: String(await freePort()), ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // A server that starts after all is ended, so the failing test leaves no process behind.
  const timer = setTimeout(() => child.kill('SIGKILL'), 40_000);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  clearTimeout(timer);
  return { code, stderr };
}

/** What an operator must fix before the server can start is told in one line, never a stack trace. */
describe('a start that cannot succeed', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'kruh-start-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('names a missing PostgreSQL database and the command that creates it, without the password', () => {
    const missing = Object.assign(new Error('database "kruh" does not exist'), { code: '3D000' });
    expect(missingDatabaseMessage(missing, 'postgres://kruh:db-secret@db.internal:5433/kruh')).toBe(
      'database kruh does not exist: create it with `createdb -h db.internal -p 5433 -U kruh kruh` (or point DATABASE_URL at one that does)',
    );
    expect(missingDatabaseMessage(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }), 'postgres://db/kruh')).toBeUndefined();
    expect(missingDatabaseMessage(missing, undefined)).toBeUndefined();
  });

  it.skipIf(TEST_DB !== 'postgres')('stops with one line when the PostgreSQL database does not exist', async () => {
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/kruh_missing_${process.pid}_${Date.now()}`;
    const { code, stderr } = await runServer({ DATABASE_URL: url.href, JWT_SECRET: 'x'.repeat(40) }, tempDir());
    expect(code).toBe(1);
    const name = url.pathname.slice(1);
    expect(stderr.trim()).toMatch(new RegExp(`^database ${name} does not exist: create it with \`createdb -h ${url.hostname} .*${name}\``));
    expect(stderr.trim().split('\n')).toHaveLength(1);
  }, 60_000);

  it.skipIf(TEST_DB !== 'sqlite')('stops with one line naming the bucket and its endpoint when the bucket does not exist', async () => {
    const s3 = await startS3();
    try {
      const { code, stderr } = await runServer({ ...s3.env, S3_BUCKET: 'no-such-bucket' }, tempDir());
      expect(code).toBe(1);
      expect(stderr.trim()).toBe(`S3 bucket no-such-bucket does not exist at ${s3.endpoint}: create it, or set S3_BUCKET to one that does`);
    } finally {
      await s3.close();
    }
  }, 60_000);
});
