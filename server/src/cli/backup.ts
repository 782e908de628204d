import { join, resolve } from 'node:path';
import process from 'node:process';
import { JWT_SECRET_FILE, loadConfig, loadDotEnv, LOCAL_MEDIA_FOLDER } from '../config.js';
import { backUpSqlite, postgresAdvice } from '../db/backup.js';

/**
 * `npm run backup [-- <folder>]`: copies a SQLite instance's database, media folder and session
 * secret into a new folder (by default backups/<date and time>), while the server runs. On
 * PostgreSQL it says what to run instead and exits with 2, so a scheduled backup does not pass
 * for one.
 */
const USAGE = 'usage: npm run backup [-- <new folder>]';
const args = process.argv.slice(2);
if (args.length > 1 || args[0]?.startsWith('-')) {
  console.error(USAGE);
  process.exit(2);
}
loadDotEnv();
const config = loadConfig();
const bucket = config.mediaStorage.kind === 's3' ? config.mediaStorage.bucket : null;
const parts = { media: bucket ? null : LOCAL_MEDIA_FOLDER, secret: JWT_SECRET_FILE };
if (config.databaseUrl) {
  console.error(postgresAdvice('backup', bucket, join(config.dataDir, LOCAL_MEDIA_FOLDER)));
  process.exit(2);
}
const folder = resolve(args[0] ?? join('backups', new Date().toISOString().replace(/:/g, '-').replace(/\.\d+Z$/, 'Z')));
try {
  const report = await backUpSqlite(config.dataDir, folder, parts);
  const media =
    bucket
      ? `media: in the bucket ${bucket}, which this does not copy (use your S3 tools)`
      : `media: ${report.mediaFiles ?? 0} files`;
  const secret = report.secret ? 'the session secret' : 'no session secret file (JWT_SECRET is set: keep your settings too)';
  console.log(`Backed up ${config.dataDir} to ${folder}: the database (${report.databaseBytes} bytes, checked), ${media}, ${secret}.`);
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
}
