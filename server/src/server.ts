import closeWithGrace from 'close-with-grace';
import { buildApp } from './app.js';
import { ConfigError, loadConfig, loadDotEnv } from './config.js';
import { openDatabase } from './db/database.js';

/** Reads the config (.env first, when there is one), builds the app, listens, and closes cleanly on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  let config;
  try {
    loadDotEnv();
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const database = openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  const app = await buildApp({ config, database });
  closeWithGrace({ delay: 10_000 }, async ({ err }) => {
    if (err) app.log.error({ err }, 'shutting down after an error');
    await app.close();
  });
  await app.listen({ port: config.port, host: config.host });
}

void main();
