import { join, resolve } from 'node:path';
import process from 'node:process';
import { loadConfig, loadDotEnv, LOCAL_MEDIA_FOLDER } from '../config.js';
import { storageOf } from '../plugins/storage.js';
import { copyMediaFolder } from '../modules/media/copy-media.js';

/**
 * `npm run media:migrate [-- --from <folder>]`: copies a local media folder (by default the one in
 * DATA_DIR) into the bucket the S3_* settings name, then prints what it did.
 */
const USAGE = 'usage: npm run media:migrate [-- --from <media folder>]   (MEDIA_STORAGE=s3 and the S3_* settings name the bucket)';

const args = process.argv.slice(2);
const fromAt = args.indexOf('--from');
if (args.some((arg, i) => arg !== '--from' && i !== fromAt + 1) || (fromAt >= 0 && !args[fromAt + 1])) {
  console.error(USAGE);
  process.exit(2);
}
loadDotEnv();
const config = loadConfig();
if (config.mediaStorage.kind !== 's3') {
  console.error(`MEDIA_STORAGE must be s3 to copy media into a bucket.\n${USAGE}`);
  process.exit(2);
}
const from = fromAt >= 0 ? resolve(args[fromAt + 1]!) : join(config.dataDir, LOCAL_MEDIA_FOLDER);
const target = storageOf(config);
try {
  await target.ready();
  const report = await copyMediaFolder(from, target);
  console.log(`From ${from} to bucket ${config.mediaStorage.bucket}: ${report.copied} copied, ${report.skipped} already there, ${report.failed.length} failed.`);
  if (report.ignored.length) console.log(`Not media, left alone: ${report.ignored.join(', ')}`);
  for (const failure of report.failed) console.error(`failed: ${failure.key}: ${failure.error}`);
  if (report.failed.length) process.exitCode = 1;
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
} finally {
  target.close?.();
}
