import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, normalize, sep } from 'node:path';

/**
 * Where media bytes live. Callers name objects by key ("{postId}0.webp", "pfp/{userId}.jpeg");
 * the local folder is the default, and object storage can implement the same interface without
 * touching callers.
 */
export interface MediaStorage {
  put(key: string, data: Buffer): Promise<void>;
  /** The object's bytes and modification time, or null when absent. */
  get(key: string): Promise<{ data: Buffer; modified: Date } | null>;
  remove(keys: string[]): Promise<void>;
}

export class LocalMediaStorage implements MediaStorage {
  constructor(private readonly root: string) {}

  private path(key: string): string {
    const path = normalize(join(this.root, key));
    // Keys come from ids, but a crafted key must never escape the media folder.
    if (!path.startsWith(normalize(this.root) + sep)) throw new Error(`media key outside storage: ${key}`);
    return path;
  }

  async put(key: string, data: Buffer): Promise<void> {
    const path = this.path(key);
    await mkdir(dirname(path), { recursive: true });
    // Write then rename would be atomic; a reader seeing a partial image is avoided by the
    // immutable key scheme (an object is written once, before anyone is told its key).
    await writeFile(path, data);
  }

  async get(key: string): Promise<{ data: Buffer; modified: Date } | null> {
    try {
      const path = this.path(key);
      const [data, info] = await Promise.all([readFile(path), stat(path)]);
      return { data, modified: info.mtime };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async remove(keys: string[]): Promise<void> {
    await Promise.all(keys.map((key) => rm(this.path(key), { force: true })));
  }
}
