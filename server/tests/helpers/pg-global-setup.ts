import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * Installs pg_trgm once in public, so per-test schemas can use it, and names this run so its
 * schemas can be dropped together at the end. Schemas are not dropped while tests run: Kysely's
 * migrator introspects every schema, and a schema vanishing mid-introspection fails another file.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is required for the PostgreSQL test project');
  const run = randomBytes(4).toString('hex');
  // Workers are started after global setup and inherit this.
  process.env.KRUH_TEST_RUN = run;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public');
  } finally {
    await client.end();
  }
  return async () => {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ nspname: string }>(
        `SELECT nspname FROM pg_namespace WHERE nspname LIKE $1`,
        [`t\\_${run}\\_%`],
      );
      for (const { nspname } of rows) await admin.query(`DROP SCHEMA IF EXISTS ${nspname} CASCADE`);
    } finally {
      await admin.end();
    }
  };
}
