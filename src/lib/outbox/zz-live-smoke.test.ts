// @vitest-environment node
const store = new Map<string, string>();
(globalThis as any).localStorage = { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => store.set(k, v), removeItem: (k: string) => store.delete(k), clear: () => store.clear() };
if (!(globalThis as any).window) { const et = new EventTarget(); (globalThis as any).window = Object.assign(globalThis, { addEventListener: et.addEventListener.bind(et), removeEventListener: et.removeEventListener.bind(et), dispatchEvent: et.dispatchEvent.bind(et) }); }
if (!(globalThis as any).navigator) (globalThis as any).navigator = {};
import '../../test/setup';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../server/tests/helpers/test-app';
import { createUser } from '../../../server/tests/helpers/fixtures';
import { getDb, clearLocalData } from '../db/db';
import { loadDraft, draftKeys } from '../drafts/drafts';
import { storeSession } from '../session';
import { fetchFeedPage, feedKey, readFeed } from '../query/feed';
import { cancelScheduledSend, kickOutbox, queueComment, queueLike, queuePost } from './outbox';
import { setOnline, useCloneableBlobs } from '../../test/local-first';
import { getToasts } from '../toast';

let t: TestApp;
let loseAnswer = 0;
const seen: string[] = [];
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => { cancelScheduledSend(); await t.close(); });

it('talks to the real API', async () => {
  setOnline(true);
  const alice = await createUser(t.app, { username: 'alice' });
  await createUser(t.app, { username: 'bob' });
  storeSession(alice.token, alice.username, alice.id);
  await clearLocalData();
  vi.stubGlobal('fetch', async (input: string, init: RequestInit = {}) => {
    const res = await t.app.inject({ method: (init.method ?? 'GET') as 'GET', url: input, headers: init.headers as Record<string, string>, payload: init.body as string | undefined });
    seen.push(`${init.method ?? 'GET'} ${input} -> ${res.statusCode} ${res.body.slice(0, 200)}`);
    if (loseAnswer > 0) { loseAnswer--; throw new TypeError('Failed to fetch'); }
    return new Response(res.body === '' ? null : res.body, { status: res.statusCode, headers: { 'Content-Type': 'application/json' } });
  });

  await queuePost({ text: 'hello #world @bob', mentions: [{ query: 'bob', id: null }], groups: [], replyingTo: null, images: [] });
  await kickOutbox();
  expect(await getDb().outbox.count()).toBe(0);

  loseAnswer = 1;
  const row = await queuePost({ text: 'second', mentions: [], groups: [], replyingTo: null, images: [] });
  await kickOutbox();
  await getDb().outbox.update(row.seq!, { nextAttemptAt: 0 });
  await kickOutbox();
  expect(await getDb().outbox.count()).toBe(0);

  await fetchFeedPage({ feed: 'explore', page: 1 });
  const feed = await readFeed(getDb(), feedKey({ feed: 'explore' }), 1);
  expect(feed.posts.map((p) => p.text)).toEqual(['second', 'hello #world @bob']);
  expect(feed.posts[1]!.mentions).toEqual([expect.objectContaining({ username: 'bob' })]);
  const first = feed.posts[1]!;

  setOnline(false);
  await queueLike('post', first._id, true, false);
  await queueLike('post', first._id, false, false);
  await queueLike('post', first._id, true, false);
  setOnline(true);
  await kickOutbox();
  expect(await getDb().posts.get(first._id)).toMatchObject({ likes: 1, liked: true });

  await queueComment({ text: 'a comment', parent: first._id, postId: first._id, mentions: [], images: [] });
  await kickOutbox();
  expect(await getDb().comments.where('postId').equals(first._id).count()).toBe(1);

  await queuePost({ text: '   ', mentions: [], groups: [], replyingTo: null, images: [] });
  await kickOutbox();
  expect((await loadDraft(draftKeys.post()))?.returnedError).toBe('blank_post');
  expect(getToasts().at(-1)?.message).toBe('error/blank_post');
  console.log(seen.join('\n'));
});
