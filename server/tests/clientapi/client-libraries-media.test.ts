import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRestAPIClient } from 'masto';
import generator from 'megalodon';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { createFollow, createUser } from '../helpers/fixtures';
import { useInstance } from '../helpers/kruh-instance';
import { appToken } from './oauth-helpers';

/**
 * The two client libraries apps are built on, uploading pictures over HTTP to a running instance:
 * a picture with its description, posted behind a content warning, read back through the status
 * and a follower's home timeline; another person's picture refused; a description changed; a
 * read-only token refused.
 */
describe('client API pictures through real client libraries', () => {
  const instance = useInstance();

  const png = (background: string) => sharp({ create: { width: 60, height: 40, channels: 3, background } }).png().toBuffer();
  const blob = async (background: string) => new Blob([new Uint8Array(await png(background))], { type: 'image/png' });
  // megalodon sends a file from disk, as a stream that carries its name.
  const folder = mkdtempSync(join(tmpdir(), 'kruh-client-media-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  const file = async (background: string) => {
    const path = join(folder, `${background.slice(1)}.png`);
    writeFileSync(path, await png(background));
    return createReadStream(path);
  };

  it('masto uploads a described picture, posts it sensitive with a warning, and reads it back', async () => {
    const me = await createUser(instance.app);
    const follower = await createUser(instance.app);
    const stranger = await createUser(instance.app);
    await createFollow(instance.app, follower, me);
    const masto = createRestAPIClient({ url: instance.origin, accessToken: await appToken(instance.app, me, 'read write') });

    // masto waits for the picture to be ready by reading it back, as it does with any server.
    const media = await masto.v2.media.create({ file: await blob('#c84'), description: 'An orange square' });
    expect(media).toMatchObject({ type: 'image', description: 'An orange square', meta: { original: { width: 60, height: 40 } } });
    expect(await masto.v1.media.$select(media.id).update({ description: 'An orange rectangle' })).toMatchObject({ description: 'An orange rectangle' });

    const status = await masto.v1.statuses.create({ status: 'A picture from masto', mediaIds: [media.id], spoilerText: 'orange', sensitive: true });
    expect(status).toMatchObject({ spoilerText: 'orange', sensitive: true, mediaAttachments: [{ type: 'image', description: 'An orange rectangle' }] });
    const pictureUrl = status.mediaAttachments[0]!.url!;
    const picture = await fetch(pictureUrl);
    expect(picture.status).toBe(200);
    expect((await sharp(Buffer.from(await picture.arrayBuffer())).metadata()).width).toBe(60);

    expect((await masto.v1.statuses.$select(status.id).fetch()).mediaAttachments.map((m) => m.description)).toEqual(['An orange rectangle']);
    const home = createRestAPIClient({ url: instance.origin, accessToken: await appToken(instance.app, follower, 'read') });
    const timeline = await home.v1.timelines.home.list();
    expect(timeline.find((s) => s.id === status.id)?.mediaAttachments.map((m) => m.url)).toEqual([pictureUrl]);

    const theirs = await createRestAPIClient({ url: instance.origin, accessToken: await appToken(instance.app, stranger, 'write:media') }).v2.media.create({ file: await blob('#48c') });
    await expect(masto.v1.statuses.create({ status: 'not mine', mediaIds: [theirs.id] })).rejects.toMatchObject({ statusCode: 422 });
    await expect(masto.v1.statuses.create({ status: 'used', mediaIds: [media.id] })).rejects.toMatchObject({ statusCode: 422 });

    const reader = createRestAPIClient({ url: instance.origin, accessToken: await appToken(instance.app, me, 'read') });
    await expect(reader.v2.media.create({ file: await blob('#888') })).rejects.toMatchObject({ statusCode: 403 });
  });

  it('megalodon uploads, changes the description, posts with a warning; refuses another person\'s picture and a read-only token', async () => {
    const me = await createUser(instance.app);
    const follower = await createUser(instance.app);
    const stranger = await createUser(instance.app);
    await createFollow(instance.app, follower, me);
    const client = generator('mastodon', instance.origin, await appToken(instance.app, me, 'read write'));

    const uploaded = (await client.uploadMedia(await file('#6a4'), { description: 'A green picture' })).data as { id: string; description: string | null };
    expect(uploaded).toMatchObject({ description: 'A green picture' });
    expect((await client.getMedia(uploaded.id)).data).toMatchObject({ id: uploaded.id, type: 'image' });
    expect((await client.updateMedia(uploaded.id, { description: 'A green rectangle' })).data).toMatchObject({ description: 'A green rectangle' });

    const posted = (await client.postStatus('A picture from megalodon', { media_ids: [uploaded.id], spoiler_text: 'green', sensitive: true })).data as {
      id: string;
      media_attachments: { description: string | null; url: string }[];
    };
    expect(posted).toMatchObject({ spoiler_text: 'green', sensitive: true, media_attachments: [{ description: 'A green rectangle' }] });
    expect((await client.getStatus(posted.id)).data.media_attachments).toHaveLength(1);
    const home = (await generator('mastodon', instance.origin, await appToken(instance.app, follower, 'read')).getHomeTimeline()).data;
    expect(home.find((s) => s.id === posted.id)?.media_attachments.map((m) => m.description)).toEqual(['A green rectangle']);

    const strangerClient = generator('mastodon', instance.origin, await appToken(instance.app, stranger, 'write'));
    const theirs = (await strangerClient.uploadMedia(await file('#a4a'))).data as { id: string };
    await expect(client.postStatus('not mine', { media_ids: [theirs.id] })).rejects.toMatchObject({ response: { status: 422, data: { message: 'error/unknown_media' } } });
    await expect(client.updateMedia(theirs.id, { description: 'mine now' })).rejects.toMatchObject({ response: { status: 404 } });

    const reader = generator('mastodon', instance.origin, await appToken(instance.app, me, 'read'));
    await expect(reader.uploadMedia(await file('#888'))).rejects.toMatchObject({ response: { status: 403, data: { message: 'error/insufficient_scope' } } });
  });
});
