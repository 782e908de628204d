import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/db/database';
import { migrateToLatest } from '../../src/db/migrator';
import { FINGERPRINT_ENV, TEMPLATE_ENV, createTestDatabase, runPrefix, schemaFingerprint, withAdmin } from './pg-test-database';

/**
 * Names this run, and migrates one template database (with pg_trgm) that every test app's database
 * is copied from; at the end drops every database the run made, the template last.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DATABASE_URL is required for the PostgreSQL test projects');
  // Workers are started after global setup and inherit both.
  process.env.KRUH_TEST_RUN = randomBytes(4).toString('hex');
  delete process.env[TEMPLATE_ENV];
  delete process.env[FINGERPRINT_ENV];
  const templateUrl = await createTestDatabase(base);
  const dataDir = mkdtempSync(join(tmpdir(), 'kruh-template-'));
  const database = openDatabase({ url: templateUrl, dataDir, poolSize: 1 });
  try {
    await migrateToLatest(database.db);
  } finally {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  process.env[FINGERPRINT_ENV] = await withAdmin(templateUrl, schemaFingerprint);
  process.env[TEMPLATE_ENV] = new URL(templateUrl).pathname.slice(1);

  return async () => {
    await withAdmin(base, async (client) => {
      const { rows } = await client.query<{ datname: string }>(
        `SELECT datname FROM pg_database WHERE datname LIKE $1 ORDER BY datname = $2`,
        [`${runPrefix().replaceAll('_', '\\_')}%`, process.env[TEMPLATE_ENV]],
      );
      for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    });
  };
}
