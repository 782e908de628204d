import '../src/test/setup';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearLocalData, getDb, openDb } from '../src/lib/db/db';
import { loadDraft } from '../src/lib/drafts/drafts';
import { mirrorSession } from '../src/lib/outbox/background-sync';
import { drainOutbox } from '../src/lib/outbox/outbox';
import { queueLike } from '../src/lib/outbox/kinds/like';
import { queuePost } from '../src/lib/outbox/kinds/post';
import { clearSession, storeSession } from '../src/lib/session';
import { getToasts } from '../src/lib/toast';
import { apiPost, mockFetch, setOnline, useCloneableBlobs } from '../src/test/local-first';
import { syncOutbox } from './outbox-sync';

const post = (text: string) => ({ text, mentions: [], groups: [], replyingTo: null, images: [] });
const alice = { token: 'token-sw', username: 'alice', id: 'u-sw' };

/**
 * The page queues while offline and closes; the service worker, which has no localStorage, then
 * sends from the same database with the session the page mirrored.
 */
async function queuedOfflineThenClosed(): Promise<{ keys: string[] }> {
  setOnline(false);
  storeSession(alice.token, alice.username, alice.id);
  await clearLocalData();
  await mirrorSession(alice);
  const first = await queuePost(post('written offline'));
  await queueLike('post', 'pL', true, false);
  const like = (await getDb().outbox.orderBy('seq').last())!;
  clearSession();
  vi.stubGlobal('localStorage', undefined);
  setOnline(true);
  return { keys: [first.idempotencyKey, like.idempotencyKey] };
}

/** Reads the account's database as the worker left it, closing the connection after. */
async function stored<T>(read: (db: ReturnType<typeof openDb>) => Promise<T>): Promise<T> {
  const db = openDb(`kruh-${alice.id}`);
  try {
    return await read(db);
  } finally {
    db.close();
  }
}

beforeEach(() => {
  useCloneableBlobs();
});

afterEach(async () => {
  vi.unstubAllGlobals();
  await mirrorSession({ token: null, username: null, id: null });
});

describe('syncOutbox (Background Sync in the service worker)', () => {
  it("sends the account's outbox with the page's idempotency keys and empties it", async () => {
    const { keys } = await queuedOfflineThenClosed();
    const { calls } = mockFetch((call) => ({ status: call.path.endsWith('/like') ? 200 : 201, body: call.path.endsWith('/like') ? { likes: 1, liked: true } : apiPost('p00000000000000000000001') }));
    await syncOutbox();
    expect(calls.map((c) => [c.method, c.path])).toEqual([['POST', '/api/post'], ['PATCH', '/api/post/pL/like']]);
    expect(calls.map((c) => c.headers['Idempotency-Key'])).toEqual(keys);
    expect(calls[0]!.headers.Authorization).toBe(`Bearer ${alice.token}`);
    expect(await stored((db) => db.outbox.count())).toBe(0);
  });

  it('fails the event while the network is still away, so the browser tries again, and keeps the items', async () => {
    await queuedOfflineThenClosed();
    mockFetch(() => new TypeError('Failed to fetch'));
    await expect(syncOutbox()).rejects.toThrow(/wait for the network/);
    const rows = await stored((db) => db.outbox.toArray());
    expect(rows.map((r) => r.status)).toEqual(['failed', 'pending']);
  });

  it('leaves a refused item for the page, which gives it back with its error without sending it again', async () => {
    await queuedOfflineThenClosed();
    const { calls } = mockFetch(() => ({ status: 403, body: { message: 'error/banned' } }));
    const toastsBefore = getToasts().length;
    await syncOutbox();
    const rows = await stored((db) => db.outbox.toArray());
    expect(rows.map((r) => [r.status, r.error])).toEqual([['refused', 'banned'], ['pending', undefined]]);
    expect(getToasts()).toHaveLength(toastsBefore);
    expect(calls).toHaveLength(1);

    // A second sync before the app opens: the refusal waits first in line, nothing else is sent.
    await syncOutbox();
    expect(calls).toHaveLength(1);
    expect((await stored((db) => db.outbox.toArray())).map((r) => r.status)).toEqual(['refused', 'pending']);
    expect(await stored((db) => db.drafts.count())).toBe(0);

    // The app opens again: the refusal is shown and the post returns to its draft.
    vi.unstubAllGlobals();
    useCloneableBlobs();
    storeSession(alice.token, alice.username, alice.id);
    const { calls: pageCalls } = mockFetch(() => ({ status: 200, body: { likes: 1, liked: true } }));
    await drainOutbox(getDb());
    expect(pageCalls.map((c) => c.path)).toEqual(['/api/post/pL/like']);
    expect(getToasts().map((t) => t.message)).toContain('error/banned');
    expect(await loadDraft('post', getDb())).toMatchObject({ text: 'written offline', returnedError: 'banned' });
    expect(await getDb().outbox.count()).toBe(0);
  });

  it('does nothing when nobody is logged in', async () => {
    const { calls } = mockFetch(() => ({ status: 500 }));
    await syncOutbox();
    expect(calls).toHaveLength(0);
  });
});
