import { randomUUID } from 'node:crypto';
import { constants, createWriteStream } from 'node:fs';
import { access, mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { dirname, extname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Where media bytes live. Callers name objects by key ("{postId}0.webp", "pfp/{userId}.jpeg");
 * the local folder is the default, S3-compatible object storage (s3-storage.ts) the other choice.
 * Bytes go in and come out as streams, so no store holds a whole file in memory. Which version of
 * an object a URL names is kept in the database, not here: object stores cannot set times.
 */
export interface MediaStorage {
  /** Stores the bytes under key, replacing any before; a reader sees the old bytes or the new, never part. */
  put(key: string, body: Buffer | Readable, contentType?: string): Promise<void>;
  /** The object as a stream with what is known of it, or null when absent. The caller must read or destroy the body. */
  get(key: string): Promise<StoredObject | null>;
  /** What get() would answer, without the bytes. */
  head(key: string): Promise<ObjectInfo | null>;
  /** Removes the objects; a missing one is no error. */
  remove(keys: string[]): Promise<void>;
  /**
   * Resolves when the store answers (the folder can be written, the bucket is reachable); throws
   * otherwise, a MissingMediaStoreError when the store answers that what is configured is not there.
   */
  ready(): Promise<void>;
  /** Lets go of connections (the app closing). */
  close?(): void;
}

/**
 * The store answers, but the place configured does not exist (no such bucket): nothing will ever
 * be stored until the operator creates it, unlike a store that is away for a while.
 */
export class MissingMediaStoreError extends Error {}

export interface ObjectInfo {
  size: number;
  contentType: string;
  /** Names these very bytes: another object put under the key gets another tag. No quotes. */
  etag: string;
  /** When the store took the bytes (S3 keeps whole seconds). */
  modified: Date;
}

export interface StoredObject extends ObjectInfo {
  body: Readable;
}

/**
 * Keys are made from ids by the app; anything else (an absolute path, `..`, an empty segment) is a
 * bug or an attack and never reaches a store, so a crafted key cannot leave the media space.
 */
export function checkMediaKey(key: string): string {
  const segments = key.split('/');
  if (!segments.every((segment) => /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(segment) && !segment.includes('..'))) {
    throw new Error(`not a media key: ${key}`);
  }
  return key;
}

const TYPES: Record<string, string> = { '.webp': 'image/webp', '.jpeg': 'image/jpeg', '.jpg': 'image/jpeg', '.png': 'image/png' };

/** The type of the bytes under key, by its ending: what a store without metadata (a folder) answers. */
export const contentTypeOfKey = (key: string): string => TYPES[extname(key).toLowerCase()] ?? 'application/octet-stream';

/** The whole object as one buffer: for small objects (avatars) and tests only. */
export async function readObject(storage: MediaStorage, key: string): Promise<Buffer | null> {
  const object = await storage.get(key);
  if (!object) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of object.body) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

const isMissing = (err: unknown) => (err as NodeJS.ErrnoException).code === 'ENOENT';

export class LocalMediaStorage implements MediaStorage {
  constructor(private readonly root: string) {}

  private path(key: string): string {
    return join(this.root, checkMediaKey(key));
  }

  /**
   * The tag names one file: a replacement is a new file renamed into place, so its inode differs
   * even when size and time come out the same.
   */
  private infoOf(key: string, info: { size: number; mtimeMs: number; ino: number }): ObjectInfo {
    const tag = [info.size, Math.round(info.mtimeMs), info.ino].map((n) => n.toString(16)).join('-');
    return { size: info.size, contentType: contentTypeOfKey(key), etag: tag, modified: new Date(Math.round(info.mtimeMs)) };
  }

  async put(key: string, body: Buffer | Readable, _contentType?: string): Promise<void> {
    const path = this.path(key);
    await mkdir(dirname(path), { recursive: true });
    // Written aside, then renamed into place: a reader gets the old bytes or the new, never part
    // of a replacement (avatars and re-uploaded images are rewritten under the same key).
    const temporary = `${path}.${randomUUID()}.tmp`;
    try {
      await pipeline(Buffer.isBuffer(body) ? Readable.from([body]) : body, createWriteStream(temporary));
      await rename(temporary, path);
    } catch (err) {
      await rm(temporary, { force: true });
      throw err;
    }
  }

  async get(key: string): Promise<StoredObject | null> {
    let file;
    try {
      file = await open(this.path(key), 'r');
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
    try {
      // Size and bytes from one open file, so a replacement renamed in between cannot pair the
      // old bytes with the new size.
      const info = this.infoOf(key, await file.stat());
      return { ...info, body: file.createReadStream() };
    } catch (err) {
      await file.close();
      throw err;
    }
  }

  async head(key: string): Promise<ObjectInfo | null> {
    try {
      return this.infoOf(key, await stat(this.path(key)));
    } catch (err) {
      if (isMissing(err)) return null;
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
