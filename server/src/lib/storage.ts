import { randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, open, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { dirname, join, normalize, sep } from 'node:path';

/**
 * Where media bytes live. Callers name objects by key ("{postId}0.webp", "pfp/{userId}.jpeg");
 * the local folder is the default, and object storage can implement the same interface without
 * touching callers.
 */
export interface MediaStorage {
  /**
   * Stores the object and answers the modification time the store recorded for it: it becomes the
   * version in the object's URL, compared on reads against the `modified` that get() answers.
   */
  put(key: string, data: Buffer): Promise<Date>;
  /** The object's bytes and modification time, or null when absent. */
  get(key: string): Promise<{ data: Buffer; modified: Date } | null>;
  remove(keys: string[]): Promise<void>;
  /**
   * Resolves when the store can be used, rejects when not: a cheap probe (no object read or written)
   * that the readiness check runs on every poll.
   */
  ready(): Promise<void>;
}

/**
 * A file's modification time in whole milliseconds: the nearest one, so a time set through
 * utimes (seconds as a float) reads back as the millisecond it was set to.
 */
const modifiedOf = (info: { mtimeMs: number }) => new Date(Math.round(info.mtimeMs));

export class LocalMediaStorage implements MediaStorage {
  constructor(private readonly root: string) {}

  private path(key: string): string {
    const path = normalize(join(this.root, key));
    // Keys come from ids, but a crafted key must never escape the media folder.
    if (!path.startsWith(normalize(this.root) + sep)) throw new Error(`media key outside storage: ${key}`);
    return path;
  }

  async put(key: string, data: Buffer): Promise<Date> {
    const path = this.path(key);
    await mkdir(dirname(path), { recursive: true });
    const previous = await stat(path).then(modifiedOf, () => null);
    // Written aside, then renamed into place: a reader gets the old bytes or the new, never part
    // of a replacement (avatars and re-uploaded images are rewritten under the same key).
    const temporary = `${path}.${randomUUID()}.tmp`;
    try {
      await writeFile(temporary, data);
      // The time is the bytes' version: a replacement within the same millisecond (or on a file
      // system with coarse times) is moved past the old one before it shows, so an old URL never
      // names new bytes.
      let modified = modifiedOf(await stat(temporary));
      if (previous !== null && modified.getTime() <= previous.getTime()) {
        modified = new Date(previous.getTime() + 1);
        await utimes(temporary, modified, modified);
      }
      await rename(temporary, path);
      return modified;
    } catch (err) {
      await rm(temporary, { force: true });
      throw err;
    }
  }

  async get(key: string): Promise<{ data: Buffer; modified: Date } | null> {
    try {
      // Bytes and time from one open file, so a replacement renamed in between cannot pair
      // the old bytes with the new time (the time is the version in the URL).
      const file = await open(this.path(key), 'r');
      try {
        const [data, info] = await Promise.all([file.readFile(), file.stat()]);
        return { data, modified: modifiedOf(info) };
      } finally {
        await file.close();
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async remove(keys: string[]): Promise<void> {
    await Promise.all(keys.map((key) => rm(this.path(key), { force: true })));
  }

  /** The folder is there (made if need be) and this process may write into it. */
  async ready(): Promise<void> {
    await mkdir(this.root, { recursive: true });
    await access(this.root, constants.W_OK);
  }
}
