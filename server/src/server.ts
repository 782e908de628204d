import closeWithGrace from 'close-with-grace';
import { buildApp } from './app.js';
import { ConfigError, loadConfig, loadDotEnv, startupMessage, startupSummary } from './config.js';
import { openDatabase } from './db/database.js';
import { DatabaseInUseError } from './db/sqlite-lock.js';
import packageJson from '../../package.json' with { type: 'json' };

/** What the operator must fix before a start can succeed: its message alone (no stack), and exit code 1. */
function orExit<T>(step: () => T): T {
  try {
    return step();
  } catch (err) {
    if (err instanceof ConfigError || err instanceof DatabaseInUseError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
}

/** Reads the config (.env first, when there is one), builds the app, listens, and closes cleanly on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  const config = orExit(() => {
    loadDotEnv();
    return loadConfig();
  });
  // On SQLite, a second server on the same file is refused here, before it migrates or listens.
  const database = orExit(() => openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, soleServer: true }));
  const app = await buildApp({ config, database });
  closeWithGrace({ delay: 10_000 }, async ({ err }) => {
    if (err) app.log.error({ err }, 'shutting down after an error');
    await app.close();
  });
  await app.listen({ port: config.port, host: config.host });
  const summary = startupSummary(config, packageJson.version);
  app.log.info({ startup: summary }, startupMessage(summary));
}

void main();
