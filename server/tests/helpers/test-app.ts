import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { type BuildOptions, buildApp } from '../../src/app';
import { type Config, loadConfig } from '../../src/config';
import { openDatabase } from '../../src/db/database';

/** Which database the current Vitest project runs the server tests on. */
export const TEST_DB = process.env.KRUH_TEST_DB === 'postgres' ? 'postgres' : 'sqlite';

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  close(): Promise<void>;
}

/**
 * A fresh app on a fresh database: a new SQLite file in a temp folder, or a new PostgreSQL schema
 * (dropped with the rest of the run's schemas by the global teardown), so test files run in
 * parallel without seeing each other's rows.
 */
export async function createTestApp(env: Record<string, string> = {}, build: Pick<BuildOptions, 'onRoute'> = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'kruh-test-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    JWT_SECRET: randomBytes(32).toString('hex'),
    PUBLIC_URL: 'http://kruh.test',
    WEB_DIR: join(dataDir, 'no-web'),
    LOG_LEVEL: 'silent',
    RUN_WORKER: 'false',
    ...env,
  });
  let database;
  if (TEST_DB === 'postgres') {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) throw new Error('TEST_DATABASE_URL is required for the PostgreSQL test project');
    const schema = `t_${process.env.KRUH_TEST_RUN ?? 'adhoc'}_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.end();
    // public stays on the path for the pg_trgm functions installed there once (global setup).
    database = openDatabase({ url, dataDir, schema: `${schema},public`, poolSize: 4 });
    config.databaseUrl = url;
  } else {
    database = openDatabase({ dataDir });
  }
  const app = await buildApp({ config, database, logger: false, ...build });
  await app.ready();
  return {
    app,
    config,
    async close() {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
