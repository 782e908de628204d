import { loadConfig, loadDotEnv } from '../config.js';
import { missingDatabaseMessage, openDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrator.js';

/** `npm run migrate`: brings the configured database to the latest schema and exits. */
loadDotEnv();
const config = loadConfig();
const database = openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
try {
  const applied = await migrateToLatest(database.db);
  console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date.');
} catch (err) {
  const message = missingDatabaseMessage(err, config.databaseUrl);
  if (message === undefined) throw err;
  console.error(message);
  process.exitCode = 1;
} finally {
  await database.close();
}
