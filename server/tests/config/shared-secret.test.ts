import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { openDatabase } from '../../src/db/database';
import { createUser } from '../helpers/fixtures';
import { createTestDatabase } from '../helpers/pg-test-database';
import { TEST_DB } from '../helpers/test-app';

/**
 * Two server processes without JWT_SECRET: each is an app with its own data folder and its own
 * connection pool, as two machines would be.
 */
describe('the session secret without JWT_SECRET', () => {
  const apps: FastifyInstance[] = [];
  const folders: string[] = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  });

  /** An app as a process would start it: the environment read, the database opened, the app built. */
  async function startProcess(env: Record<string, string>): Promise<FastifyInstance> {
    const dataDir = env.DATA_DIR ?? mkdtempSync(join(tmpdir(), 'kruh-secret-'));
    if (!env.DATA_DIR) folders.push(dataDir);
    const config = loadConfig({ DATA_DIR: dataDir, PUBLIC_URL: 'http://kruh.test', WEB_DIR: join(dataDir, 'no-web'), LOG_LEVEL: 'silent', RUN_WORKER: 'false', ...env });
    const database = openDatabase({ url: config.databaseUrl, dataDir, poolSize: 2 });
    const app = await buildApp({ config, database, logger: false });
    apps.push(app);
    return app;
  }

  describe.runIf(TEST_DB === 'postgres')('on PostgreSQL, kept in the database', () => {
    const base = process.env.TEST_DATABASE_URL ?? '';

    it('is the same on every process: a token from one is taken by another', async () => {
      const url = await createTestDatabase(base);
      const a = await startProcess({ DATABASE_URL: url });
      const b = await startProcess({ DATABASE_URL: url });
      const user = await createUser(a);
      const res = await b.inject({ method: 'POST', url: '/api/auth/test', headers: user.auth });
      expect(res.statusCode).toBe(200);
      expect(b.config.jwtSecret).toBe(a.config.jwtSecret);
      expect(a.config.jwtSecret.length).toBeGreaterThanOrEqual(32);
    });

    it('is settled once when two processes start at the same moment', async () => {
      const url = await createTestDatabase(base);
      const [a, b, c] = await Promise.all([1, 2, 3].map(() => startProcess({ DATABASE_URL: url })));
      expect(b!.config.jwtSecret).toBe(a!.config.jwtSecret);
      expect(c!.config.jwtSecret).toBe(a!.config.jwtSecret);
      // A restart reads it back rather than making a new one.
      const later = await startProcess({ DATABASE_URL: url });
      expect(later.config.jwtSecret).toBe(a!.config.jwtSecret);
    });

    it('JWT_SECRET still wins, and is not written to the database', async () => {
      const url = await createTestDatabase(base);
      const configured = 'c'.repeat(40);
      const a = await startProcess({ DATABASE_URL: url, JWT_SECRET: configured });
      expect(a.config.jwtSecret).toBe(configured);
      const b = await startProcess({ DATABASE_URL: url });
      expect(b.config.jwtSecret).not.toBe(configured);
      const user = await createUser(a);
      const res = await b.inject({ method: 'POST', url: '/api/auth/test', headers: user.auth });
      expect(res.statusCode).toBe(401);
    });
  });

  describe.runIf(TEST_DB === 'sqlite')('on SQLite, kept in the data folder', () => {
    it('is read back from the folder by the next start', async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'kruh-secret-'));
      folders.push(dataDir);
      const first = await startProcess({ DATA_DIR: dataDir });
      const user = await createUser(first);
      await first.close();
      apps.splice(apps.indexOf(first), 1);
      const second = await startProcess({ DATA_DIR: dataDir });
      expect(second.config.jwtSecret).toBe(first.config.jwtSecret);
      const res = await second.inject({ method: 'POST', url: '/api/auth/test', headers: user.auth });
      expect(res.statusCode).toBe(200);
    });
  });
});
