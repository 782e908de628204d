import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freshBuild } from './compiled-build';
import { type ServerProcess, startServerProcess, typeScriptServerArgs } from './server-process';

/**
 * Real server processes on one PostgreSQL database, as a deployment of several runs them. The
 * database is one of its own, not a schema: the server takes only DATABASE_URL, like a deployment.
 */

/**
 * The server as process `name`, in a folder of its own (its data folder inside): the last build's
 * when it is of the current sources (as in CI, which builds first), which starts in a fraction of
 * the time, else the TypeScript sources as `npm run dev:server` runs them.
 */
export interface FolderProcess {
  name: string;
  folder: string;
  dataDir: string;
  server: ServerProcess;
}

export interface ProcessDatabase {
  url: string;
  /** Starts a server on this database; `env` adds to and overrides the deployment's settings. */
  start(name: string, env: Record<string, string>): Promise<FolderProcess>;
  /** Stops every process started, drops the database; the folders are the caller's. */
  close(): Promise<void>;
}

async function asAdmin(baseUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A new database on TEST_DATABASE_URL's server, named after `prefix`. */
export async function processDatabase(prefix: string): Promise<ProcessDatabase> {
  const baseUrl = process.env.TEST_DATABASE_URL ?? '';
  const database = `${prefix}_${randomBytes(6).toString('hex')}`;
  await asAdmin(baseUrl, `CREATE DATABASE ${database}`);
  const url = new URL(baseUrl);
  url.pathname = `/${database}`;
  const started: ServerProcess[] = [];
  return {
    url: url.href,
    async start(name, env) {
      const folder = mkdtempSync(join(tmpdir(), `${prefix}-${name}-`));
      const dataDir = join(folder, 'data');
      const build = freshBuild();
      const server = await startServerProcess(build ? [join(build, 'server/src/server.js')] : typeScriptServerArgs(), {
        cwd: folder,
        readyPath: '/api/health/ready',
        timeoutMs: 120_000,
        env: { PATH: process.env.PATH, DATABASE_URL: url.href, DATA_DIR: dataDir, WEB_DIR: join(folder, 'no-web'), LOG_LEVEL: 'warn', ...env },
      });
      started.push(server);
      return { name, folder, dataDir, server };
    },
    async close() {
      await Promise.all(started.map((server) => server.stop()));
      await asAdmin(baseUrl, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    },
  };
}
