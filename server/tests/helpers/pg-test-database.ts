import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * A PostgreSQL database per test app, copied from a template the global setup migrated once.
 *
 * A database rather than a schema: Kysely's migrator reads the tables of every schema it can see,
 * so one file's migration running beside another's could fail it; in a database of its own it sees
 * only its own. And copying a migrated template is several times quicker than migrating each time.
 */

/** Names every database this run makes, so the global teardown can drop what a test left behind. */
export function runPrefix(): string {
  return `kruh_t_${process.env.KRUH_TEST_RUN ?? 'adhoc'}_`;
}

/** The template's name, set by the global setup; without one (a run without it) a database starts empty. */
export const TEMPLATE_ENV = 'KRUH_TEST_PG_TEMPLATE';

export function databaseUrl(base: string, name: string): string {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.href;
}

export async function withAdmin<T>(base: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** A new database of this run, migrated when the template is there; its URL. */
export async function createTestDatabase(base: string): Promise<string> {
  const name = `${runPrefix()}${randomBytes(6).toString('hex')}`;
  const template = process.env[TEMPLATE_ENV];
  await withAdmin(base, async (client) => {
    for (let attempt = 1; ; attempt += 1) {
      try {
        await client.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
        return;
      } catch (err) {
        // 55006: something else is connected to the template for a moment (another copy starting).
        if ((err as { code?: string }).code !== '55006' || attempt >= 20) throw err;
        await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
      }
    }
  });
  const url = databaseUrl(base, name);
  if (!template) await withAdmin(url, (client) => client.query('CREATE EXTENSION IF NOT EXISTS pg_trgm'));
  return url;
}

/**
 * Drops a database this run made once its app has closed. Not WITH (FORCE): a connection the
 * server is still closing would be cut mid-goodbye, and its pool would raise the cut as an error
 * nobody listens for. While something is still connected the drop is tried again for a while, then
 * left to the global teardown, which forces it once every worker has gone.
 */
export async function dropTestDatabase(base: string, url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  if (!name.startsWith(runPrefix())) throw new Error(`not a database of this test run: ${name}`);
  await withAdmin(base, async (client) => {
    for (let attempt = 1; attempt <= 20; attempt += 1) {
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name}`);
        return;
      } catch (err) {
        // 55006: still in use.
        if ((err as { code?: string }).code !== '55006') throw err;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  });
}
