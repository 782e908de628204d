import '../../test/setup';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiComment, apiPost, installLocks, mockFetch, setOnline, useCloneableBlobs } from '../../test/local-first';
import { refuseSession } from '../../test/session';
import { type OutboxRow, getDb, clearLocalData, openDb } from '../db/db';
import { draftKeys, loadDraft } from '../drafts/drafts';
import { clearSession, getSession, storeSession } from '../session';
import { getToasts } from '../toast';
import { BACKOFF_BASE_MS, BACKOFF_MAX_MS, OUTBOX_LOCK, backoffDelay, cancelScheduledSend, drainOutbox, kickOutbox, startOutbox } from './outbox';
import { likeTarget, queueLike } from './kinds/like';
import { newId } from './queue';
import { queueComment } from './kinds/comment';
import { queuePost } from './kinds/post';

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
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

// Captured before any test fakes the clock: IndexedDB (fake-indexeddb) works on real macrotasks.
const realSetTimeout = globalThis.setTimeout.bind(globalThis);
const realPause = (ms: number) => new Promise<void>((resolve) => realSetTimeout(resolve, ms));

/** Waits (in real time) until `check` holds; for work started by a timer the test cannot await. */
async function until(check: () => boolean | Promise<boolean>, what = 'condition'): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (await check()) return;
    await realPause(5);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Gives any drain that was (wrongly) started the time to reach the network. */
const settle = () => realPause(60);

/** A clock the test moves by hand: timers and Date, nothing else (IndexedDB keeps running). */
const fakeClock = () => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: 1_000_000 });

const outboxRows = () => getDb().outbox.orderBy('seq').toArray();

/** A row as an earlier session (or an older version of the app) left it in the database. */
function storedRow(row: { kind: OutboxRow['kind']; payload: unknown } & Record<string, unknown>): OutboxRow {
  return {
    idempotencyKey: newId(),
    clientId: newId(),
    status: 'pending',
    attempts: 0,
    nextAttemptAt: 0,
    createdAt: Date.now(),
    images: [],
    ...row,
  } as OutboxRow;
}

describe('outbox when storage is full', () => {
  const quota = () => Object.assign(new Error('full'), { name: 'QuotaExceededError' });

  it('makes room in the cache and keeps the post and the like', async () => {
    setOnline(false);
    const db = getDb();
    await db.posts.put({ ...apiPost('stale'), cachedAt: Date.now() - 40 * 24 * 60 * 60_000 });
    const add = db.outbox.add.bind(db.outbox);
    // Each write is refused once (the post's, then the like's inside its transaction), then taken.
    let calls = 0;
    const spy = vi.spyOn(db.outbox, 'add').mockImplementation(((row: OutboxRow) => (++calls % 2 === 1 ? Promise.reject(quota()) : add(row))) as never);
    await queuePost(post('kept'));
    await queueLike('post', 'pL', true, false);
    spy.mockRestore();
    expect(calls).toBe(4);
    const rows = await outboxRows();
    expect(rows.map((r) => (r.kind === 'post' ? r.payload.text : r.kind))).toEqual(['kept', 'like']);
    expect(await db.posts.get('stale')).toBeUndefined();
  });

  it('hands the error to the editor when even the pruned cache leaves no room', async () => {
    setOnline(false);
    const db = getDb();
    const spy = vi.spyOn(db.outbox, 'add').mockImplementation(() => Promise.reject(quota()) as never);
    await expect(queuePost(post('lost?'))).rejects.toMatchObject({ name: 'QuotaExceededError' });
    spy.mockRestore();
    expect(await db.outbox.count()).toBe(0);
  });
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

  it.each([
    {
      title: 'sends a like toggled three times offline once, with its final state',
      target: 'post' as const,
      id: 'pL',
      toggles: [true, false, true],
      sent: [{ method: 'PATCH', path: '/api/post/pL/like', body: { liked: true } }],
    },
    { title: 'sends nothing for a like toggled back to the server state', target: 'comment' as const, id: 'c1', toggles: [true, false], sent: [] },
  ])('$title', async ({ target, id, toggles, sent }) => {
    setOnline(false);
    await getDb().posts.put({ ...apiPost('pL'), likes: 4, liked: false, cachedAt: 1 });
    const { calls } = mockFetch(() => ({ body: { likes: 5, liked: true } }));
    for (const liked of toggles) await queueLike(target, id, liked, false);
    expect(await getDb().outbox.count()).toBe(sent.length);

    setOnline(true);
    await kickOutbox();
    expect(calls).toEqual(sent.map((call) => expect.objectContaining(call)));
    // The answer is the stored post's new state; nothing sent leaves it as it was.
    expect(await getDb().posts.get('pL')).toMatchObject(sent.length ? { likes: 5, liked: true } : { likes: 4, liked: false });
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

  it('stops quietly when the refused session ends while an item is on its way, and sends it after the next login', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    let refuse = true;
    mockFetch(() => {
      if (!refuse) return { status: 201, body: created() };
      // The app sees the token refused elsewhere (the route guard) and ends the session meanwhile.
      clearSession();
      getDb();
      return { status: 401, body: { message: 'error/invalid_token' } };
    });
    const row = await queuePost(post('mine'));
    await kickOutbox();
    expect(logged).not.toHaveBeenCalledWith('outbox', expect.anything());
    logged.mockRestore();

    // Kept in the account's own database for its next login, and sent then.
    refuse = false;
    storeSession('token-2', 'alice', 'u1');
    expect(await getDb().outbox.get(row.seq!)).toBeDefined();
    await kickOutbox();
    await until(async () => (await getDb().outbox.count()) === 0, 'the item sent after the login');
  });

  it('ends a drain quietly when the session ends while an item is on its way (as the service worker runs it)', async () => {
    mockFetch(() => {
      clearSession();
      getDb();
      return { status: 401, body: { message: 'error/invalid_token' } };
    });
    setOnline(false);
    const row = await queuePost(post('mine'));
    setOnline(true);
    const db = getDb();
    await expect(drainOutbox(db, { inWorker: true })).resolves.toBeUndefined();
    storeSession('token-2', 'alice', 'u1');
    expect(await getDb().outbox.get(row.seq!)).toBeDefined();
  });

  it('keeps items for the next login when the token is refused', async () => {
    mockFetch(() => ({ status: 401, body: { message: 'error/invalid_token' } }));
    const row = await queuePost(post('later'));
    await kickOutbox();
    expect(await getDb().outbox.get(row.seq!)).toMatchObject({ status: 'pending', error: 'invalid_token' });
  });
});

describe('backoff', () => {
  it('waits 2 s after the first failure and doubles the wait after each further one', () => {
    expect(BACKOFF_BASE_MS).toBe(2_000);
    expect(backoffDelay(1)).toBe(2_000);
    expect(backoffDelay(2)).toBe(4_000);
    expect(backoffDelay(3)).toBe(8_000);
    expect(backoffDelay(8)).toBe(256_000);
  });

  it('never waits less than the base, nor more than five minutes', () => {
    expect(backoffDelay(0)).toBe(BACKOFF_BASE_MS);
    expect(BACKOFF_MAX_MS).toBe(300_000);
    // 2 s * 2^8 = 512 s would be past the cap.
    expect(backoffDelay(9)).toBe(BACKOFF_MAX_MS);
    expect(backoffDelay(40)).toBe(BACKOFF_MAX_MS);
  });

  it('tries a failed item again by itself once its backoff has passed, and waits twice as long after a second failure', async () => {
    fakeClock();
    let status = 503;
    const { calls } = mockFetch(() => ({ status, body: status === 503 ? { message: 'error/server_error' } : created() }));
    setOnline(false);
    const row = await queuePost(post('x'));
    setOnline(true);
    await kickOutbox();
    expect(await getDb().outbox.get(row.seq!)).toMatchObject({ status: 'failed', attempts: 1, nextAttemptAt: Date.now() + 2_000, error: 'server_error' });

    await vi.advanceTimersByTimeAsync(1_999);
    await settle();
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await until(async () => (await getDb().outbox.get(row.seq!))?.attempts === 2, 'the second attempt');
    await until(async () => (await getDb().outbox.get(row.seq!))?.status === 'failed', 'the second failure');
    expect(calls).toHaveLength(2);
    expect((await getDb().outbox.get(row.seq!))?.nextAttemptAt).toBe(Date.now() + 4_000);

    status = 201;
    await vi.advanceTimersByTimeAsync(3_999);
    await settle();
    expect(calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    await until(async () => (await getDb().outbox.count()) === 0, 'the third attempt');
    expect(calls.map((c) => c.headers['Idempotency-Key'])).toEqual([row.idempotencyKey, row.idempotencyKey, row.idempotencyKey]);
  });

  it('sends an item whose time has just come at once', async () => {
    fakeClock();
    const { calls } = mockFetch(() => ({ status: 201, body: created() }));
    setOnline(false);
    const row = await queuePost(post('due now'));
    await getDb().outbox.update(row.seq!, { status: 'failed', attempts: 1, nextAttemptAt: Date.now() });
    setOnline(true);
    await kickOutbox();
    expect(calls).toHaveLength(1);
    expect(await getDb().outbox.count()).toBe(0);
  });

  it('holds back every later item while the oldest one waits, then sends them in order', async () => {
    fakeClock();
    const { calls } = mockFetch(() => ({ status: 201, body: created() }));
    setOnline(false);
    const first = await queuePost(post('first'));
    await queuePost(post('second'));
    await getDb().outbox.update(first.seq!, { status: 'failed', attempts: 1, nextAttemptAt: Date.now() + 1_000 });
    setOnline(true);
    await kickOutbox();
    expect(calls).toHaveLength(0);

    await vi.advanceTimersByTimeAsync(999);
    await settle();
    expect(calls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    await until(async () => (await getDb().outbox.count()) === 0, 'both items');
    expect(calls.map((c) => (c.body as { text: string }).text)).toEqual(['first', 'second']);
  });

  it('records a failure without an answer as a loading failure', async () => {
    mockFetch(() => new TypeError('Failed to fetch'));
    const row = await queuePost(post('lost'));
    await kickOutbox();
    expect(await getDb().outbox.get(row.seq!)).toMatchObject({ status: 'failed', attempts: 1, error: 'loading_failed' });
  });

  it('after a failure caused by going offline, waits for the online event rather than a timer', async () => {
    fakeClock();
    const { calls } = mockFetch(() => {
      setOnline(false);
      return new TypeError('Failed to fetch');
    });
    const row = await queuePost(post('offline'));
    await kickOutbox();
    expect(await getDb().outbox.get(row.seq!)).toMatchObject({ status: 'failed', error: 'loading_failed' });

    // Back online without the event: nothing retries on its own, even well past the backoff.
    setOnline(true);
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    await settle();
    expect(calls).toHaveLength(1);
  });

  it('does not retry once the scheduled send is cancelled, even after it was rescheduled', async () => {
    fakeClock();
    const { calls } = mockFetch(() => ({ status: 503, body: { message: 'error/server_error' } }));
    setOnline(false);
    await queuePost(post('x'));
    setOnline(true);
    await kickOutbox();
    // A second drain finds the item waiting and schedules it again.
    await kickOutbox();
    cancelScheduledSend();
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    await settle();
    expect(calls).toHaveLength(1);
  });
});

describe('sending', () => {
  it('sends picked ids, else the trimmed typed name, drops empty slots, and says what a post replies to', async () => {
    const { calls } = mockFetch(() => ({ status: 201, body: created() }));
    await queuePost({
      ...post('slots'),
      mentions: [
        { query: 'Bob', id: 'u2' },
        { query: '  carol ', id: null },
        { query: '   ', id: null },
      ],
      groups: [{ query: 'cats', id: 'g1' }],
    });
    await kickOutbox();
    await queuePost({ ...post('a reply'), replyingTo: 'pR' });
    await kickOutbox();
    expect(calls[0]!.body).toEqual({ text: 'slots', mentions: ['u2', 'carol'], groups: ['g1'] });
    expect(calls[0]!.body).not.toHaveProperty('replyingTo');
    expect(calls[1]!.body).toEqual({ text: 'a reply', mentions: [], groups: [], replyingTo: 'pR' });
  });

  it('sends a post\'s content warning as written, and none when it is blank', async () => {
    const { calls } = mockFetch(() => ({ status: 201, body: created() }));
    await queuePost({ ...post('careful'), contentWarning: ' spiders ' });
    await queuePost({ ...post('harmless'), contentWarning: '  ' });
    await kickOutbox();
    expect(calls.map((c) => c.body)).toEqual([
      { text: 'careful', mentions: [], groups: [], contentWarning: ' spiders ' },
      { text: 'harmless', mentions: [], groups: [] },
    ]);
  });

  it('sends a comment with its parent and mentions, and keeps the created comment', async () => {
    const comment = { _id: 'c'.padEnd(24, '1'), text: 'hi', postId: 'pA', parent: 'pA', createdAt: 1 };
    const { calls } = mockFetch(() => ({ status: 201, body: comment }));
    const row = await queueComment({ text: 'hi', parent: 'pA', postId: 'pA', mentions: [{ query: 'bob', id: 'u2' }], images: [] });
    await kickOutbox();
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ method: 'POST', path: '/api/comment/', body: { text: 'hi', parent: 'pA', mentions: ['u2'] } });
    expect(calls[0]!.headers['Idempotency-Key']).toBe(row.idempotencyKey);
    expect(await getDb().comments.get(comment._id)).toMatchObject({ text: 'hi' });
  });

  it('keeps a copy the app read after the creation over the creation\'s own answer, replayed after a reload', async () => {
    // The page reloaded after the server made the comment and the post but before their answers
    // were kept: the rows go again with their keys and the server answers as it did at creation,
    // while the lists already read the items as they are now (a reply, a like since).
    const comment = apiComment('c'.padEnd(24, '3'), 'pA');
    const postNow = apiPost('p'.padEnd(24, '3'));
    await getDb().comments.put({ ...comment, comments: 1, likes: 2, cachedAt: Date.now() });
    await getDb().posts.put({ ...postNow, comments: 1, cachedAt: Date.now() });
    mockFetch((call) => ({ status: 201, body: call.path === '/api/comment/' ? { ...comment, comments: 0, likes: 0 } : { ...postNow, comments: 0 } }));
    await queueComment({ text: comment.text, parent: 'pA', postId: 'pA', mentions: [], images: [] });
    await queuePost(post(postNow.text));
    await kickOutbox();
    expect(await outboxRows()).toEqual([]);
    expect(await getDb().comments.get(comment._id)).toMatchObject({ comments: 1, likes: 2 });
    expect(await getDb().posts.get(postNow._id)).toMatchObject({ comments: 1 });
  });

  it('remembers the draft each item was written in', async () => {
    setOnline(false);
    mockFetch(() => ({ status: 201, body: created() }));
    expect((await queuePost(post('new'))).draftKey).toBe('post');
    expect((await queuePost({ ...post('reply'), replyingTo: 'pR' })).draftKey).toBe('post:rep=pR');
    expect((await queuePost({ ...post('in a group'), draftKey: 'post:g=cats' })).draftKey).toBe('post:g=cats');
    expect((await queueComment({ text: 'c', parent: 'pA', postId: 'pA', mentions: [], images: [] })).draftKey).toBe('comment:pA');
    const rows = await outboxRows();
    expect(rows.map((r) => [r.kind, r.status, r.attempts, r.draftKey])).toEqual([
      ['post', 'pending', 0, 'post'],
      ['post', 'pending', 0, 'post:rep=pR'],
      ['post', 'pending', 0, 'post:g=cats'],
      ['comment', 'pending', 0, 'comment:pA'],
    ]);
  });

  it('shows a new post at the top of the first explore pages (not the popular one, not twice), leaving other pages alone', async () => {
    const createdPost = created();
    mockFetch(() => ({ status: 201, body: createdPost }));
    const page = (feedKey: string, n: number, ids: string[]) => ({ feedKey, page: n, ids, hasMore: true, fetchedAt: 1 });
    await getDb().feedPages.bulkPut([
      page('explore|sort=new|time=all', 1, ['a']),
      page('explore|sort=new|time=all', 2, ['b']),
      page('explore|sort=new|time=week', 1, [createdPost._id, 'c']),
      page('explore|sort=popular|time=all', 1, ['d']),
      page('user:alice|sort=new|time=all', 1, ['e']),
    ]);
    await queuePost(post('fresh'));
    await kickOutbox();
    const ids = async (feedKey: string, n: number) => (await getDb().feedPages.get([feedKey, n]))?.ids;
    expect(await ids('explore|sort=new|time=all', 1)).toEqual([createdPost._id, 'a']);
    expect(await ids('explore|sort=new|time=all', 2)).toEqual(['b']);
    expect(await ids('explore|sort=new|time=week', 1)).toEqual([createdPost._id, 'c']);
    expect(await ids('explore|sort=popular|time=all', 1)).toEqual(['d']);
    expect(await ids('user:alice|sort=new|time=all', 1)).toEqual(['e']);
  });

  it('tells the server how many images follow the comment, so it goes to other servers with them; none for a comment without', async () => {
    const { calls } = mockFetch((call) => ({ status: 201, body: call.path === '/api/upload/image' ? { message: 'info/image_uploaded' } : apiComment(`c${String(nextId++).padStart(23, '0')}`, 'pA') }));
    await queueComment({ text: 'with a picture', parent: 'pA', postId: 'pA', mentions: [], images: [{ blob: new Blob(['png'], { type: 'image/png' }), name: 'a.png' }] });
    await kickOutbox();
    await queueComment({ text: 'no picture', parent: 'pA', postId: 'pA', mentions: [], images: [] });
    await kickOutbox();
    const creates = calls.filter((c) => c.method === 'POST' && c.path === '/api/comment/').map((c) => c.body as { text: string; images?: number });
    expect(creates).toEqual([expect.objectContaining({ text: 'with a picture', images: 1 }), expect.not.objectContaining({ images: expect.anything() })]);
  });

  it('tells the server how many images follow the post, so it goes to other servers with them; none for a post without', async () => {
    const createdPost = created();
    const { calls } = mockFetch((call) => ({ status: 201, body: call.path === '/api/upload/image' ? { message: 'info/image_uploaded' } : createdPost }));
    const image = () => ({ blob: new Blob(['png'], { type: 'image/png' }), name: 'a.png' });
    await queuePost({ ...post('two images'), images: [image(), image()] });
    await kickOutbox();
    await queuePost(post('no images'));
    await kickOutbox();
    const creates = calls.filter((c) => c.method === 'POST' && c.path === '/api/post').map((c) => c.body as { text: string; images?: number });
    expect(creates).toEqual([expect.objectContaining({ text: 'two images', images: 2 }), expect.not.objectContaining({ images: expect.anything() })]);
  });

  it('names each uploaded image, falling back to its position when it has no name', async () => {
    const createdPost = created();
    const { calls } = mockFetch((call) => ({ status: 201, body: call.path === '/api/upload/image' ? { message: 'info/image_uploaded' } : createdPost }));
    const image = (name: string) => ({ blob: new Blob(['png'], { type: 'image/png' }), name });
    await queuePost({ ...post('two images'), images: [image('cat.png'), image('')] });
    await kickOutbox();
    const uploads = calls.filter((c) => c.path === '/api/upload/image').map((c) => (c.body as unknown as { entries: [string, unknown, string?][] }).entries);
    expect(uploads.map((form) => form.map(([name, value, filename]) => [name, typeof value === 'string' ? value : 'blob', filename]))).toEqual([
      [['index', '0', undefined], ['id', createdPost._id, undefined], ['image', 'blob', 'cat.png']],
      [['index', '1', undefined], ['id', createdPost._id, undefined], ['image', 'blob', 'image1']],
    ]);
  });

  it('sends each image\'s description in the same request as the image, and none when it is blank', async () => {
    const createdPost = created();
    const { calls } = mockFetch((call) => ({ status: 201, body: call.path === '/api/upload/image' ? { url: '/media/x.webp' } : createdPost }));
    const image = (alt?: string) => ({ blob: new Blob(['png'], { type: 'image/png' }), name: 'a.png', ...(alt === undefined ? {} : { alt }) });
    await queuePost({ ...post('described'), images: [image(' A cat '), image('   '), image()] });
    await kickOutbox();
    const alts = calls
      .filter((c) => c.path === '/api/upload/image')
      .map((c) => (c.body as unknown as { entries: [string, unknown][] }).entries.filter(([name]) => name === 'alt').map(([, value]) => value));
    expect(alts).toEqual([[' A cat '], [], []]);
  });

  it('after its images are uploaded, keeps the post as the server now shows it', async () => {
    const createdPost = created();
    const { calls } = mockFetch((call) => {
      if (call.path === '/api/upload/image') return { status: 201, body: { message: 'info/image_uploaded' } };
      if (call.method === 'GET') return { body: { ...createdPost, media: ['/media/1.webp'] } };
      return { status: 201, body: createdPost };
    });
    await queuePost(post('pic', [new Blob(['png'], { type: 'image/png' })]));
    await kickOutbox();
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['POST /api/post', 'POST /api/upload/image', `GET /api/post/${createdPost._id}`]);
    expect((await getDb().posts.get(createdPost._id))?.media).toEqual(['/media/1.webp']);
  });

  it('after a lost answer on an image, creates nothing twice and resumes at the image not uploaded yet', async () => {
    const createdPost = created();
    let failSecond = true;
    const { calls } = mockFetch((call) => {
      if (call.path === '/api/upload/image') {
        const index = (call.body as unknown as { get: (name: string) => unknown }).get('index');
        if (index === '1' && failSecond) {
          failSecond = false;
          return { status: 502, body: { message: 'error/server_error' } };
        }
        return { status: 201, body: { message: 'info/image_uploaded' } };
      }
      return { status: 201, body: createdPost };
    });
    const blob = () => new Blob(['png'], { type: 'image/png' });
    const row = await queuePost(post('three', [blob(), blob(), blob()]));
    await kickOutbox();
    expect(await getDb().outbox.get(row.seq!)).toMatchObject({ status: 'failed', createdId: createdPost._id, uploaded: 1 });

    await getDb().outbox.update(row.seq!, { nextAttemptAt: 0 });
    await kickOutbox();
    expect(await getDb().outbox.count()).toBe(0);
    const uploads = calls.filter((c) => c.path === '/api/upload/image').map((c) => (c.body as unknown as { get: (name: string) => unknown }).get('index'));
    expect(uploads).toEqual(['0', '1', '1', '2']);
    expect(calls.filter((c) => c.path === '/api/post')).toHaveLength(1);
  });

  it('after a lost answer on a comment image, does not create the comment twice', async () => {
    const comment = { _id: 'c'.padEnd(24, '2'), text: 'pic', postId: 'pA', parent: 'pA', createdAt: 1 };
    let uploads = 0;
    const { calls } = mockFetch((call) => {
      if (call.path === '/api/upload/image') return uploads++ === 0 ? new TypeError('Failed to fetch') : { status: 201, body: { message: 'info/image_uploaded' } };
      return { status: 201, body: comment };
    });
    const row = await queueComment({ text: 'pic', parent: 'pA', postId: 'pA', mentions: [], images: [{ blob: new Blob(['png']), name: 'a.png' }] });
    await kickOutbox();
    expect(await getDb().outbox.get(row.seq!)).toMatchObject({ status: 'failed', createdId: comment._id, uploaded: 0 });
    await getDb().outbox.update(row.seq!, { nextAttemptAt: 0 });
    await kickOutbox();
    expect(await getDb().outbox.count()).toBe(0);
    expect(calls.map((c) => c.path)).toEqual(['/api/comment/', '/api/upload/image', '/api/upload/image']);
    expect((calls[2]!.body as unknown as { get: (name: string) => unknown }).get('id')).toBe(comment._id);
  });

  it.each([
    { refusal: { status: 415, body: { message: 'error/only_images' } }, message: 'error/only_images' },
    { refusal: { status: 415 }, message: 'common:upload_failed' },
  ])('skips an image the server refuses, says why ($message), and finishes the post', async ({ refusal, message }) => {
    const createdPost = created();
    let upload = 0;
    const { calls } = mockFetch((call) => {
      if (call.path === '/api/upload/image') return upload++ === 0 ? refusal : { status: 201, body: { message: 'info/image_uploaded', url: '/media/x.webp' } };
      return { status: 201, body: createdPost };
    });
    const before = getToasts().length;
    await queuePost(post('one bad image', [new Blob(['x']), new Blob(['png'])]));
    await kickOutbox();
    expect(await getDb().outbox.count()).toBe(0);
    expect(calls.filter((c) => c.path === '/api/upload/image')).toHaveLength(2);
    expect(getToasts().slice(before)).toEqual([expect.objectContaining({ kind: 'error', message })]);
  });

  it('stores a comment’s image as soon as it is uploaded, so the thread shows it without a reload', async () => {
    const comment = apiComment('c'.repeat(24), 'pA', { itsme: true, images: 1 });
    mockFetch((call) =>
      call.path === '/api/upload/image'
        ? { status: 201, body: { message: 'info/image_uploaded', url: `/media/${comment._id}0.webp?v=2` } }
        : { status: 201, body: comment },
    );
    await queueComment({ text: 'pic', parent: 'pA', postId: 'pA', mentions: [], images: [{ blob: new Blob(['png']), name: 'a.png' }] });
    await kickOutbox();
    expect((await getDb().comments.get(comment._id))?.media).toEqual([`/media/${comment._id}0.webp?v=2`]);
  });

  it('keeps a post whose image upload is refused for the session, for the next login', async () => {
    const createdPost = created();
    mockFetch((call) => (call.path === '/api/upload/image' ? { status: 401, body: { message: 'error/invalid_token' } } : { status: 201, body: createdPost }));
    const row = await queuePost(post('later', [new Blob(['png'])]));
    await kickOutbox();
    expect(await getDb().outbox.get(row.seq!)).toMatchObject({ status: 'pending', createdId: createdPost._id, uploaded: 0, error: 'invalid_token' });
  });

  it('keeps an item, marked to try later, when the request ends without any answer from the API, and logs it', async () => {
    fakeClock();
    const aborted = Object.assign(new Error('aborted'), { name: 'AbortError' });
    mockFetch(() => aborted);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const row = await queuePost(post('aborted'));
    await kickOutbox();
    expect(await getDb().outbox.get(row.seq!)).toMatchObject({ status: 'failed', attempts: 1, nextAttemptAt: Date.now() + 2_000 });
    expect(await loadDraft(draftKeys.post())).toBeUndefined();
    expect(logged).toHaveBeenCalledWith('outbox', aborted);
    logged.mockRestore();
  });

  it('treats an aborted image upload like the post: kept, not skipped', async () => {
    const createdPost = created();
    const aborted = Object.assign(new Error('aborted'), { name: 'AbortError' });
    mockFetch((call) => (call.path === '/api/upload/image' ? aborted : { status: 201, body: createdPost }));
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const before = getToasts().length;
    const row = await queuePost(post('aborted image', [new Blob(['png'])]));
    await kickOutbox();
    expect(await getDb().outbox.get(row.seq!)).toMatchObject({ status: 'failed', uploaded: 0 });
    expect(getToasts().slice(before)).toEqual([]);
    logged.mockRestore();
  });

  it('keeps an item when the server refuses the session, leaving the word to the shell', async () => {
    mockFetch(() => ({ status: 401 }));
    const before = getToasts().length;
    setOnline(false);
    const row = await queuePost(post('no session'));
    setOnline(true);
    await kickOutbox();
    expect(await getDb().outbox.get(row.seq!)).toMatchObject({ status: 'pending', error: 'no_token' });
    expect(getSession().expired).toBe(true);
    expect(getToasts().slice(before)).toEqual([]);
  });

  it('sends nothing while the session is expired, and everything once the same user logs in again', async () => {
    await refuseSession('token-1', 'alice', 'u1');
    const { calls } = mockFetch(() => ({ status: 201, body: created() }));
    setOnline(false);
    const row = await queuePost(post('written meanwhile'));
    setOnline(true);
    await kickOutbox();
    expect(calls).toHaveLength(0);
    expect(await getDb().outbox.get(row.seq!)).toBeDefined();

    const stop = startOutbox();
    try {
      storeSession('token-2', 'alice', 'u1');
      await until(async () => (await getDb().outbox.count()) === 0, 'the item sent after the login');
    } finally {
      stop();
    }
    expect(calls.map((c) => c.headers.Authorization)).toEqual(['Bearer token-2']);
  });
});

describe('refusals', () => {
  it('falls back to "posting failed" for a refused post the server gave no reason for', async () => {
    mockFetch(() => ({ status: 422 }));
    const before = getToasts().length;
    await queuePost(post('why?'));
    await kickOutbox();
    expect(await loadDraft(draftKeys.post())).toMatchObject({ text: 'why?', returnedError: 'posting_failed' });
    expect(getToasts().slice(before)).toEqual([expect.objectContaining({ message: 'error/posting_failed' })]);
  });

  it('gives a refused comment back to its comment box, with no groups, and a generic reason when none was given', async () => {
    mockFetch(() => ({ status: 400 }));
    const before = getToasts().length;
    await queueComment({ text: 'refused comment', parent: 'pA', postId: 'pA', mentions: [{ query: 'bob', id: 'u2' }], images: [] });
    await kickOutbox();
    expect(await getDb().outbox.count()).toBe(0);
    const draft = await loadDraft(draftKeys.comment('pA'));
    expect(draft).toMatchObject({ text: 'refused comment', mentions: [{ query: 'bob', id: 'u2' }], groups: [], images: [], returnedError: 'server_error' });
    expect(getToasts().slice(before)).toEqual([expect.objectContaining({ message: 'error/server_error' })]);
  });

  it('gives a refused post back to the composer it was written in', async () => {
    mockFetch(() => ({ status: 403, body: { message: 'error/not_member' } }));
    await queuePost({ ...post('group post'), groups: [{ query: 'cats', id: 'g1', locked: true }], draftKey: draftKeys.post({ g: 'cats' }) });
    await kickOutbox();
    expect(await loadDraft(draftKeys.post())).toBeUndefined();
    expect(await loadDraft('post:g=cats')).toMatchObject({ text: 'group post', returnedError: 'not_member' });
  });

  it('gives back an item stored without its draft (an older version) to the composer or comment box it belongs to', async () => {
    mockFetch(() => ({ status: 403, body: { message: 'error/banned' } }));
    await getDb().outbox.add(storedRow({ kind: 'post', payload: { text: 'old reply', mentions: [], groups: [], replyingTo: 'pR' } }));
    await getDb().outbox.add(storedRow({ kind: 'comment', payload: { text: 'old comment', parent: 'cP', postId: 'pA', mentions: [] } }));
    await kickOutbox();
    expect(await loadDraft('post:rep=pR')).toMatchObject({ text: 'old reply', returnedError: 'banned' });
    expect(await loadDraft('comment:cP')).toMatchObject({ text: 'old comment', returnedError: 'banned' });
  });

  it('reverts a refused like without making a draft, with a generic reason when none was given', async () => {
    mockFetch(() => ({ status: 409 }));
    const before = getToasts().length;
    await queueLike('comment', 'c1', true, false);
    await kickOutbox();
    expect(await getDb().outbox.count()).toBe(0);
    expect(await getDb().drafts.count()).toBe(0);
    expect(getToasts().slice(before)).toEqual([expect.objectContaining({ message: 'error/server_error' })]);
  });
});

describe('likes', () => {
  const likeRows = async () => (await outboxRows()).filter((r) => r.kind === 'like');

  it('queues one row per target, holding the state to set and the state it came from', async () => {
    setOnline(false);
    await queueLike('post', 'x1', true);
    await queueLike('comment', 'x1', false, true);
    expect(likeTarget('post', 'x1')).toBe('post:x1');
    expect(await likeRows()).toEqual([
      expect.objectContaining({ kind: 'like', status: 'pending', attempts: 0, target: 'post:x1', payload: { target: 'post', id: 'x1', liked: true, from: false }, images: [] }),
      expect.objectContaining({ kind: 'like', status: 'pending', attempts: 0, target: 'comment:x1', payload: { target: 'comment', id: 'x1', liked: false, from: true }, images: [] }),
    ]);
  });

  it('queues nothing for a like that sets what the server already has', async () => {
    setOnline(false);
    await queueLike('post', 'x1', true, true);
    await queueLike('post', 'x2', false, false);
    expect(await getDb().outbox.count()).toBe(0);
  });

  it('folds a further toggle into the waiting row, and drops the row when toggled back', async () => {
    setOnline(false);
    await queueLike('post', 'x1', true, false);
    await queueLike('post', 'x1', false, false);
    expect(await likeRows()).toEqual([]);
    await queueLike('post', 'x1', false, true);
    await queueLike('post', 'x1', true, true);
    await queueLike('post', 'x1', false, true);
    expect((await likeRows()).map((r) => r.payload)).toEqual([{ target: 'post', id: 'x1', liked: false, from: true }]);
  });

  it('keeps one row, still sendable, when the same toggle is made twice', async () => {
    setOnline(false);
    await queueLike('post', 'x1', true, false);
    await queueLike('post', 'x1', true, false);
    expect((await likeRows()).map((r) => r.payload)).toEqual([{ target: 'post', id: 'x1', liked: true, from: false }]);
  });

  it('measures a toggle against the like being sent, not the stale server state', async () => {
    setOnline(false);
    await getDb().outbox.add(storedRow({ kind: 'like', status: 'sending', target: 'post:x1', payload: { target: 'post', id: 'x1', liked: true, from: false } }));
    // The stale state says "not liked"; the one under way says "liked": nothing to add.
    await queueLike('post', 'x1', true, false);
    expect(await likeRows()).toHaveLength(1);
    await queueLike('post', 'x1', false, false);
    expect((await likeRows()).map((r) => [r.status, r.payload])).toEqual([
      ['sending', { target: 'post', id: 'x1', liked: true, from: false }],
      ['pending', { target: 'post', id: 'x1', liked: false, from: true }],
    ]);
    // Toggled back to what is being sent: the second row goes, the one under way stays.
    await queueLike('post', 'x1', true, false);
    expect((await likeRows()).map((r) => r.status)).toEqual(['sending']);
  });

  it('sends a toggle made during the send of the first one after it, with the final state', async () => {
    await getDb().posts.put({ ...apiPost('pL'), likes: 0, liked: false, cachedAt: 1 });
    let answer!: () => void;
    const { calls } = mockFetch(async (call) => {
      const liked = (call.body as { liked: boolean }).liked;
      if (liked) await new Promise<void>((resolve) => (answer = resolve));
      return { body: { likes: liked ? 1 : 0, liked } };
    });
    await queueLike('post', 'pL', true, false);
    await until(() => calls.length === 1, 'the first like to be sent');
    await queueLike('post', 'pL', false, false);
    expect(await likeRows()).toHaveLength(2);
    answer();
    await until(async () => (await getDb().outbox.count()) === 0, 'both likes');
    expect(calls.map((c) => [c.path, (c.body as { liked: boolean }).liked, c.headers['Idempotency-Key']?.length])).toEqual([
      ['/api/post/pL/like', true, 36],
      ['/api/post/pL/like', false, 36],
    ]);
    expect(await getDb().posts.get('pL')).toMatchObject({ likes: 0, liked: false });
  });

  it('keeps the server count of a liked comment in the comment cache', async () => {
    await getDb().comments.put({ _id: 'c1', text: 'hi', likes: 2, liked: false, cachedAt: 1 } as never);
    await getDb().posts.put({ ...apiPost('c1'), likes: 7, liked: false, cachedAt: 1 });
    const { calls } = mockFetch(() => ({ body: { likes: 3, liked: true } }));
    const before = await queueLike('comment', 'c1', true, false).then(() => outboxRows());
    await kickOutbox();
    expect(calls[0]).toMatchObject({ method: 'PATCH', path: '/api/comment/c1/like', body: { liked: true } });
    expect(calls[0]!.headers['Idempotency-Key']).toBe(before[0]!.idempotencyKey);
    expect(await getDb().comments.get('c1')).toMatchObject({ likes: 3, liked: true });
    expect(await getDb().posts.get('c1')).toMatchObject({ likes: 7, liked: false });
  });
});

describe('running the outbox', () => {
  it('folds kicks made while a drain runs into it: each item is sent once', async () => {
    setOnline(false);
    const { calls } = mockFetch(async () => {
      await realPause(5);
      return { status: 201, body: created() };
    });
    await queuePost(post('one'));
    await queuePost(post('two'));
    setOnline(true);
    await Promise.all([kickOutbox(), kickOutbox(), kickOutbox()]);
    expect(calls.map((c) => (c.body as { text: string }).text)).toEqual(['one', 'two']);
  });

  it('runs one more drain when kicked after the running one has looked', async () => {
    const { calls } = mockFetch(() => ({ status: 201, body: created() }));
    setOnline(false);
    await queuePost(post('queued offline'));
    const running = kickOutbox(); // finds the app offline
    setOnline(true);
    void kickOutbox(); // the network is back while that drain ends
    await running;
    expect(calls).toHaveLength(1);
  });

  it('drains under the lock every tab of the app shares', async () => {
    const names: string[] = [];
    Object.defineProperty(navigator, 'locks', {
      configurable: true,
      value: { request: (name: string, callback: () => Promise<void>) => (names.push(name), callback()) },
    });
    try {
      mockFetch(() => ({ status: 201, body: created() }));
      setOnline(false);
      await queuePost(post('x'));
      setOnline(true);
      await drainOutbox();
    } finally {
      Object.defineProperty(navigator, 'locks', { configurable: true, value: undefined });
    }
    expect(OUTBOX_LOCK).toBe('kruh-outbox');
    expect([...new Set(names)]).toEqual([OUTBOX_LOCK]);
    expect(await getDb().outbox.count()).toBe(0);
  });

  it('sends, without a lock, where there is no navigator at all', async () => {
    setOnline(false);
    await queuePost(post('no navigator'));
    const { calls } = mockFetch(() => ({ status: 201, body: created() }));
    const db = getDb();
    vi.stubGlobal('navigator', undefined);
    await drainOutbox(db);
    vi.unstubAllGlobals();
    expect(calls).toHaveLength(1);
  });

  it('sends what an earlier session left, including an item a closed tab was sending, when the app starts', async () => {
    setOnline(false);
    const { calls } = mockFetch((call) => ({ status: 201, body: call.path.endsWith('/like') ? { likes: 1, liked: true } : created() }));
    const first = await queuePost(post('before the reload'));
    await getDb().outbox.update(first.seq!, { status: 'sending', attempts: 1 });
    await queueLike('post', 'pL', true, false);
    // A reload: a fresh connection finds both items.
    const reopened = openDb(getDb().name);
    expect((await reopened.outbox.toArray()).map((r) => r.kind)).toEqual(['post', 'like']);
    reopened.close();

    setOnline(true);
    const stop = startOutbox();
    await until(async () => (await getDb().outbox.count()) === 0, 'the outbox to empty');
    stop();
    expect(calls.map((c) => c.path)).toEqual(['/api/post', '/api/post/pL/like']);
    expect(calls[0]!.headers['Idempotency-Key']).toBe(first.idempotencyKey);
  });

  it('sends when the session changes while started, and listens to nothing once stopped', async () => {
    const { calls } = mockFetch(() => ({ status: 201, body: created() }));
    const stop = startOutbox();
    await kickOutbox();
    await getDb().outbox.add(storedRow({ kind: 'post', payload: { text: 'left by a session', mentions: [], groups: [], replyingTo: null } }));
    storeSession('token-2', 'alice', 'u1');
    await until(() => calls.length === 1, 'the send on login');

    stop();
    const failed = await getDb().outbox.add(
      storedRow({ kind: 'post', status: 'failed', nextAttemptAt: Date.now() + 60_000, payload: { text: 'after stop', mentions: [], groups: [], replyingTo: null } }),
    );
    storeSession('token-3', 'alice', 'u1');
    window.dispatchEvent(new Event('online'));
    await settle();
    expect(calls).toHaveLength(1);
    expect((await getDb().outbox.get(failed))?.nextAttemptAt).toBeGreaterThan(Date.now());
  });
});

describe('newId', () => {
  it('uses the platform generator when there is one', () => {
    vi.stubGlobal('crypto', { randomUUID: () => 'platform-uuid', getRandomValues: () => new Uint8Array(16) });
    expect(newId()).toBe('platform-uuid');
  });

  it('builds a version 4 UUID from random bytes where randomUUID is missing (pages served over plain http)', () => {
    let fill = (bytes: Uint8Array) => bytes.forEach((_, i) => (bytes[i] = i));
    vi.stubGlobal('crypto', { getRandomValues: (bytes: Uint8Array) => (fill(bytes), bytes) });
    expect(newId()).toBe('00010203-0405-4607-8809-0a0b0c0d0e0f');
    fill = (bytes) => bytes.fill(0xff);
    expect(newId()).toBe('ffffffff-ffff-4fff-bfff-ffffffffffff');
  });
});
