import '../../test/setup';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiPost, installLocks, mockFetch, setOnline, useCloneableBlobs } from '../../test/local-first';
import { getDb, clearLocalData, openDb } from '../db/db';
import { draftKeys, loadDraft } from '../drafts/drafts';
import { storeSession } from '../session';
import { getToasts } from '../toast';
import { cancelScheduledSend, drainOutbox, kickOutbox, queueComment, queueLike, queuePost, startOutbox } from './outbox';

const post = (text: string, images: Blob[] = []) => ({
  text,
  mentions: [],
  groups: [],
  replyingTo: null,
  images: images.map((blob, i) => ({ blob, name: `img${i}.png` })),
});

let nextId = 1;
const created = () => apiPost(`p${String(nextId++).padStart(23, '0')}`);

beforeEach(async () => {
  useCloneableBlobs();
  setOnline(true);
  storeSession('token-1', 'alice', 'u1');
  await clearLocalData();
});

afterEach(() => {
  cancelScheduledSend();
});

describe('outbox', () => {
  it('sends queued items in creation order with their Idempotency-Key', async () => {
    setOnline(false);
    const { calls } = mockFetch((call) => ({ status: 201, body: call.path.endsWith('/like') ? { likes: 1, liked: true } : created() }));
    const first = await queuePost(post('first'));
    const comment = await queueComment({ text: 'a comment', parent: 'pA', postId: 'pA', mentions: [], images: [] });
    const second = await queuePost(post('second'));
    expect(calls).toHaveLength(0);
    expect(await getDb().outbox.count()).toBe(3);

    setOnline(true);
    await kickOutbox();
    expect(calls.map((c) => [c.method, c.path, (c.body as { text?: string }).text])).toEqual([
      ['POST', '/api/post', 'first'],
      ['POST', '/api/comment/', 'a comment'],
      ['POST', '/api/post', 'second'],
    ]);
    expect(calls.map((c) => c.headers['Idempotency-Key'])).toEqual([first.idempotencyKey, comment.idempotencyKey, second.idempotencyKey]);
    expect(calls[0]!.headers.Authorization).toBe('Bearer token-1');
    expect(await getDb().outbox.count()).toBe(0);
  });

  it('retries after a network error with the same Idempotency-Key, then uploads the images', async () => {
    let failures = 1;
    const createdPost = created();
    const { calls } = mockFetch((call) => {
      if (call.path === '/api/post' && failures-- > 0) return new TypeError('Failed to fetch');
      if (call.path === '/api/post') return { status: 201, body: createdPost };
      if (call.path === '/api/upload/image') return { status: 201, body: { message: 'info/image_uploaded', url: '/media/x' } };
      return { body: createdPost };
    });
    const row = await queuePost(post('with image', [new Blob(['png'], { type: 'image/png' })]));
    await kickOutbox();
    const waiting = await getDb().outbox.get(row.seq!);
    expect(waiting?.status).toBe('failed');
    expect(waiting?.attempts).toBe(1);
    expect(waiting!.nextAttemptAt).toBeGreaterThan(Date.now());

    await getDb().outbox.update(row.seq!, { nextAttemptAt: 0 });
    await kickOutbox();
    const creates = calls.filter((c) => c.path === '/api/post');
    expect(creates).toHaveLength(2);
    expect(creates[1]!.headers['Idempotency-Key']).toBe(row.idempotencyKey);
    expect(creates[0]!.headers['Idempotency-Key']).toBe(row.idempotencyKey);
    const upload = calls.find((c) => c.path === '/api/upload/image');
    expect(upload?.method).toBe('POST');
    const form = upload!.body as FormData;
    expect(form.get('id')).toBe(createdPost._id);
    expect(form.get('index')).toBe('0');
    expect(await getDb().outbox.count()).toBe(0);
    expect(await getDb().posts.get(createdPost._id)).toBeTruthy();
  });

  it('retries a 5xx answer but not before its backoff, and waits while offline', async () => {
    let status = 503;
    const { calls } = mockFetch(() => ({ status, body: status === 503 ? { message: 'error/server_error' } : created() }));
    const row = await queuePost(post('x'));
    await kickOutbox();
    expect(calls).toHaveLength(1);
    await kickOutbox();
    expect(calls).toHaveLength(1); // still inside its backoff

    setOnline(false);
    const stop = startOutbox();
    status = 201;
    await kickOutbox();
    expect(calls).toHaveLength(1);
    setOnline(true);
    window.dispatchEvent(new Event('online'));
    await expect.poll(() => getDb().outbox.get(row.seq!)).toBeUndefined();
    expect(calls).toHaveLength(2);
    stop();
  });

  it('sends a like toggled three times offline once, with its final state', async () => {
    setOnline(false);
    await getDb().posts.put({ ...apiPost('pL'), likes: 4, liked: false, cachedAt: 1 });
    const { calls } = mockFetch(() => ({ body: { likes: 5, liked: true } }));
    await queueLike('post', 'pL', true, false);
    await queueLike('post', 'pL', false, false);
    await queueLike('post', 'pL', true, false);
    expect(await getDb().outbox.count()).toBe(1);

    setOnline(true);
    await kickOutbox();
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ method: 'PATCH', path: '/api/post/pL/like', body: { liked: true } });
    expect(await getDb().posts.get('pL')).toMatchObject({ likes: 5, liked: true });
  });

  it('sends nothing for a like toggled back to the server state', async () => {
    setOnline(false);
    const { calls } = mockFetch(() => ({ body: { likes: 0, liked: false } }));
    await queueLike('comment', 'c1', true, false);
    await queueLike('comment', 'c1', false, false);
    expect(await getDb().outbox.count()).toBe(0);
    setOnline(true);
    await kickOutbox();
    expect(calls).toHaveLength(0);
  });

  it('gives a refused post back to drafts with its text, slots and images, and shows the error', async () => {
    mockFetch(() => ({ status: 403, body: { message: 'error/banned' } }));
    const before = getToasts().length;
    const image = new Blob(['png'], { type: 'image/png' });
    await queuePost({
      ...post('refused', [image]),
      mentions: [{ query: 'bob', id: 'u2' }],
      groups: [{ query: 'cats', id: 'g1' }],
    });
    await kickOutbox();
    expect(await getDb().outbox.count()).toBe(0);
    const draft = await loadDraft(draftKeys.post());
    expect(draft).toMatchObject({ text: 'refused', mentions: [{ query: 'bob', id: 'u2' }], groups: [{ query: 'cats', id: 'g1' }], returnedError: 'banned' });
    expect(draft!.images).toHaveLength(1);
    expect(await draft!.images[0]!.blob.text()).toBe('png');
    expect(getToasts().slice(before)).toEqual([expect.objectContaining({ kind: 'error', message: 'error/banned' })]);
  });

  it('keeps a refused draft beside newer work in the same composer', async () => {
    mockFetch(() => ({ status: 400, body: { message: 'error/groups_up_to' } }));
    const row = await queuePost(post('old'));
    await getDb().drafts.put({ key: draftKeys.post(), text: 'newer', mentions: [], groups: [], images: [], updatedAt: 1 });
    await kickOutbox();
    expect((await loadDraft(draftKeys.post()))?.text).toBe('newer');
    expect((await loadDraft(`${draftKeys.post()}#${row.clientId}`))?.text).toBe('old');
  });

  it('reverts a refused like and says why', async () => {
    mockFetch(() => ({ status: 404, body: { message: 'error/invalid_post' } }));
    const before = getToasts().length;
    await queueLike('post', 'gone', true, false);
    await kickOutbox();
    expect(await getDb().outbox.count()).toBe(0);
    expect(getToasts().slice(before)).toEqual([expect.objectContaining({ kind: 'error', message: 'error/invalid_post' })]);
  });

  it('sends each item once when two tabs drain under the lock', async () => {
    setOnline(false);
    const { calls } = mockFetch(async () => {
      await new Promise((r) => setTimeout(r, 5));
      return { status: 201, body: created() };
    });
    await queuePost(post('one'));
    await queuePost(post('two'));
    await queuePost(post('three'));
    setOnline(true);
    const release = installLocks();
    try {
      const name = getDb().name;
      const tabA = openDb(name);
      const tabB = openDb(name);
      await Promise.all([drainOutbox(tabA), drainOutbox(tabB)]);
      tabA.close();
      tabB.close();
    } finally {
      release();
    }
    expect(calls.map((c) => (c.body as { text: string }).text)).toEqual(['one', 'two', 'three']);
  });

  it('keeps items for the next login when the token is refused', async () => {
    mockFetch(() => ({ status: 401, body: { message: 'error/invalid_token' } }));
    const row = await queuePost(post('later'));
    await kickOutbox();
    expect(await getDb().outbox.get(row.seq!)).toMatchObject({ status: 'pending', error: 'invalid_token' });
  });
});
