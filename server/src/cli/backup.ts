import { join, resolve } from 'node:path';
import { backUpSqlite } from '../db/backup.js';
import { sqliteInstanceFor, tellCopy } from './sqlite-instance.js';

/**
 * `npm run backup [-- <folder>]`: copies a SQLite instance's database, media folder and session
 * secret into a new folder (by default backups/<date and time>), while the server runs. On
 * PostgreSQL it says what to run instead and exits with 2, so a scheduled backup does not pass
 * for one.
 */
const { args, dataDir, bucket, parts } = sqliteInstanceFor('backup', 'usage: npm run backup [-- <new folder>]', (given) => given.length <= 1 && !given[0]?.startsWith('-'));
const folder = resolve(args[0] ?? join('backups', new Date().toISOString().replace(/:/g, '-').replace(/\.\d+Z$/, 'Z')));
await tellCopy(async () => {
  const report = await backUpSqlite(dataDir, folder, parts);
  const media =
    bucket
      ? `media: in the bucket ${bucket}, which this does not copy (use your S3 tools)`
      : `media: ${report.mediaFiles ?? 0} files`;
  const secret = report.secret ? 'the session secret' : 'no session secret file (JWT_SECRET is set: keep your settings too)';
  return `Backed up ${dataDir} to ${folder}: the database (${report.databaseBytes} bytes, checked), ${media}, ${secret}.`;
});
