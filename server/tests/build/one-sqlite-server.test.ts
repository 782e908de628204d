import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database';
import { DatabaseInUseError } from '../../src/db/sqlite-lock';
import { freePort } from '../helpers/free-port';
import { typeScriptServerArgs } from '../helpers/server-process';
import { TEST_DB } from '../helpers/test-app';

const run = promisify(execFile);
const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const databaseModule = new URL('../../src/db/database.ts', import.meta.url).href;

/**
 * One server process per SQLite file: a second one on the same file is refused at start with a
 * message that says why and what to do, rather than both answering `database is locked` failures.
 */
describe.skipIf(TEST_DB !== 'sqlite')('one server on a SQLite file', () => {
  let folder = '';
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'kruh-one-server-'));
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('refuses a second holder in the same process until the first closes', async () => {
    const dataDir = join(folder, 'same-process');
    const first = openDatabase({ dataDir, soleServer: true });
    expect(() => openDatabase({ dataDir, soleServer: true })).toThrow(DatabaseInUseError);
    // Tools and tests that do not ask to be the only server still open it.
    const tool = openDatabase({ dataDir });
    await tool.close();
    await first.close();
    const again = openDatabase({ dataDir, soleServer: true });
    await again.close();
  });

  it('a server process on a data folder another process holds exits with the reason; once the holder dies, the file is free', async () => {
    const dataDir = join(folder, 'data');
    // The holder opens the database as the server does (soleServer), and no more: a server's own
    // start would cost this test most of its time. It keeps no reference to what it opened, and
    // collects garbage: the lock must hold all the same.
    const holder = spawn(
      process.execPath,
      [
        '--expose-gc',
        '--import',
        tsx,
        '--input-type=module',
        '-e',
        `const { openDatabase } = await import(${JSON.stringify(databaseModule)}); openDatabase({ dataDir: ${JSON.stringify(dataDir)}, soleServer: true }); gc(); console.log('held'); setInterval(() => {}, 60_000);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      await new Promise<void>((resolve, reject) => {
        holder.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('held') && resolve());
        holder.once('exit', (code) => reject(new Error(`the holder exited with ${code}`)));
      });
      const env = { PATH: process.env.PATH, DATA_DIR: dataDir, WEB_DIR: join(folder, 'no-web'), LOG_LEVEL: 'warn', PORT: String(await freePort()), HOST: '127.0.0.1' };
      // Bounded: a server that is not refused would otherwise run until the test times out.
      const refused = await run(process.execPath, typeScriptServerArgs(), { cwd: folder, env, timeout: 90_000 }).then(
        () => ({ code: 0, stderr: '' }),
        (error: { code: number | null; stderr: string }) => error,
      );
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`Another Kruh server (process ${holder.pid}) is already running on the SQLite database ${join(dataDir, 'kruh.sqlite')}`);
      expect(refused.stderr).toContain('DATA_DIR');
    } finally {
      // Killed outright, it cleans nothing up.
      const exited = new Promise((resolve) => holder.once('exit', resolve));
      holder.kill('SIGKILL');
      await exited;
    }
    // The lock went with the process: no stale lock file to delete by hand.
    const next = openDatabase({ dataDir, soleServer: true });
    await next.close();
  }, 120_000);
});
