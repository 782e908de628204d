import { describe, expect, it } from 'vitest';
import { createTestDatabase, releaseTestDatabase, withAdmin } from '../helpers/pg-test-database';
import { TEST_DB } from '../helpers/test-app';

/**
 * The test apps' PostgreSQL databases are emptied and used again: a test must still start from the
 * template's state, whatever the one before it left.
 */
describe.runIf(TEST_DB === 'postgres')('test databases used again', () => {
  const base = process.env.TEST_DATABASE_URL!;
  const count = (url: string, table: string) => withAdmin(url, async (client) => (await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]!.n);

  it('hands the next app an emptied database, its migrations kept and its sequences started again', async () => {
    const url = await createTestDatabase(base);
    const migrations = await count(url, 'kysely_migration');
    const firstJobId = await withAdmin(url, async (client) => {
      const { rows } = await client.query<{ id: number }>(`INSERT INTO jobs (kind, payload, run_at, created_at) VALUES ('k', '{}', 1, 1) RETURNING id`);
      return rows[0]!.id;
    });
    await releaseTestDatabase(base, url);

    const next = await createTestDatabase(base);
    expect(next).toBe(url);
    expect(await count(next, 'jobs')).toBe(0);
    expect(await count(next, 'kysely_migration')).toBe(migrations);
    const againId = await withAdmin(next, async (client) => (await client.query<{ id: number }>(`INSERT INTO jobs (kind, payload, run_at, created_at) VALUES ('k', '{}', 1, 1) RETURNING id`)).rows[0]!.id);
    expect(againId).toBe(firstJobId);
    await releaseTestDatabase(base, next);
  });

  it("leaves neither the last test's rows on disk nor its planner statistics", async () => {
    // A test that wrote thousands of rows left them as dead rows and its statistics as the planner's
    // picture: the next test's statements were planned for a table that was not there and read
    // every dead index entry (a search that took over 30 s).
    const url = await createTestDatabase(base);
    const emptySize = await withAdmin(url, async (client) => {
      const size = async () => (await client.query<{ bytes: string }>(`SELECT pg_total_relation_size('jobs') AS bytes`)).rows[0]!.bytes;
      const before = Number(await size());
      await client.query(`INSERT INTO jobs (kind, payload, run_at, created_at) SELECT 'k', '{}', g, g FROM generate_series(1, 20000) AS g`);
      await client.query('ANALYZE jobs');
      return before;
    });
    await releaseTestDatabase(base, url);

    const next = await createTestDatabase(base);
    expect(next).toBe(url);
    await withAdmin(next, async (client) => {
      const { rows } = await client.query<{ bytes: string }>(`SELECT pg_total_relation_size('jobs') AS bytes`);
      expect(Number(rows[0]!.bytes)).toBeLessThanOrEqual(emptySize);
      const stats = await client.query(`SELECT 1 FROM pg_stats WHERE schemaname = 'public' AND tablename = 'jobs'`);
      expect(stats.rowCount).toBe(0);
    });
    await releaseTestDatabase(base, next);
  });

  it('drops a database whose schema a test changed, and hands on none that something is still connected to', async () => {
    const altered = await createTestDatabase(base);
    await withAdmin(altered, (client) => client.query('ALTER TABLE jobs ADD COLUMN left_over text'));
    await releaseTestDatabase(base, altered);
    const fresh = await createTestDatabase(base);
    expect(fresh).not.toBe(altered);
    expect(await withAdmin(base, async (client) => (await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [new URL(altered).pathname.slice(1)])).rowCount)).toBe(0);

    const held = await withAdmin(fresh, async () => {
      // Released while this connection is still open: it may not be handed on.
      await releaseTestDatabase(base, fresh);
      return createTestDatabase(base);
    });
    expect(held).not.toBe(fresh);
    await releaseTestDatabase(base, held);
  });
});
