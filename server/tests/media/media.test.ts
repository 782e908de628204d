import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '#core/limits';
import { newId } from '../../src/lib/ids';
import { storeAvatar } from '../../src/modules/media/avatars';
import { mediaUrl } from '../../src/policy/media-urls';
import { readObject } from '../../src/lib/storage';
import { addMember, call, createGroup, createPost, type TestUser, useUsers } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';
import { type FilePart, multipartBody } from '../helpers/multipart';
import { expectError } from '../helpers/expect';

const png = (width = 64, height = 48) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 40 } } }).png().toBuffer();

async function animatedGif(): Promise<Buffer> {
  const frames = await Promise.all(
    ['#ff0000', '#00ff00', '#0000ff'].map((color) =>
      sharp({ create: { width: 32, height: 32, channels: 3, background: color } }).raw().toBuffer(),
    ),
  );
  // Frames stacked vertically, read as pages of one animated image.
  return sharp(Buffer.concat(frames), { raw: { width: 32, height: 96, channels: 3, pageHeight: 32 } as never })
    .gif({ loop: 0, delay: [100, 100, 100] })
    .toBuffer();
}

const file = (data: Buffer, over: Partial<FilePart> = {}): FilePart => ({
  field: 'image',
  filename: 'photo.png',
  contentType: 'image/png',
  data,
  ...over,
});

describe('media', () => {
  const t = useTestApp();
  const { alice, bob } = useUsers(t, 'alice', 'bob');

  const upload = (user: TestUser | null, fields: Record<string, string>, files: FilePart[], url = '/api/upload/image') => {
    const body = multipartBody(fields, files);
    return call(t.app, user, { method: 'POST', url, payload: body.payload, headers: body.headers });
  };
  const imagesOf = async (table: 'posts' | 'comments', id: string) =>
    (await t.app.db.selectFrom(table).select('images').where('id', '=', id).executeTakeFirstOrThrow()).images;
  const stored = (key: string) => readObject(t.app.storage, key);

  describe('POST /upload/image', () => {
    it('stores a post image as webp and counts it', async () => {
      const post = await createPost(t.app, alice);
      const res = await upload(alice, { id: post.id, index: '1' }, [file(await png())]);
      expect(res.statusCode).toBe(201);
      expect(res.json()).toEqual({ message: 'info/image_uploaded', url: expect.stringMatching(new RegExp(`^/media/${post.id}1\\.webp\\?v=\\d+$`)) });
      const object = await stored(`${post.id}1.webp`);
      expect((await sharp(object!).metadata()).format).toBe('webp');
      expect(await imagesOf('posts', post.id)).toBe(2);
      // Fields after the file are read as well.
      const body = multipartBody({}, [file(await png())], { id: post.id });
      const after = await call(t.app, alice, { method: 'POST', url: '/api/upload/image', payload: body.payload, headers: body.headers });
      expect(after.statusCode).toBe(201);
      expect(after.json().url).toMatch(new RegExp(`^/media/${post.id}0\\.webp\\?v=\\d+$`));
    });

    it('refuses a text file named .png and stores nothing', async () => {
      const post = await createPost(t.app, alice);
      const res = await upload(alice, { id: post.id, index: '0' }, [file(Buffer.from('just some text, not a picture\n'.repeat(20)))]);
      expectError(res, 400, 'only_images');
      expect(await stored(`${post.id}0.webp`)).toBeNull();
      expect(await imagesOf('posts', post.id)).toBe(0);
      const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>');
      const svgRes = await upload(alice, { id: post.id, index: '0' }, [file(svg, { filename: 'a.svg', contentType: 'image/svg+xml' })]);
      expect(svgRes.statusCode).toBe(400);
      const none = await upload(alice, { id: post.id, index: '0' }, []);
      expect(none.json()).toEqual({ message: 'error/only_images' });
      const json = await call(t.app, alice, { method: 'POST', url: '/api/upload/image', payload: { id: post.id } });
      expect(json.statusCode).toBe(400);
    });

    it('strips EXIF and GPS metadata from a JPEG', async () => {
      const jpeg = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#336699' } })
        .withExif({ IFD0: { Make: 'SpyCam', Model: 'Tracker 9000' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '50/1 5/1 0/1' } })
        .jpeg()
        .toBuffer();
      expect((await sharp(jpeg).metadata()).exif).toBeDefined();
      const post = await createPost(t.app, alice);
      const res = await upload(alice, { id: post.id, index: '0' }, [file(jpeg, { filename: 'x.jpg', contentType: 'image/jpeg' })]);
      expect(res.statusCode).toBe(201);
      const meta = await sharp((await stored(`${post.id}0.webp`))!).metadata();
      expect(meta.exif).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect((await stored(`${post.id}0.webp`))!.includes(Buffer.from('SpyCam'))).toBe(false);
    });

    it('keeps an animated GIF animated', async () => {
      const gif = await animatedGif();
      expect((await sharp(gif).metadata()).pages).toBe(3);
      const post = await createPost(t.app, alice);
      const res = await upload(alice, { id: post.id, index: '0' }, [file(gif, { filename: 'a.gif', contentType: 'image/gif' })]);
      expect(res.statusCode).toBe(201);
      const meta = await sharp((await stored(`${post.id}0.webp`))!).metadata();
      expect(meta.format).toBe('webp');
      expect(meta.pages).toBe(3);
    });

    it('takes one image on a reply post, as the app does, and stores nothing more', async () => {
      const original = await createPost(t.app, bob);
      const reply = await createPost(t.app, alice, { replyTo: original.id });
      expect((await upload(alice, { id: reply.id, index: '0' }, [file(await png())])).statusCode).toBe(201);
      expectError(await upload(alice, { id: reply.id, index: '1' }, [file(await png())]), 400, 'too_many_images');
      expect(await stored(`${reply.id}1.webp`)).toBeNull();
      expect(await imagesOf('posts', reply.id)).toBe(1);
      const announced = await call(t.app, alice, { method: 'POST', url: '/api/post', payload: { text: 'two pictures', replyingTo: original.id, images: 2 } });
      expectError(announced, 400, 'too_many_images');
      const plain = await call(t.app, alice, { method: 'POST', url: '/api/post', payload: { text: 'two pictures', images: 2 } });
      expect(plain.statusCode).toBe(201);
    });

    it('takes photos or a GIF on a post, never both, in either order', async () => {
      const gif = file(await animatedGif(), { filename: 'a.gif', contentType: 'image/gif' });
      const gifFirst = await createPost(t.app, alice);
      expect((await upload(alice, { id: gifFirst.id, index: '0' }, [gif])).statusCode).toBe(201);
      expectError(await upload(alice, { id: gifFirst.id, index: '1' }, [file(await png())]), 400, 'gif_alone');
      expect(await stored(`${gifFirst.id}1.webp`)).toBeNull();
      const photoFirst = await createPost(t.app, alice);
      expect((await upload(alice, { id: photoFirst.id, index: '0' }, [file(await png())])).statusCode).toBe(201);
      expectError(await upload(alice, { id: photoFirst.id, index: '1' }, [gif]), 400, 'gif_alone');
      expect(await imagesOf('posts', photoFirst.id)).toBe(1);
      // A picture replaced in its own place is no second one.
      expect((await upload(alice, { id: photoFirst.id, index: '0' }, [gif])).statusCode).toBe(201);
      expect((await upload(alice, { id: photoFirst.id, index: '1' }, [file(await png())])).statusCode).toBe(400);
    });

    it('refuses images over the pixel limit', async () => {
      const side = Math.ceil(Math.sqrt(LIMITS.imageMaxPixels)) + 1;
      const huge = await sharp({ create: { width: side, height: side, channels: 3, background: '#000' } }).png({ compressionLevel: 9 }).toBuffer();
      const post = await createPost(t.app, alice);
      const res = await upload(alice, { id: post.id, index: '0' }, [file(huge)]);
      expectError(res, 413, 'image_too_large');
      expect(await stored(`${post.id}0.webp`)).toBeNull();
    });

    it('refuses files over the byte limit', async () => {
      const post = await createPost(t.app, alice);
      const res = await upload(alice, { id: post.id, index: '0' }, [file(Buffer.alloc(LIMITS.imageMaxBytes + 10, 1))]);
      expectError(res, 413, 'image_too_large');
    });

    it('accepts only the author, a known id and an index within the limits', async () => {
      const post = await createPost(t.app, alice);
      const image = await png();
      const notAuthor = await upload(bob, { id: post.id, index: '0' }, [file(image)]);
      expect(notAuthor.statusCode).toBe(403);
      expect(notAuthor.json().message).toBe('error/not_author');
      const unknown = await upload(alice, { id: newId(), index: '0' }, [file(image)]);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().message).toBe('error/invalid_post');
      const anon = await upload(null, { id: post.id, index: '0' }, [file(image)]);
      expect(anon.statusCode).toBe(401);
      for (const index of ['2', '-1', 'x', '10']) {
        const res = await upload(alice, { id: post.id, index }, [file(image)]);
        expect(res.statusCode).toBe(400);
        expect(res.json().message).toBe('error/invalid_id');
      }
      expect(await imagesOf('posts', post.id)).toBe(0);

      const created = await call(t.app, bob, { method: 'POST', url: '/api/comment/', payload: { text: 'pic', parent: post.id } });
      const commentId = created.json()._id;
      const second = await upload(bob, { id: commentId, index: '1' }, [file(image)]);
      expect(second.statusCode).toBe(400);
      expect(second.json().message).toBe('error/invalid_id');
      expect((await upload(alice, { id: commentId, index: '0' }, [file(image)])).statusCode).toBe(403);
      const ok = await upload(bob, { id: commentId, index: '0' }, [file(image)]);
      expect(ok.statusCode).toBe(201);
      expect(ok.json().url).toMatch(new RegExp(`^/media/${commentId}0\\.webp\\?v=\\d+$`));
      expect(await imagesOf('comments', commentId)).toBe(1);
      const list = await call(t.app, null, { method: 'GET', url: `/api/post/${post.id}/comments` });
      expect(list.json().comments[0]).toMatchObject({ _id: commentId, images: 1, media: [ok.json().url] });
      // Deleting the comment removes its image.
      await call(t.app, bob, { method: 'DELETE', url: `/api/comment/${commentId}` });
      expect(await stored(`${commentId}0.webp`)).toBeNull();
    });
  });

  describe('GET /media', () => {
    it('serves public images with long-lived caching and validators', async () => {
      const post = await createPost(t.app, alice);
      const { json } = await upload(alice, { id: post.id, index: '0' }, [file(await png())]);
      const res = await t.app.inject({ method: 'GET', url: json().url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/webp');
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers.etag).toBeTruthy();
      expect(res.headers['last-modified']).toBeTruthy();
      expect((await sharp(res.rawPayload).metadata()).format).toBe('webp');
      const again = await t.app.inject({ method: 'GET', url: json().url, headers: { 'if-none-match': res.headers.etag as string } });
      expect(again.statusCode).toBe(304);
      const since = await t.app.inject({ method: 'GET', url: json().url, headers: { 'if-modified-since': res.headers['last-modified'] as string } });
      expect(since.statusCode).toBe(304);
    });

    it('answers 404 for unknown objects and keys the app never writes', async () => {
      for (const url of [`/media/${newId()}0.webp`, '/media/notes.txt', '/media/..%2F..%2Fetc%2Fpasswd', '/media/pfp/../x.jpeg']) {
        const res = await t.app.inject({ method: 'GET', url });
        expect(res.statusCode).toBe(404);
      }
    });

    it('serves images of private group posts only with a valid signature', async () => {
      const group = await createGroup(t.app, alice, { isPrivate: true });
      const post = await createPost(t.app, alice, { groupIds: [group.id] });
      const res = await upload(alice, { id: post.id, index: '0' }, [file(await png())]);
      expect(res.statusCode).toBe(201);
      const signed: string = res.json().url;
      expect(signed).toMatch(new RegExp(`^/media/${post.id}0\\.webp\\?v=\\d+&exp=\\d+&sig=[\\w-]+$`));
      const ok = await t.app.inject({ method: 'GET', url: signed });
      expect(ok.statusCode).toBe(200);
      // Kept privately, and no longer than the signature lives (private-media.test.ts pins the figure).
      expect(ok.headers['cache-control']).toMatch(/^private, max-age=\d+$/);
      expect((await t.app.inject({ method: 'GET', url: `/media/${post.id}0.webp` })).statusCode).toBe(404);
      // A different first character whatever the signature begins with (one in 64 begins with A).
      const tampered = signed.replace(/sig=(.)/, (_match, first: string) => `sig=${first === 'A' ? 'B' : 'A'}`);
      expect(tampered).not.toBe(signed);
      expect((await t.app.inject({ method: 'GET', url: tampered })).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'GET', url: signed.replace(/exp=\d/, 'exp=9') })).statusCode).toBe(404);
      const expired = mediaUrl(t.app, `${post.id}0.webp`, { isPrivate: true, now: Date.now() - 10 * 24 * 3600 * 1000 });
      expect((await t.app.inject({ method: 'GET', url: expired })).statusCode).toBe(404);
      const otherSecret = mediaUrl('not-the-secret', `${post.id}0.webp`, { isPrivate: true });
      expect((await t.app.inject({ method: 'GET', url: otherSecret })).statusCode).toBe(404);

      // A comment image in the private thread: members get a signed URL in the listing.
      await addMember(t.app, group.id, bob);
      const created = await call(t.app, bob, { method: 'POST', url: '/api/comment/', payload: { text: 'secret pic', parent: post.id } });
      const commentId = created.json()._id;
      const up = await upload(bob, { id: commentId, index: '0' }, [file(await png())]);
      expect(up.json().url).toContain('sig=');
      const list = await call(t.app, bob, { method: 'GET', url: `/api/post/${post.id}/comments` });
      const [media] = list.json().comments[0].media;
      expect(media).toMatch(/&exp=\d+&sig=/);
      expect((await t.app.inject({ method: 'GET', url: media })).statusCode).toBe(200);
      expect((await t.app.inject({ method: 'GET', url: `/media/${commentId}0.webp` })).statusCode).toBe(404);
    });

    it('serves a generated default avatar for users and groups without one', async () => {
      for (const url of [`/media/pfp/${newId()}.jpeg`, `/media/gp/${newId()}.jpeg`, '/media/pfp/default.jpeg']) {
        const res = await t.app.inject({ method: 'GET', url });
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe('image/jpeg');
        const meta = await sharp(res.rawPayload).metadata();
        expect(meta).toMatchObject({ format: 'jpeg', width: LIMITS.pfpSize, height: LIMITS.pfpSize });
      }
      expect(await stored('pfp/default.jpeg')).not.toBeNull();
    });
  });

  describe('avatars', () => {
    it('stores the caller\'s avatar as a centred square jpeg', async () => {
      const res = await upload(alice, {}, [file(await png(800, 500), { field: 'pfp' })], '/api/upload/pfp');
      expect(res.statusCode).toBe(201);
      expect(res.json()).toEqual({ message: 'info/image_uploaded', url: expect.stringMatching(new RegExp(`^/media/pfp/${alice.id}\\.jpeg\\?v=\\d+$`)) });
      const served = await t.app.inject({ method: 'GET', url: `/media/pfp/${alice.id}.jpeg` });
      expect(served.statusCode).toBe(200);
      expect(served.headers['cache-control']).toBe('public, no-cache');
      const meta = await sharp(served.rawPayload).metadata();
      expect(meta).toMatchObject({ format: 'jpeg', width: LIMITS.pfpSize, height: LIMITS.pfpSize });
      const again = await upload(bob, {}, [file(await png(30, 60))], '/api/upload/pfp');
      expect(again.statusCode).toBe(201);
    });

    it('refuses non-images, visitors and unknown upload types', async () => {
      const text = await upload(alice, {}, [file(Buffer.from('hello'), { field: 'pfp' })], '/api/upload/pfp');
      expect(text.statusCode).toBe(400);
      expect(text.json().message).toBe('error/only_images');
      expect((await upload(null, {}, [file(await png())], '/api/upload/pfp')).statusCode).toBe(401);
      expect((await upload(alice, {}, [file(await png())], '/api/upload/banner')).statusCode).toBe(404);
    });

    it('exports storeAvatar for group avatars', async () => {
      const group = await createGroup(t.app, alice);
      const url = await storeAvatar(t.app, 'gp', group.id, await png(120, 90));
      expect(url).toMatch(new RegExp(`^/media/gp/${group.id}\\.jpeg\\?v=\\d+$`));
      const meta = await sharp((await stored(`gp/${group.id}.jpeg`))!).metadata();
      expect(meta).toMatchObject({ format: 'jpeg', width: LIMITS.pfpSize, height: LIMITS.pfpSize });
    });
  });
});
