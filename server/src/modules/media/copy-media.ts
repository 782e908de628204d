import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { type MediaStorage, checkMediaKey, contentTypeOfKey } from '../../lib/storage.js';

export interface CopyReport {
  /** Objects written to the target. */
  copied: number;
  /** Objects the target held already with the same size. */
  skipped: number;
  /** Files that are not media (a write cut short, a name the app never makes), left where they are. */
  ignored: string[];
  /** Keys whose copy failed, with why; the others went on. */
  failed: { key: string; error: string }[];
}

/** Files the local store leaves while it writes (renamed into place when done). */
const isPartialWrite = (name: string) => name.endsWith('.tmp');

const keyOf = (root: string, path: string): string | null => {
  const key = relative(root, path).split(sep).join('/');
  try {
    return checkMediaKey(key);
  } catch {
    return null;
  }
};

/**
 * Copies every object of a local media folder into another store (`npm run media:migrate`), each
 * streamed from its file. Safe to run again, and while the server runs: an object the target holds
 * already with the same size is skipped, so a second run copies only what is new or changed since.
 * The database is not touched: versions name the same bytes wherever they live.
 */
export async function copyMediaFolder(
  root: string,
  target: MediaStorage,
  onObject: (key: string, outcome: 'copied' | 'skipped' | 'failed') => void = () => {},
): Promise<CopyReport> {
  const report: CopyReport = { copied: 0, skipped: 0, ignored: [], failed: [] };
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
  for (const path of files) {
    const key = keyOf(root, path);
    if (key === null || isPartialWrite(path)) {
      report.ignored.push(relative(root, path));
      continue;
    }
    try {
      const [info, there] = await Promise.all([stat(path), target.head(key)]);
      if (there && there.size === info.size) {
        report.skipped++;
        onObject(key, 'skipped');
        continue;
      }
      await target.put(key, createReadStream(path), contentTypeOfKey(key));
      report.copied++;
      onObject(key, 'copied');
    } catch (err) {
      report.failed.push({ key, error: err instanceof Error ? err.message : String(err) });
      onObject(key, 'failed');
    }
  }
  return report;
}
