import '../../../test/setup';
import { beforeEach, describe, expect, it } from 'vitest';
import { apiPost, mockFetch, startOnline, useCloneableBlobs } from '../../../test/local-first';
import { type OutboxRow, clearLocalData, getDb } from '../../db/db';
import { newId } from '../queue';
import { type OutboxRowOf, uploadImages } from './handler';

const POST = 'p'.padEnd(24, '1');
const image = (name: string, alt?: string) => ({ blob: new Blob([name], { type: 'image/png' }), name, ...(alt === undefined ? {} : { alt }) });

beforeEach(async () => {
  useCloneableBlobs();
  await startOnline();
});

/** A created post with `count` images to upload, the first `uploaded` of them already sent. */
async function createdPost(
  count: number,
  uploaded: number,
  media: string[] | undefined,
  { alts, imageAlts = [] }: { alts?: string[]; imageAlts?: (string | undefined)[] } = {},
): Promise<OutboxRowOf<'post'>> {
  const db = getDb();
  const stored = { ...apiPost(POST), cachedAt: 1 } as Record<string, unknown>;
  if (media === undefined) delete stored.media;
  else stored.media = media;
  if (alts === undefined) delete stored.alts;
  else stored.alts = alts;
  await db.posts.put(stored as never);
  const row = {
    idempotencyKey: newId(), clientId: 'c1', status: 'sending', attempts: 1, nextAttemptAt: 0, createdAt: 1,
    kind: 'post', payload: { text: 't', mentions: [], groups: [], replyingTo: null },
    images: Array.from({ length: count }, (_, i) => image(`img${i}.png`, imageAlts[i])), createdId: POST, uploaded,
  } as OutboxRow;
  row.seq = await db.outbox.add(row);
  return row as OutboxRowOf<'post'>;
}

/** Answers each upload with its URL, or refuses the indexes listed. */
const uploads = (refused: number[] = []) =>
  mockFetch((call) => {
    const index = Number((call.body as { get(name: string): unknown }).get('index'));
    return refused.includes(index) ? { status: 400, body: { message: 'error/only_images' } } : { status: 201, body: { url: `/media/${POST}${index}.webp?v=${index + 1}` } };
  });

const media = async () => (await getDb().posts.get(POST))?.media;
const alts = async () => (await getDb().posts.get(POST))?.alts;

describe('uploaded images in the stored item', () => {
  it('go into the stored post in their order, also when it had no media field yet', async () => {
    uploads();
    await uploadImages(getDb(), await createdPost(2, 0, undefined), POST);
    expect(await media()).toEqual([`/media/${POST}0.webp?v=1`, `/media/${POST}1.webp?v=2`]);

    // A resend that starts at the second image, into a stored copy with no media field.
    await clearLocalData();
    uploads();
    await uploadImages(getDb(), await createdPost(2, 1, undefined), POST);
    expect(await media()).toEqual([`/media/${POST}1.webp?v=2`]);
  });

  it('keep the images the stored item already shows when a resend uploads the rest', async () => {
    uploads();
    await uploadImages(getDb(), await createdPost(2, 1, ['/media/earlier0.webp']), POST);
    expect(await media()).toEqual(['/media/earlier0.webp', `/media/${POST}1.webp?v=2`]);
  });

  it('leave no hole for a refused image, and never remove what the item shows', async () => {
    uploads([0]);
    await uploadImages(getDb(), await createdPost(2, 0, []), POST);
    expect(await media()).toEqual([`/media/${POST}1.webp?v=2`]);

    await clearLocalData();
    uploads([0]);
    await uploadImages(getDb(), await createdPost(2, 0, ['/media/shown0.webp', '/media/shown1.webp']), POST);
    expect(await media()).toEqual(['/media/shown0.webp', `/media/${POST}1.webp?v=2`]);
  });

  it('keep each description beside its image, trimmed, and an empty one for an image without', async () => {
    uploads();
    await uploadImages(getDb(), await createdPost(3, 0, undefined, { imageAlts: [' A cat ', undefined, '  '] }), POST);
    expect(await alts()).toEqual(['A cat', '', '']);
  });

  it('keep the descriptions of the images the stored item already shows', async () => {
    uploads();
    await uploadImages(getDb(), await createdPost(2, 1, ['/media/earlier0.webp'], { alts: ['earlier'], imageAlts: [undefined, 'later'] }), POST);
    expect(await alts()).toEqual(['earlier', 'later']);

    // A stored item from before descriptions existed: its images get empty ones.
    await clearLocalData();
    uploads();
    await uploadImages(getDb(), await createdPost(2, 1, ['/media/earlier0.webp'], { imageAlts: [undefined, 'later'] }), POST);
    expect(await alts()).toEqual(['', 'later']);
  });
});
