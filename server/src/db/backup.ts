import { copyFile, cp, mkdir, readdir, rename, stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { SQLITE_FILE } from './database.js';

/**
 * A backup of a SQLite instance is a folder holding what DATA_DIR holds that cannot be made again:
 * the database (as one self-contained file), the media folder and the generated session secret,
 * each under the name it has in DATA_DIR, so restoring is copying them back.
 */
export interface BackupParts {
  /** The name in DATA_DIR of the media folder, null when media lives in a bucket. */
  media: string | null;
  /** The name in DATA_DIR of the generated session secret. */
  secret: string;
}

export interface BackupReport {
  folder: string;
  databaseBytes: number;
  /** Files of the media folder copied; null when media lives in a bucket (or there is no folder yet). */
  mediaFiles: number | null;
  secret: boolean;
}

/**
 * Copies a running instance's data: the database through SQLite's online backup, which reads a
 * consistent state while the server goes on writing (the file alone, without its write-ahead log,
 * may hold none of the recent writes), then the media, then the secret. The database goes first:
 * a picture uploaded meanwhile is then at worst an extra file, never a row without its picture.
 */
export async function backUpSqlite(dataDir: string, folder: string, parts: BackupParts): Promise<BackupReport> {
  if (existsSync(folder) && (await readdir(folder)).length > 0) throw new Error(`${folder} is not empty: give the backup a new folder.`);
  await mkdir(folder, { recursive: true });
  const source = join(dataDir, SQLITE_FILE);
  if (!existsSync(source)) throw new Error(`There is no database at ${source}: is DATA_DIR the server's?`);
  const target = join(folder, SQLITE_FILE);
  const live = new SQLite(source, { readonly: true, fileMustExist: true });
  try {
    await live.backup(target);
  } finally {
    live.close();
  }
  checkCopy(target);
  const { mediaFiles, secret } = await copyMediaAndSecret(dataDir, folder, parts, folder);
  return { folder, databaseBytes: (await stat(target)).size, mediaFiles, secret };
}

/**
 * Copies the media folder (when media is kept on disk and the folder exists) and the session
 * secret (when there is one) between DATA_DIR and a backup, either way. The media files are
 * counted in the backup, so a report names what the backup holds.
 */
async function copyMediaAndSecret(from: string, to: string, parts: BackupParts, backup: string): Promise<RestoreReport> {
  let mediaFiles: number | null = null;
  if (parts.media !== null && existsSync(join(from, parts.media))) {
    await cp(join(from, parts.media), join(to, parts.media), { recursive: true, preserveTimestamps: true });
    mediaFiles = await countFiles(join(backup, parts.media));
  }
  const secret = existsSync(join(from, parts.secret));
  if (secret) await copyFile(join(from, parts.secret), join(to, parts.secret));
  return { mediaFiles, secret };
}

/** The copy stands alone (no write-ahead log beside it) and reads back whole, or the backup fails. */
function checkCopy(file: string): void {
  const copy = new SQLite(file);
  try {
    copy.pragma('journal_mode = DELETE');
    const result = copy.pragma('integrity_check', { simple: true });
    if (result !== 'ok') throw new Error(`The copy of the database at ${file} does not read back whole: ${String(result)}`);
  } finally {
    copy.close();
  }
}

async function countFiles(folder: string): Promise<number> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).length;
}

export interface RestoreReport {
  mediaFiles: number | null;
  secret: boolean;
}

/**
 * Puts a backup's files into a DATA_DIR that has no database yet (never over a live one). With
 * media in a bucket, the backup's media folder (if any) is left for `npm run media:migrate`.
 */
export async function restoreSqlite(folder: string, dataDir: string, parts: BackupParts): Promise<RestoreReport> {
  const source = join(folder, SQLITE_FILE);
  if (!existsSync(source)) throw new Error(`${folder} holds no ${SQLITE_FILE}: is it a folder npm run backup wrote?`);
  const target = join(dataDir, SQLITE_FILE);
  if (existsSync(target)) {
    throw new Error(`${dataDir} already holds a database: restore into an empty DATA_DIR (or move ${target} away first, with the server stopped).`);
  }
  await mkdir(dataDir, { recursive: true });
  const { mediaFiles, secret } = await copyMediaAndSecret(folder, dataDir, parts, folder);
  // The database last: a DATA_DIR with a database is one the next restore refuses, so it must be whole.
  await copyFile(source, `${target}.restoring`);
  await rename(`${target}.restoring`, target);
  return { mediaFiles, secret };
}

/**
 * What to run on PostgreSQL, where the database (session secret included) is pg_dump's to copy;
 * `bucket` names the media's bucket, else `mediaFolder` is where it is.
 */
export function postgresAdvice(action: 'backup' | 'restore', bucket: string | null, mediaFolder: string): string {
  const database =
    action === 'backup'
      ? 'On PostgreSQL, back up the database with pg_dump (it holds the session secret too), e.g.\n  pg_dump --format=custom --file=kruh.dump "$DATABASE_URL"'
      : 'On PostgreSQL, restore the database with pg_restore into an empty database, e.g.\n  pg_restore --no-owner --dbname="$DATABASE_URL" kruh.dump';
  const pictures = bucket
    ? `The media is in the bucket ${bucket}: ${action === 'backup' ? 'copy it with your S3 tools (rclone sync, aws s3 sync, mc mirror)' : 'copy it back with your S3 tools'}.`
    : `The media is in ${mediaFolder}: ${action === 'backup' ? 'copy that folder' : 'copy it back there'}.`;
  return `${database}\n${pictures}`;
}
