import pg from 'pg';

/** Installs pg_trgm once in public, so per-test schemas can be dropped without losing it. */
export default async function setup(): Promise<void> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is required for the PostgreSQL test project');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public');
    await client.query('CREATE EXTENSION IF NOT EXISTS unaccent WITH SCHEMA public');
  } finally {
    await client.end();
  }
}
