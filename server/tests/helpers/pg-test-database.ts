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
/** The template's schema as `schemaFingerprint` reads it, set by the global setup beside its name. */
export const FINGERPRINT_ENV = 'KRUH_TEST_PG_FINGERPRINT';

/**
 * What a database's schema is made of (tables, indexes, sequences, views and their column counts,
 * functions, triggers), as one digest: a released database is used again only while it is the
 * template's, so a test that altered its schema cannot pass the change on.
 */
export async function schemaFingerprint(client: pg.Client): Promise<string> {
  const { rows } = await client.query<{ digest: string }>(`
    SELECT md5(coalesce(string_agg(item, ',' ORDER BY item), '')) AS digest FROM (
      SELECT c.relkind::text || ':' || c.relname || ':' || (SELECT count(*) FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped) AS item
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public'
      UNION ALL SELECT 'f:' || p.proname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'public'
      UNION ALL SELECT 't:' || t.tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND NOT t.tgisinternal
    ) AS parts`);
  return rows[0]!.digest;
}

/**
 * Databases this worker's apps are done with, emptied back to the template's state. Emptying one
 * takes a few milliseconds where copying the template took a third of a second, and a test file
 * makes an app per describe block, so most apps of a run reuse one.
 */
const spare: string[] = [];

/**
 * Emptying a table by TRUNCATE takes about 6 ms against well under one for DELETE, so only a table
 * past a few pages (thousands of rows) is rewritten; a handful of dead rows costs the next test nothing.
 */
const REWRITTEN_ABOVE_BYTES = 64 * 1024;

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
  const reused = spare.pop();
  if (reused) return reused;
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

/**
 * Hands back a database an app has closed: emptied and kept for the next app of this worker when its
 * schema is still the template's, else dropped. Only the migrator's own tables keep their rows, as
 * in the template, and the sequences start again. One that something is still connected to is left
 * alone: a second process still there could write into the next test's data, and dropping it would
 * wait on that connection, so the global teardown drops it.
 */
export async function releaseTestDatabase(base: string, url: string): Promise<void> {
  const fingerprint = process.env[FINGERPRINT_ENV];
  const name = new URL(url).pathname.slice(1);
  if (!fingerprint || !name.startsWith(runPrefix())) return dropTestDatabase(base, url);
  const outcome = await empty(url, name, fingerprint);
  if (outcome === 'emptied') spare.push(url);
  else if (outcome === 'changed') await dropTestDatabase(base, url);
}

async function empty(url: string, name: string, fingerprint: string): Promise<'emptied' | 'in use' | 'changed'> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    // A pool closing its last connection is gone within moments.
    for (let attempt = 0; ; attempt += 1) {
      const { rows } = await client.query<{ others: number }>(
        'SELECT count(*)::int AS others FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
        [name],
      );
      if (rows[0]!.others === 0) break;
      if (attempt >= 5) return 'in use';
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    if ((await schemaFingerprint(client)) !== fingerprint) return 'changed';
    const tables = await client.query<{ name: string; bytes: string }>(
      `SELECT tablename AS name, pg_relation_size(quote_ident(tablename)) AS bytes FROM pg_tables WHERE schemaname = 'public' AND tablename NOT LIKE 'kysely\\_%'`,
    );
    const sequences = await client.query<{ name: string }>(`SELECT sequencename AS name FROM pg_sequences WHERE schemaname = 'public'`);
    const isLarge = (t: { bytes: string }) => Number(t.bytes) > REWRITTEN_ABOVE_BYTES;
    const large = tables.rows.filter(isLarge).map((t) => client.escapeIdentifier(t.name));
    await client.query("SET lock_timeout = '2s'");
    await client.query('BEGIN');
    // A deleted row stays on disk, and in every index, until a vacuum: a table a test filled is
    // rewritten empty instead, so the next test's scans do not walk the last one's dead rows.
    if (large.length > 0) await client.query(`TRUNCATE ${large.join(', ')} CASCADE`);
    // Foreign keys are not checked while every table is emptied, so the order does not matter.
    await client.query('SET LOCAL session_replication_role = replica');
    for (const table of tables.rows) if (!isLarge(table)) await client.query(`DELETE FROM ${client.escapeIdentifier(table.name)}`);
    // The planner would otherwise go on picturing the last test's rows (autovacuum may have
    // analysed them), and choose its plans for a table that is no longer there, as a fresh
    // copy of the template never does.
    await client.query(`DELETE FROM pg_statistic WHERE starelid IN (SELECT c.oid FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public')`);
    for (const { name: sequence } of sequences.rows) await client.query(`ALTER SEQUENCE ${client.escapeIdentifier(sequence)} RESTART`);
    await client.query('COMMIT');
    return 'emptied';
  } catch {
    return 'changed';
  } finally {
    await client.end().catch(() => undefined);
  }
}
