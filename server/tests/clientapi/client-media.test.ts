import { Value } from '@sinclair/typebox/value';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { MediaAttachment, Status } from '#core/api/client-entities';
import { LIMITS } from '#core/limits';
import en from '../../../locales/en/error.json' with { type: 'json' };
import { MAINTENANCE_TASKS } from '../../src/jobs';
import { maintenanceStep } from '../../src/modules/jobs/maintenance';
import { readObject } from '../../src/lib/storage';
import { createFollow, createPost, createUser, deleteOwnAccount } from '../helpers/fixtures';
import { multipartBody } from '../helpers/multipart';
import { useTestApp } from '../helpers/test-app';
import { appToken } from './oauth-helpers';

/** Pictures apps upload before their status, and statuses carrying them, as apps call them. */

const t = useTestApp();

const picture = (width = 48, height = 32, background = '#2a6') => sharp({ create: { width, height, channels: 3, background } }).png().toBuffer();

/** Two frames: an animation, which goes alone. */
async function animation(): Promise<Buffer> {
  const frames = await Promise.all(['#f00', '#00f'].map((color) => sharp({ create: { width: 16, height: 16, channels: 3, background: color } }).raw().toBuffer()));
  return sharp(Buffer.concat(frames), { raw: { width: 16, height: 32, channels: 3, pageHeight: 16 } as never }).gif().toBuffer();
}

const refusal = (key: keyof typeof en) => ({ error: en[key], message: `error/${key}` });

/** A person with an app's token granting `scope`, and calls as that app. */
async function appUser(scope = 'read write', app = t.app) {
  const user = await createUser(app);
  const token = await appToken(app, user, scope);
  const authorization = `Bearer ${token}`;
  const send = (method: 'POST' | 'GET' | 'PUT', url: string, payload?: Record<string, unknown>) =>
    app.inject({ method, url, headers: { authorization }, ...(payload ? { payload } : {}) });
  const upload = async (fields: Record<string, string> = {}, data?: Buffer, url = '/api/v2/media') => {
    const body = multipartBody(fields, [{ field: 'file', filename: 'p.png', contentType: 'image/png', data: data ?? (await picture()) }]);
    return app.inject({ method: 'POST', url, headers: { ...body.headers, authorization }, payload: body.payload });
  };
  return { user, token, send, upload };
}

describe('client API: uploading pictures', () => {
  it('stores a picture with its description and focus, answered as an attachment its uploader can read', async () => {
    const { user, send, upload } = await appUser();
    const res = await upload({ description: '  A green field  ', focus: '0.5,-0.25' }, await picture(48, 32));
    expect(res.statusCode, res.body).toBe(200);
    const media = res.json();
    expect([...Value.Errors(MediaAttachment, media)]).toEqual([]);
    const size = { width: 48, height: 32, size: '48x32', aspect: 1.5 };
    expect(media).toMatchObject({ type: 'image', remote_url: null, description: 'A green field', blurhash: null, meta: { original: size, small: size, focus: { x: 0.5, y: -0.25 } } });
    expect(media.preview_url).toBe(media.url);
    const row = await t.app.db.selectFrom('staged_uploads').select(['owner_id', 'description', 'attached_to']).where('id', '=', media.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ owner_id: user.id, description: 'A green field', attached_to: null });

    // Its URL is signed for its uploader; without the signature it is not served.
    const url = new URL(media.url);
    const bytes = await t.app.inject({ method: 'GET', url: url.pathname + url.search });
    expect(bytes.statusCode).toBe(200);
    expect((await sharp(bytes.rawPayload).metadata()).format).toBe('webp');
    expect((await t.app.inject({ method: 'GET', url: url.pathname })).statusCode).toBe(404);

    expect((await send('GET', `/api/v1/media/${media.id}`)).json()).toMatchObject({ id: media.id, description: 'A green field' });
    // The first version of the call answers the same way.
    expect((await upload({}, undefined, '/api/v1/media')).json()).toMatchObject({ type: 'image', description: null });
  });

  it('changes the description while no status carries the picture, for its uploader only', async () => {
    const me = await appUser();
    const other = await appUser();
    const media = (await me.upload({ description: 'first' })).json();

    const changed = await me.send('PUT', `/api/v1/media/${media.id}`, { description: 'second', focus: '0,1' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ id: media.id, description: 'second', meta: { focus: { x: 0, y: 1 } } });
    // As a multipart form, as some apps send it.
    const body = multipartBody({ description: 'third' });
    const multipart = await t.app.inject({ method: 'PUT', url: `/api/v1/media/${media.id}`, headers: { ...body.headers, authorization: `Bearer ${me.token}` }, payload: body.payload });
    expect(multipart.json()).toMatchObject({ description: 'third' });

    for (const res of [await other.send('PUT', `/api/v1/media/${media.id}`, { description: 'mine now' }), await other.send('GET', `/api/v1/media/${media.id}`)]) {
      expect({ status: res.statusCode, body: res.json() }).toEqual({ status: 404, body: refusal('unknown_media') });
    }
    const tooLong = await me.send('PUT', `/api/v1/media/${media.id}`, { description: 'x'.repeat(LIMITS.imageAltMaxLength + 1) });
    expect(tooLong.json()).toEqual(refusal('max_alt_length'));
    const row = await t.app.db.selectFrom('staged_uploads').select('description').where('id', '=', media.id).executeTakeFirstOrThrow();
    expect(row.description).toBe('third');
  });

  it("an account's deletion takes its uploads with it, bytes and all", async () => {
    const { user, upload } = await appUser();
    const media = (await upload()).json();
    expect(await t.app.storage.head(`uploads/${media.id}.webp`)).not.toBeNull();
    expect((await deleteOwnAccount(t.app, user)).statusCode).toBe(200);
    expect(await t.app.db.selectFrom('staged_uploads').select('id').where('id', '=', media.id).execute()).toEqual([]);
    expect(await t.app.storage.head(`uploads/${media.id}.webp`)).toBeNull();
  });

  it('refuses a file that is no picture, and a token without write:media', async () => {
    const { upload } = await appUser();
    const res = await upload({}, Buffer.from('not a picture at all'));
    expect({ status: res.statusCode, body: res.json() }).toEqual({ status: 400, body: refusal('only_images') });

    const reader = await appUser('read');
    const refused = await reader.upload({ description: 'no' });
    expect({ status: refused.statusCode, body: refused.json() }).toEqual({ status: 403, body: refusal('insufficient_scope') });
    expect((await reader.send('GET', '/api/v1/media/0123456789abcdef01234567')).statusCode).toBe(403);
    expect(await t.app.db.selectFrom('staged_uploads').select('id').where('owner_id', '=', reader.user.id).execute()).toEqual([]);
    // write:media alone is enough to upload.
    expect((await (await appUser('write:media')).upload()).statusCode).toBe(200);
  });
});

describe('client API: statuses carrying pictures', () => {
  it('posts pictures with a content warning, read back through the status and the home timeline', async () => {
    const { user, send, upload } = await appUser();
    const follower = await appUser();
    await createFollow(t.app, follower.user, user);
    const first = (await upload({ description: 'a field' })).json();
    const second = (await upload({ description: 'a sky' }, await picture(20, 40, '#36c'))).json();
    const res = await send('POST', '/api/v1/statuses', { status: 'Two pictures', media_ids: [first.id, second.id], spoiler_text: 'bright', sensitive: true });
    expect(res.statusCode, res.body).toBe(200);
    const status = res.json();
    expect([...Value.Errors(Status, status)]).toEqual([]);
    expect(status).toMatchObject({ spoiler_text: 'bright', sensitive: true });
    expect(status.media_attachments.map((m: { description: string }) => m.description)).toEqual(['a field', 'a sky']);

    const post = await t.app.db.selectFrom('posts').select(['images', 'author_id']).where('id', '=', status.id).executeTakeFirstOrThrow();
    expect(post).toEqual({ images: 2, author_id: user.id });
    const stored = await readObject(t.app.storage, `${status.id}1.webp`);
    expect((await sharp(stored!).metadata()).height).toBe(40);

    const read = (await send('GET', `/api/v1/statuses/${status.id}`)).json();
    expect(read.media_attachments).toEqual(status.media_attachments);
    const home = (await follower.send('GET', '/api/v1/timelines/home')).json();
    expect(home.find((s: { id: string }) => s.id === status.id)?.media_attachments).toHaveLength(2);

    // Carried by the status, the upload is the status's: its own URL, reading and changing it are gone.
    const url = new URL(first.url);
    expect((await t.app.inject({ method: 'GET', url: url.pathname + url.search })).statusCode).toBe(404);
    expect((await send('GET', `/api/v1/media/${first.id}`)).statusCode).toBe(404);
    expect((await send('PUT', `/api/v1/media/${first.id}`, { description: 'late' })).json()).toEqual(refusal('media_attached'));
    const again = await send('POST', '/api/v1/statuses', { status: 'Again', media_ids: [first.id] });
    expect({ status: again.statusCode, body: again.json() }).toEqual({ status: 422, body: refusal('media_attached') });
  });

  it("refuses another person's upload, an unknown id, too many pictures and a GIF among others, posting nothing", async () => {
    const me = await appUser();
    const other = await appUser();
    const theirs = (await other.upload()).json();
    const mine = await Promise.all(Array.from({ length: LIMITS.imagesPerPost + 1 }, async () => (await me.upload()).json().id as string));
    const gif = (await me.upload({}, await animation())).json();
    const attempts = [
      { media_ids: [theirs.id], key: 'unknown_media' },
      { media_ids: ['0123456789abcdef01234567'], key: 'unknown_media' },
      { media_ids: ['not-an-id'], key: 'unknown_media' },
      { media_ids: mine, key: 'too_many_images' },
      { media_ids: [mine[0], gif.id], key: 'gif_alone' },
    ] as const;
    for (const { media_ids, key } of attempts) {
      const res = await me.send('POST', '/api/v1/statuses', { status: 'should not post', media_ids });
      expect({ status: res.statusCode, body: res.json() }, key).toEqual({ status: 422, body: refusal(key) });
    }
    expect(await t.app.db.selectFrom('posts').select('id').where('author_id', '=', me.user.id).execute()).toEqual([]);
    // Refused, the uploads are still the caller's to post.
    expect((await me.send('POST', '/api/v1/statuses', { status: 'one now', media_ids: [mine[0]] })).statusCode).toBe(200);
    expect((await other.send('GET', `/api/v1/media/${theirs.id}`)).statusCode).toBe(200);
  });

  it('a reply fitting a comment carries its picture as a comment', async () => {
    const { user, send, upload } = await appUser();
    const original = await createPost(t.app, user, { text: 'the original' });
    const media = (await upload({ description: 'answer picture' })).json();
    const res = await send('POST', '/api/v1/statuses', { status: 'an answer', in_reply_to_id: original.id, media_ids: [media.id] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: expect.stringMatching(/^c/), in_reply_to_id: original.id, media_attachments: [{ description: 'answer picture' }] });
    const two = [(await upload()).json().id, (await upload()).json().id];
    const tooMany = await send('POST', '/api/v1/statuses', { status: 'two answers', in_reply_to_id: original.id, media_ids: two });
    expect(tooMany.json()).toEqual(refusal('too_many_images'));
  });

  it('an edit adds pictures after those the post has, and cannot remove them', async () => {
    const { send, upload } = await appUser();
    const first = (await upload({ description: 'one' })).json();
    const status = (await send('POST', '/api/v1/statuses', { status: 'with one', media_ids: [first.id] })).json();
    const kept = status.media_attachments[0].id as string;

    // Without media_ids the pictures stay as they are.
    expect((await send('PUT', `/api/v1/statuses/${status.id}`, { status: 'text only' })).json().media_attachments).toHaveLength(1);
    const added = (await upload({ description: 'two' })).json();
    const dropping = await send('PUT', `/api/v1/statuses/${status.id}`, { status: 'dropping', media_ids: [added.id] });
    expect({ status: dropping.statusCode, body: dropping.json() }).toEqual({ status: 422, body: refusal('media_not_removable') });
    const edited = await send('PUT', `/api/v1/statuses/${status.id}`, { status: 'with two', media_ids: [kept, added.id] });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().media_attachments.map((m: { description: string }) => m.description)).toEqual(['one', 'two']);
    const third = (await upload()).json();
    const over = await send('PUT', `/api/v1/statuses/${status.id}`, { status: 'with three', media_ids: [kept, `${status.id}-1`, third.id] });
    expect(over.json()).toEqual(refusal('too_many_images'));
  });

  it(`drops uploads older than STAGED_UPLOAD_HOURS with their bytes, the status keeping its own copy`, async () => {
    const { send, upload } = await appUser();
    const waiting = (await upload()).json();
    const carried = (await upload()).json();
    const status = (await send('POST', '/api/v1/statuses', { status: 'kept', media_ids: [carried.id] })).json();
    const fresh = (await upload()).json();
    const dayAgo = Date.now() - (t.app.config.stagedUploadHours + 1) * 60 * 60 * 1000;
    await t.app.db.updateTable('staged_uploads').set({ created_at: dayAgo }).where('id', 'in', [waiting.id, carried.id]).execute();

    await maintenanceStep(MAINTENANCE_TASKS)(t.app, t.app.db, { lastRunAt: null }, Date.now());
    const left = await t.app.db.selectFrom('staged_uploads').select('id').where('id', 'in', [waiting.id, carried.id, fresh.id]).execute();
    expect(left.map((row) => row.id)).toEqual([fresh.id]);
    expect(await t.app.storage.head(`uploads/${waiting.id}.webp`)).toBeNull();
    expect(await t.app.storage.head(`uploads/${fresh.id}.webp`)).not.toBeNull();
    expect(await t.app.storage.head(`${status.id}0.webp`)).not.toBeNull();
    expect((await send('POST', '/api/v1/statuses', { status: 'too late', media_ids: [waiting.id] })).json()).toEqual(refusal('unknown_media'));
  });
});

describe('client API: the upload limit', () => {
  const limited = useTestApp({ RATE_UPLOADS_PER_HOUR: '2' });

  it('refuses uploads past RATE_UPLOADS_PER_HOUR for one person, others unaffected', async () => {
    const me = await appUser('write', limited.app);
    for (let i = 0; i < 2; i++) expect((await me.upload()).statusCode).toBe(200);
    const refused = await me.upload();
    expect({ status: refused.statusCode, body: refused.json() }).toEqual({ status: 429, body: refusal('upload_limit') });
    expect(await limited.app.db.selectFrom('staged_uploads').select('id').where('owner_id', '=', me.user.id).execute()).toHaveLength(2);
    expect((await (await appUser('write', limited.app)).upload()).statusCode).toBe(200);
  });
});
