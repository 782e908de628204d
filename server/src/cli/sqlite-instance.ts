import { join } from 'node:path';
import process from 'node:process';
import { JWT_SECRET_FILE, loadConfig, loadDotEnv, LOCAL_MEDIA_FOLDER } from '../config.js';
import { postgresAdvice } from '../db/backup.js';

/**
 * What `npm run backup` and `npm run restore` start from: their arguments, checked (else the
 * usage and exit code 2), and the SQLite instance the settings name (.env included): its data
 * folder, its bucket when media go to one, and the parts beside the database they copy. On
 * PostgreSQL each says what to run instead and exits with 2, so a scheduled run does not pass for
 * a backup.
 */
export function sqliteInstanceFor(tool: 'backup' | 'restore', usage: string, argsFit: (args: string[]) => boolean) {
  const args = process.argv.slice(2);
  if (!argsFit(args)) {
    console.error(usage);
    process.exit(2);
  }
  loadDotEnv();
  const config = loadConfig();
  const bucket = config.mediaStorage.kind === 's3' ? config.mediaStorage.bucket : null;
  if (config.databaseUrl) {
    console.error(postgresAdvice(tool, bucket, join(config.dataDir, LOCAL_MEDIA_FOLDER)));
    process.exit(2);
  }
  return { args, dataDir: config.dataDir, bucket, parts: { media: bucket ? null : LOCAL_MEDIA_FOLDER, secret: JWT_SECRET_FILE } };
}

/** Runs the copy and prints what it says it did; a failure is told in one line, with exit code 1. */
export async function tellCopy(copy: () => Promise<string>): Promise<void> {
  try {
    console.log(await copy());
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 1;
  }
}
