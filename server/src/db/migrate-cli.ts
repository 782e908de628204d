import { loadConfig } from '../config';
import { openDatabase } from './database';
import { migrateToLatest } from './migrator';

/** `npm run migrate`: brings the configured database to the latest schema and exits. */
const config = loadConfig();
const database = openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
try {
  const applied = await migrateToLatest(database.db);
  console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date.');
} finally {
  await database.close();
}
