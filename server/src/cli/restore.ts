import { join, resolve } from 'node:path';
import process from 'node:process';
import { JWT_SECRET_FILE, loadConfig, loadDotEnv, LOCAL_MEDIA_FOLDER } from '../config.js';
import { postgresAdvice, restoreSqlite } from '../db/backup.js';

/**
 * `npm run restore -- <backup folder>`: puts what `npm run backup` wrote into DATA_DIR, which must
 * hold no database yet; then start the server on it.
 */
const USAGE = 'usage: npm run restore -- <folder npm run backup wrote>   (into DATA_DIR, which must hold no database)';
const args = process.argv.slice(2);
if (args.length !== 1 || args[0]!.startsWith('-')) {
  console.error(USAGE);
  process.exit(2);
}
loadDotEnv();
const config = loadConfig();
const bucket = config.mediaStorage.kind === 's3' ? config.mediaStorage.bucket : null;
const parts = { media: bucket ? null : LOCAL_MEDIA_FOLDER, secret: JWT_SECRET_FILE };
if (config.databaseUrl) {
  console.error(postgresAdvice('restore', bucket, join(config.dataDir, LOCAL_MEDIA_FOLDER)));
  process.exit(2);
}
const folder = resolve(args[0]!);
try {
  const report = await restoreSqlite(folder, config.dataDir, parts);
  const media =
    bucket
      ? `media: left in ${folder} (MEDIA_STORAGE=s3: npm run media:migrate -- --from <its media folder> copies it into the bucket)`
      : `media: ${report.mediaFiles ?? 0} files`;
  console.log(`Restored ${folder} into ${config.dataDir}: the database, ${media}${report.secret ? ', the session secret' : ''}.`);
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
}
