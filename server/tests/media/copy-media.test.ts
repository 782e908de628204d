import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { newId } from '../../src/lib/ids';
import { S3MediaStorage } from '../../src/lib/s3-storage';
import { readObject } from '../../src/lib/storage';
import { copyMediaFolder } from '../../src/modules/media/copy-media';
import { useS3 } from '../helpers/s3';

const run = promisify(execFile);

/** `npm run media:migrate`: a local media folder copied into a bucket, and only what is missing on a second run. */
describe('copying a local media folder into a bucket', () => {
  const bucket = useS3('kruh-migrate');
  let dataDir: string;
  let media: string;
  let target: S3MediaStorage;
  const [user, post] = [newId(), newId()];
  const files: Record<string, Buffer> = {
    [`pfp/${user}.jpeg`]: Buffer.from('avatar bytes'),
    [`gp/${newId()}.jpeg`]: Buffer.from('group avatar'),
    [`${post}0.webp`]: Buffer.from('first image'),
    [`${post}1.webp`]: Buffer.alloc(200_000, 3),
  };
  const env = () => ({ ...bucket.s3.env, DATA_DIR: dataDir, JWT_SECRET: 'j'.repeat(32), LOG_LEVEL: 'silent' });

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'kruh-copy-'));
    media = join(dataDir, 'media');
    for (const [key, data] of Object.entries(files)) {
      mkdirSync(join(media, key, '..'), { recursive: true });
      writeFileSync(join(media, key), data);
    }
    // A write cut short, which must not reach the bucket.
    writeFileSync(join(media, `${post}2.webp.0b1c.tmp`), 'half');
    const config = loadConfig(env());
    if (config.mediaStorage.kind !== 's3') throw new Error('the S3 settings were not read');
    target = new S3MediaStorage(config.mediaStorage);
  });
  afterAll(() => {
    target?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('copies every object, then skips what is there already and copies what changed', async () => {
    const first = await copyMediaFolder(media, target);
    expect(first).toEqual({ copied: 4, skipped: 0, ignored: [`${post}2.webp.0b1c.tmp`], failed: [] });
    for (const [key, data] of Object.entries(files)) expect((await readObject(target, key))?.equals(data), key).toBe(true);
    expect(await target.head(`${post}2.webp`)).toBeNull();
    expect((await target.head(`${post}0.webp`))?.contentType).toBe('image/webp');
    expect((await target.head(`pfp/${user}.jpeg`))?.contentType).toBe('image/jpeg');

    writeFileSync(join(media, `pfp/${user}.jpeg`), 'a new avatar, longer');
    const second = await copyMediaFolder(media, target);
    expect(second).toMatchObject({ copied: 1, skipped: 3, failed: [] });
    expect((await readObject(target, `pfp/${user}.jpeg`))?.toString()).toBe('a new avatar, longer');
  });

  it('runs as a command that prints its counts', async () => {
    const newer = `${newId()}0.webp`;
    writeFileSync(join(media, newer), 'one more');
    const cli = join(import.meta.dirname, '../../src/cli/copy-media.ts');
    const { stdout } = await run(process.execPath, ['--no-warnings', '--import', 'tsx', cli], { env: { ...process.env, ...env() } });
    expect(stdout).toContain('1 copied, 4 already there, 0 failed');
    expect((await readObject(target, newer))?.toString()).toBe('one more');
    const refused = await run(process.execPath, ['--no-warnings', '--import', 'tsx', cli], { env: { ...process.env, ...env(), MEDIA_STORAGE: 'local' } }).catch(
      (err: { code: number; stderr: string }) => err,
    );
    expect(refused).toMatchObject({ code: 2, stderr: expect.stringContaining('MEDIA_STORAGE must be s3') });
  });
});
