import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { type BuildOptions, buildApp } from '../../src/app';
import { type Config, loadConfig } from '../../src/config';
import { type DatabaseHandle, openDatabase } from '../../src/db/database';
import { createTestDatabase, releaseTestDatabase } from './pg-test-database';
import { makeTestKeyPair } from './test-keys';

/** Which database the current Vitest project runs the server tests on. */
export const TEST_DB = process.env.KRUH_TEST_DB === 'postgres' ? 'postgres' : 'sqlite';

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  /** The app's database, for a second app on the same data (another server process). */
  database: DatabaseHandle;
  close(): Promise<void>;
}

/**
 * A fresh app on a fresh database: a new SQLite file in a temp folder, or a new PostgreSQL database
 * copied from the run's migrated template (dropped when the app closes), so test files run in
 * parallel without seeing each other's rows.
 */
export interface TestAppOptions extends Pick<BuildOptions, 'onRoute' | 'resolve' | 'logStream' | 'events' | 'makeKeyPair'> {
  /** Told the SQL of every statement the app runs. */
  onQuery?: (sql: string) => void;
}

export async function createTestApp(env: Record<string, string> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const { onQuery, ...build } = options;
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
  let database: DatabaseHandle;
  const base = process.env.TEST_DATABASE_URL;
  if (TEST_DB === 'postgres') {
    if (!base) throw new Error('TEST_DATABASE_URL is required for the PostgreSQL test project');
    // Siblings (a second process on the same data) open config.databaseUrl.
    config.databaseUrl = await createTestDatabase(base);
    database = openDatabase({ url: config.databaseUrl, dataDir, poolSize: 4, onQuery });
  } else {
    database = openDatabase({ dataDir, onQuery });
  }
  // Silent unless the test reads the log lines (with a LOG_LEVEL of its own).
  const app = await buildApp({ config, database, logger: build.logStream !== undefined, makeKeyPair: makeTestKeyPair, ...build });
  await app.ready();
  return {
    app,
    config: app.config,
    database,
    async close() {
      const undeclared = [...new Set(app.undeclaredErrors)];
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
      if (base && TEST_DB === 'postgres' && config.databaseUrl) await releaseTestDatabase(base, config.databaseUrl);
      // Every refusal a test provoked must be one the route's contract entry lists.
      if (undeclared.length > 0) throw new Error(`error keys missing from core/api:\n${undeclared.join('\n')}`);
    },
  };
}

/**
 * The app of one describe block (or of a whole file, called at its top): made fresh before the
 * block's tests and closed after them, which also fails the block on an error key its routes do
 * not declare. A `beforeAll` registered after this call already sees the app, so it may add rows.
 * `app` and `config` are there only inside tests and hooks. `env` may be a function, called then.
 */
export function useTestApp(env: Record<string, string> | (() => Record<string, string>) = {}, build: TestAppOptions = {}): TestApp {
  let current: TestApp | undefined;
  beforeAll(async () => {
    // A function is read when the app is made: settings of a service another hook started (S3).
    current = await createTestApp(typeof env === 'function' ? env() : env, build);
  });
  afterAll(async () => {
    await current?.close();
  });
  const open = (): TestApp => {
    if (!current) throw new Error('the test app is made in beforeAll: use it inside a test or a hook');
    return current;
  };
  return {
    get app() {
      return open().app;
    },
    get config() {
      return open().config;
    },
    get database() {
      return open().database;
    },
    // Closed once: the block's afterAll then has nothing left to close.
    async close() {
      const closing = open();
      current = undefined;
      await closing.close();
    },
  };
}
