import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import { renderDefaultAvatar } from '../../src/modules/media/images';
import { addMember, call, createGroup, createPost, createUser, type TestUser } from '../helpers/fixtures';
import { type FilePart, multipartBody } from '../helpers/multipart';
import { useS3 } from '../helpers/s3';
import { useTestApp } from '../helpers/test-app';
import { readZip } from '../helpers/zip';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Two server processes on one database, each with its own data folder, and media in one bucket of
 * a real S3 protocol server: what one process stores, the other serves, under the same versions
 * and the same privacy.
 */
describe('media on S3-compatible object storage, across two server processes', () => {
  const bucket = useS3();
  const t = useTestApp(() => bucket.s3.env);
  let other: FastifyInstance;
  let otherDataDir: string;
  let alice: TestUser;

  beforeAll(async () => {
    otherDataDir = mkdtempSync(join(tmpdir(), 'kruh-other-'));
    other = await buildApp({ config: { ...t.config, dataDir: otherDataDir }, database: t.database, closeDatabase: false, logger: false });
    await other.ready();
    alice = await createUser(t.app);
  });
  afterAll(async () => {
    await other?.close();
    rmSync(otherDataDir, { recursive: true, force: true });
  });

  const picture = (color: string) => sharp({ create: { width: 40, height: 40, channels: 3, background: color } }).png().toBuffer();
  const file = async (field: string, color: string): Promise<FilePart> =>
    ({ field, filename: 'a.png', contentType: 'image/png', data: await picture(color) });
  async function upload(user: TestUser, url: string, part: FilePart, fields: Record<string, string> = {}): Promise<string> {
    const body = multipartBody(fields, [part]);
    const res = await call(t.app, user, { method: 'POST', url, payload: body.payload, headers: body.headers });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().url as string;
  }
  const fetchFrom = (app: FastifyInstance, url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

  it('serves an avatar stored through one process from the other, under its version', async () => {
    const url = await upload(alice, '/api/upload/pfp', await file('pfp', '#cc2200'));
    const here = await fetchFrom(t.app, url);
    const there = await fetchFrom(other, url);
    expect(there.statusCode).toBe(200);
    expect(there.headers['cache-control']).toBe(IMMUTABLE);
    expect(there.headers['content-type']).toBe('image/jpeg');
    expect(there.rawPayload.equals(here.rawPayload)).toBe(true);
    expect(there.rawPayload.equals(await renderDefaultAvatar())).toBe(false);
    expect(Number(there.headers['content-length'])).toBe(there.rawPayload.length);
    // Same bytes, same tag on both processes: a browser's copy stays good whichever answers.
    expect(there.headers.etag).toBe(here.headers.etag);
    expect((await fetchFrom(other, url, { 'if-none-match': String(here.headers.etag) })).statusCode).toBe(304);
    // In the bucket, and not in either process's own folder.
    const key = `pfp/${alice.id}.jpeg`;
    const object = await bucket.s3.client.send(new GetObjectCommand({ Bucket: bucket.s3.bucket, Key: key }));
    expect(Buffer.from(await object.Body!.transformToByteArray()).equals(there.rawPayload)).toBe(true);
    expect(existsSync(join(t.config.dataDir, 'media', key))).toBe(false);
  });

  it('serves a post image stored through one process from the other, and a replacement under a new version', async () => {
    const post = await createPost(t.app, alice);
    const first = await upload(alice, '/api/upload/image', await file('image', '#00aa33'), { id: post.id, index: '0' });
    expect((await fetchFrom(other, first)).headers['cache-control']).toBe(IMMUTABLE);
    const second = await upload(alice, '/api/upload/image', await file('image', '#3300aa'), { id: post.id, index: '0' });
    expect(second).not.toBe(first);
    const read = await call(other, alice, { method: 'GET', url: `/api/post/${post.id}` });
    expect(read.json().media).toEqual([second]);
    const now = await fetchFrom(other, second);
    expect(now.statusCode).toBe(200);
    expect(now.headers['content-type']).toBe('image/webp');
    expect(now.headers['cache-control']).toBe(IMMUTABLE);
    const stale = await fetchFrom(other, first);
    expect(stale.headers['cache-control']).not.toContain('immutable');
    expect(stale.rawPayload.equals(now.rawPayload)).toBe(true);
  });

  it('keeps a private group image private: refused without its signature, served with it', async () => {
    const member = await createUser(t.app);
    const group = await createGroup(t.app, alice, { isPrivate: true });
    await addMember(t.app, group.id, member);
    const post = await createPost(t.app, alice, { groupIds: [group.id] });
    await upload(alice, '/api/upload/image', await file('image', '#777700'), { id: post.id, index: '0' });
    const [signed] = (await call(other, member, { method: 'GET', url: `/api/post/${post.id}` })).json().media as string[];
    expect(signed).toMatch(/[?&]sig=/);
    const served = await fetchFrom(other, signed!);
    expect(served.statusCode).toBe(200);
    expect(served.headers['cache-control']).toMatch(/^private, max-age=\d+$/);
    expect((await fetchFrom(other, signed!.split('?')[0]!)).statusCode).toBe(404);
    expect((await fetchFrom(t.app, signed!.replace(/sig=[^&]+/, 'sig=forged'))).statusCode).toBe(404);
  });

  it('answers the default avatar for a user without one, from the bucket', async () => {
    const res = await fetchFrom(other, `/media/pfp/${(await createUser(t.app)).id}.jpeg`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, no-cache');
    expect(res.rawPayload.equals(await renderDefaultAvatar())).toBe(true);
  });

  it('puts the pictures from the bucket into the data export of either process', async () => {
    const res = await call(other, alice, { method: 'GET', url: '/api/account/export' });
    expect(res.statusCode).toBe(200);
    const files = await readZip(res.rawPayload);
    expect(files.get('images/avatar.jpeg')?.equals((await fetchFrom(t.app, `/media/pfp/${alice.id}.jpeg`)).rawPayload)).toBe(true);
    expect([...files.keys()].filter((path) => path.startsWith('images/posts/')).length).toBeGreaterThanOrEqual(2);
  });
});
