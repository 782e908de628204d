import closeWithGrace from 'close-with-grace';
import { buildApp } from './app.js';
import { ConfigError, loadConfig, loadDotEnv, startupMessage, startupSummary } from './config.js';
import { missingDatabaseMessage, openDatabase } from './db/database.js';
import { DatabaseInUseError } from './db/sqlite-lock.js';
import { MissingMediaStoreError } from './lib/storage.js';
import packageJson from '../../package.json' with { type: 'json' };

/** The line that tells the operator what to fix, when the failure is one they must fix before a start can succeed. */
function operatorMessage(err: unknown, databaseUrl: string | undefined): string | undefined {
  if (err instanceof ConfigError || err instanceof DatabaseInUseError || err instanceof MissingMediaStoreError) return err.message;
  return missingDatabaseMessage(err, databaseUrl);
}

/** Such a failure ends the start with its message alone (no stack) and exit code 1. */
async function orExit<T>(step: () => T | Promise<T>, databaseUrl?: string): Promise<T> {
  try {
    return await step();
  } catch (err) {
    const message = operatorMessage(err, databaseUrl);
    if (message === undefined) throw err;
    console.error(message);
    process.exit(1);
  }
}

/** Reads the config (.env first, when there is one), builds the app, listens, and closes cleanly on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  const config = await orExit(() => {
    loadDotEnv();
    return loadConfig();
  });
  // On SQLite, a second server on the same file is refused here, before it migrates or listens.
  const database = await orExit(() => openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, soleServer: true }));
  // The first statement (migrating) finds a missing PostgreSQL database; getting ready, a missing bucket.
  const app = await orExit(() => buildApp({ config, database }), config.databaseUrl);
  closeWithGrace({ delay: 10_000 }, async ({ err }) => {
    if (err) app.log.error({ err }, 'shutting down after an error');
    await app.close();
  });
  await orExit(() => app.listen({ port: config.port, host: config.host }), config.databaseUrl);
  const summary = startupSummary(config, packageJson.version);
  app.log.info({ startup: summary }, startupMessage(summary));
}

void main();
