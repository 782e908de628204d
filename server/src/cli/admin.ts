import process from 'node:process';
import { loadConfig, loadDotEnv } from '../config.js';
import { ADMIN_USAGE, parseAdminArgs, runAdminCommand } from '../modules/reports/admin.js';
import { openDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrator.js';

/** `npm run admin -- --grant <username>` (or `--revoke`): instance moderators, on the configured database. */
const command = parseAdminArgs(process.argv.slice(2));
if (!command) {
  console.error(ADMIN_USAGE);
  process.exit(2);
}
loadDotEnv();
const config = loadConfig();
const database = openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
try {
  // The role column may be newer than the database: bring it up to date first, as the server would.
  await migrateToLatest(database.db);
  console.log(await runAdminCommand(database.db, command));
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
} finally {
  await database.close();
}
