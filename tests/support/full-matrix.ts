import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/**
 * The browser journeys run at two sizes and on two databases. `npm test` runs two of the four pairs
 * (phone on SQLite, desktop on PostgreSQL), which between them cover each size and each database,
 * each journey in one of them (vitest.config.ts alternates them by name); every journey in every
 * pair can only fail differently after a change to what tells the pairs apart: the
 * database layer, the stylesheets, or the journeys and their support. A migration is not among
 * them: it changes the schema of both databases alike, and every server test file runs it on both
 * before it starts, as every browser test's server does. So `npm test` runs the full
 * matrix whenever those files differ from the ones the last full run passed with, whose digest
 * `npm run test:full` records in RECORD (committed with the change).
 */
export const RECORD = '.ci/full-matrix.sha256';

/** Folders whose every file counts, and the extension that counts anywhere under `src/`. */
const GUARDED_FOLDERS = ['tests/e2e/journeys', 'tests/e2e/support', 'server/src/db'];
const GUARDED_EXTENSION = '.css';
const UNGUARDED_FOLDER = 'server/src/db/migrations/';

function guardedFiles(root: string): string[] {
  const within = (folder: string, keep: (path: string) => boolean) =>
    existsSync(join(root, folder))
      ? readdirSync(join(root, folder), { recursive: true, withFileTypes: true })
          .filter((entry) => entry.isFile())
          .map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join('/'))
          .filter(keep)
      : [];
  return [
    ...GUARDED_FOLDERS.flatMap((folder) => within(folder, (path) => !path.startsWith(UNGUARDED_FOLDER))),
    ...within('src', (path) => path.endsWith(GUARDED_EXTENSION)),
  ].sort();
}

/** One digest of the guarded files' names and contents. */
export function guardedDigest(root: string): string {
  const hash = createHash('sha256');
  for (const path of guardedFiles(root)) hash.update(`${path}\0`).update(readFileSync(join(root, path))).update('\0');
  return hash.digest('hex');
}

/** The full matrix is due unless the guarded files are the ones the last full run recorded. */
export function fullMatrixDue(root: string): boolean {
  const recorded = existsSync(join(root, RECORD)) ? readFileSync(join(root, RECORD), 'utf8').trim() : '';
  return recorded !== guardedDigest(root);
}

/** Records the guarded files as passed by a full run (`npm run test:full` calls this after it). */
export function recordFullMatrix(root: string): void {
  writeFileSync(join(root, RECORD), `${guardedDigest(root)}\n`);
}
