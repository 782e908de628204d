import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { newId } from '../../src/lib/ids';
import { LocalMediaStorage, type MediaStorage, readObject } from '../../src/lib/storage';
import { S3MediaStorage, S3_PART_BYTES } from '../../src/lib/s3-storage';
import { type TestS3, startS3 } from '../helpers/s3';

/**
 * One contract for every place media bytes may live: the local folder and S3-compatible object
 * storage (a real S3 protocol server over HTTP) must answer the same to the same calls.
 */
const backends: { name: string; open(): Promise<{ storage: MediaStorage; close(): Promise<void> }> }[] = [
  {
    name: 'local folder',
    async open() {
      const root = mkdtempSync(join(tmpdir(), 'kruh-media-'));
      return { storage: new LocalMediaStorage(root), close: async () => rmSync(root, { recursive: true, force: true }) };
    },
  },
  {
    name: 'S3 protocol server',
    async open() {
      const s3: TestS3 = await startS3();
      const config = loadConfig({ ...s3.env, DATA_DIR: mkdtempSync(join(tmpdir(), 'kruh-s3-config-')), JWT_SECRET: 'x'.repeat(32) });
      if (config.mediaStorage.kind !== 's3') throw new Error('the S3 settings were not read');
      const storage = new S3MediaStorage(config.mediaStorage);
      return {
        storage,
        async close() {
          storage.close();
          rmSync(config.dataDir, { recursive: true, force: true });
          await s3.close();
        },
      };
    },
  },
];

/** Chunks of a stream of `size` bytes, none held beyond its turn, with a recognisable pattern. */
function patterned(size: number, chunk = 256 * 1024): { stream: Readable; whole: () => Buffer } {
  const byteAt = (i: number) => (i * 31 + 7) % 251;
  async function* chunks() {
    for (let start = 0; start < size; start += chunk) {
      const part = Buffer.alloc(Math.min(chunk, size - start));
      for (let i = 0; i < part.length; i++) part[i] = byteAt(start + i);
      yield part;
    }
  }
  return {
    stream: Readable.from(chunks()),
    whole: () => {
      const all = Buffer.alloc(size);
      for (let i = 0; i < size; i++) all[i] = byteAt(i);
      return all;
    },
  };
}

describe.each(backends)('media storage contract: $name', (backend) => {
  let storage: MediaStorage;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ storage, close } = await backend.open());
  });
  afterAll(async () => close());

  const key = (suffix = '.webp') => `${newId()}0${suffix}`;

  it('is ready', async () => {
    await expect(storage.ready()).resolves.toBeUndefined();
  });

  it('answers what was put: bytes, size, type, a tag and a time', async () => {
    const k = key();
    await storage.put(k, Buffer.from('first bytes'), 'image/webp');
    const object = await storage.get(k);
    expect(object).not.toBeNull();
    expect(object!.size).toBe(11);
    expect(object!.contentType).toBe('image/webp');
    expect(object!.etag).toMatch(/^[^"]+$/);
    expect(Math.abs(object!.modified.getTime() - Date.now())).toBeLessThan(60_000);
    const chunks: Buffer[] = [];
    for await (const chunk of object!.body) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('first bytes');
    const head = await storage.head(k);
    expect(head).toEqual({ size: 11, contentType: 'image/webp', etag: object!.etag, modified: object!.modified });
  });

  it('keeps keys in folders (avatars)', async () => {
    const k = `pfp/${newId()}.jpeg`;
    await storage.put(k, Buffer.from('avatar'), 'image/jpeg');
    expect((await readObject(storage, k))?.toString()).toBe('avatar');
    expect((await storage.head(k))?.contentType).toBe('image/jpeg');
  });

  it('replaces an object under the same key, with a new tag', async () => {
    const k = key();
    await storage.put(k, Buffer.from('one'), 'image/webp');
    const before = await storage.head(k);
    await storage.put(k, Buffer.from('two!'), 'image/webp');
    const after = await storage.head(k);
    expect((await readObject(storage, k))?.toString()).toBe('two!');
    expect(after!.size).toBe(4);
    expect(after!.etag).not.toBe(before!.etag);
  });

  it('answers null for a missing key, and removes objects (missing ones too)', async () => {
    const [a, b] = [key(), key()];
    expect(await storage.get(a)).toBeNull();
    expect(await storage.head(a)).toBeNull();
    await storage.put(a, Buffer.from('a'), 'image/webp');
    await storage.put(b, Buffer.from('b'), 'image/webp');
    await storage.remove([a, key()]);
    expect(await storage.get(a)).toBeNull();
    expect(await readObject(storage, a)).toBeNull();
    expect((await readObject(storage, b))?.toString()).toBe('b');
    await storage.remove([]);
  });

  it('stores a stream larger than one upload part, and reads it back whole', async () => {
    const size = S3_PART_BYTES + 1024 * 1024 + 17;
    const k = key();
    const source = patterned(size);
    await storage.put(k, source.stream, 'image/webp');
    const object = await storage.get(k);
    expect(object!.size).toBe(size);
    const chunks: Buffer[] = [];
    for await (const chunk of object!.body) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(source.whole())).toBe(true);
  });

  it('refuses a key that would leave the media space', async () => {
    await expect(storage.put('../outside.webp', Buffer.from('x'), 'image/webp')).rejects.toThrow();
    await expect(storage.get('/abs.webp')).rejects.toThrow();
  });
});
