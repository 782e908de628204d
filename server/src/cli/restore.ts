import { resolve } from 'node:path';
import { restoreSqlite } from '../db/backup.js';
import { sqliteInstanceFor, tellCopy } from './sqlite-instance.js';

/**
 * `npm run restore -- <backup folder>`: puts what `npm run backup` wrote into DATA_DIR, which must
 * hold no database yet; then start the server on it.
 */
const usage = 'usage: npm run restore -- <folder npm run backup wrote>   (into DATA_DIR, which must hold no database)';
const { args, dataDir, bucket, parts } = sqliteInstanceFor('restore', usage, (given) => given.length === 1 && !given[0]!.startsWith('-'));
const folder = resolve(args[0]!);
await tellCopy(async () => {
  const report = await restoreSqlite(folder, dataDir, parts);
  const media =
    bucket
      ? `media: left in ${folder} (MEDIA_STORAGE=s3: npm run media:migrate -- --from <its media folder> copies it into the bucket)`
      : `media: ${report.mediaFiles ?? 0} files`;
  return `Restored ${folder} into ${dataDir}: the database, ${media}${report.secret ? ', the session secret' : ''}.`;
});
