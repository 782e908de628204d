import { ApiError, NetworkError, apiFetch, errorKeyOf, isRetryable } from '../api/client';
import type { Comment, LikeResult, Post } from '../api/types';
import {
  type CommentPayload,
  type DraftImage,
  type KruhDb,
  type OutboxRow,
  type PostPayload,
  type Slot,
  getDb,
} from '../db/db';
import { draftKeys, returnToDrafts } from '../drafts/drafts';
import { requestPersistence } from '../db/db';
import { subscribeSession } from '../session';
import { toast } from '../toast';

/**
 * The outbox: posts, comments and likes are written here first, shown at once as pending, and
 * sent in creation order whenever the app is online. Each item carries an Idempotency-Key made
 * when it was queued, so a retry after a lost answer is applied once by the server. Network
 * failures and 5xx answers are retried with exponential backoff; a refusal (4xx) is shown with
 * its message and the item goes back to drafts (likes are reverted): nothing is dropped silently.
 * Only one tab sends at a time (Web Locks).
 */

export const OUTBOX_LOCK = 'kruh-outbox';
export const BACKOFF_BASE_MS = 2_000;
export const BACKOFF_MAX_MS = 5 * 60_000;

export const backoffDelay = (attempts: number): number =>
  Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1));

export function newId(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const isOnline = () => typeof navigator === 'undefined' || navigator.onLine !== false;

function base(draftKey?: string) {
  return {
    idempotencyKey: newId(),
    status: 'pending' as const,
    attempts: 0,
    nextAttemptAt: 0,
    createdAt: Date.now(),
    clientId: newId(),
    ...(draftKey ? { draftKey } : {}),
  };
}

export interface QueuePostInput extends PostPayload {
  images: DraftImage[];
  draftKey?: string;
}

export async function queuePost(input: QueuePostInput, db: KruhDb = getDb()): Promise<OutboxRow> {
  const { images, draftKey, ...payload } = input;
  const row: OutboxRow = { ...base(draftKey ?? draftKeys.post({ rep: payload.replyingTo })), kind: 'post', payload, images };
  row.seq = await db.outbox.add(row);
  kickOutbox();
  return row;
}

export interface QueueCommentInput extends CommentPayload {
  images: DraftImage[];
  draftKey?: string;
}

export async function queueComment(input: QueueCommentInput, db: KruhDb = getDb()): Promise<OutboxRow> {
  const { images, draftKey, ...payload } = input;
  const row: OutboxRow = { ...base(draftKey ?? draftKeys.comment(payload.parent)), kind: 'comment', payload, images };
  row.seq = await db.outbox.add(row);
  kickOutbox();
  return row;
}

export const likeTarget = (target: 'post' | 'comment', id: string) => `${target}:${id}`;

/**
 * Sets a like to `liked`. Toggles of one target that have not been sent yet are folded into one
 * row holding the final state; toggling back to the server's state removes the row altogether.
 * `from` is the server's state as last seen (used when no row exists yet).
 */
export async function queueLike(
  target: 'post' | 'comment',
  id: string,
  liked: boolean,
  from: boolean = !liked,
  db: KruhDb = getDb(),
): Promise<void> {
  const key = likeTarget(target, id);
  await db.transaction('rw', db.outbox, async () => {
    const rows = await db.outbox.where('target').equals(key).toArray();
    const open = rows.find((r) => r.kind === 'like' && r.status !== 'sending');
    if (open && open.kind === 'like') {
      if (open.payload.from === liked) await db.outbox.delete(open.seq!);
      else await db.outbox.update(open.seq!, { payload: { ...open.payload, liked } });
      return;
    }
    const inFlight = rows.find((r) => r.kind === 'like');
    // The server state is the one being sent, when a send is under way.
    const serverState = inFlight && inFlight.kind === 'like' ? inFlight.payload.liked : from;
    if (serverState === liked) return;
    await db.outbox.add({ ...base(), kind: 'like', target: key, payload: { target, id, liked, from: serverState }, images: [] });
  });
  kickOutbox();
}

const slotValues = (slots: Slot[]) =>
  slots.map((s) => s.id ?? s.query.trim()).filter((v) => v !== '');

function imageForm(image: DraftImage, index: number, id: string): FormData {
  const form = new FormData();
  form.append('index', String(index));
  form.append('id', id);
  form.append('image', image.blob, image.name || `image${index}`);
  return form;
}

/** Uploads the images not uploaded yet; a refused image is reported and skipped. */
async function uploadImages(db: KruhDb, row: OutboxRow, ownerId: string): Promise<void> {
  for (let index = row.uploaded ?? 0; index < row.images.length; index++) {
    try {
      await apiFetch('/upload/image', { method: 'POST', formData: imageForm(row.images[index]!, index, ownerId) });
    } catch (err) {
      if (!(err instanceof ApiError) || isRetryable(err) || err.status === 401) throw err;
      toast.error(`error/${errorKeyOf(err, 'only_images')}`);
    }
    await db.outbox.update(row.seq!, { uploaded: index + 1 });
  }
}

async function sendPost(db: KruhDb, row: Extract<OutboxRow, { kind: 'post' }>): Promise<void> {
  let id = row.createdId;
  if (!id) {
    const post = await apiFetch<Post>('/post', {
      method: 'POST',
      headers: { 'Idempotency-Key': row.idempotencyKey },
      body: {
        text: row.payload.text,
        mentions: slotValues(row.payload.mentions),
        groups: slotValues(row.payload.groups),
        ...(row.payload.replyingTo ? { replyingTo: row.payload.replyingTo } : {}),
      },
    });
    id = post._id;
    await db.transaction('rw', db.outbox, db.posts, db.feedPages, async () => {
      await db.outbox.update(row.seq!, { createdId: id, uploaded: 0 });
      await db.posts.put({ ...post, cachedAt: Date.now() });
      // Keep the new post on screen where it was shown pending, until the feed is fetched again.
      const firstPages = await db.feedPages.where('feedKey').startsWith('explore').filter((p) => p.page === 1).toArray();
      for (const page of firstPages) {
        if (page.feedKey.includes('sort=popular')) continue;
        if (!page.ids.includes(post._id)) await db.feedPages.put({ ...page, ids: [post._id, ...page.ids] });
      }
    });
    row = { ...row, createdId: id, uploaded: 0 };
  }
  if (row.images.length > 0) {
    await uploadImages(db, row, id);
    try {
      const fresh = await apiFetch<Post>(`/post/${id}`);
      await db.posts.put({ ...fresh, cachedAt: Date.now() });
    } catch {
      // The feed fetches it again anyway.
    }
  }
}

async function sendComment(db: KruhDb, row: Extract<OutboxRow, { kind: 'comment' }>): Promise<void> {
  let id = row.createdId;
  if (!id) {
    const comment = await apiFetch<Comment>('/comment/', {
      method: 'POST',
      headers: { 'Idempotency-Key': row.idempotencyKey },
      body: { text: row.payload.text, parent: row.payload.parent, mentions: slotValues(row.payload.mentions) },
    });
    id = comment._id;
    await db.transaction('rw', db.outbox, db.comments, async () => {
      await db.outbox.update(row.seq!, { createdId: id, uploaded: 0 });
      await db.comments.put({ ...comment, cachedAt: Date.now() });
    });
    row = { ...row, createdId: id, uploaded: 0 };
  }
  if (row.images.length > 0) await uploadImages(db, row, id);
}

async function sendLike(db: KruhDb, row: Extract<OutboxRow, { kind: 'like' }>): Promise<void> {
  const { target, id, liked } = row.payload;
  const result = await apiFetch<LikeResult>(`/${target}/${id}/like`, {
    method: 'PATCH',
    headers: { 'Idempotency-Key': row.idempotencyKey },
    body: { liked },
  });
  const table = target === 'post' ? db.posts : db.comments;
  await table.update(id, { likes: result.likes, liked: result.liked });
}

async function send(db: KruhDb, row: OutboxRow): Promise<void> {
  if (row.kind === 'post') return sendPost(db, row);
  if (row.kind === 'comment') return sendComment(db, row);
  return sendLike(db, row);
}

/** The server refused the item: say why and give it back to its author. */
async function reject(db: KruhDb, row: OutboxRow, err: unknown): Promise<void> {
  const key = errorKeyOf(err, row.kind === 'post' ? 'posting_failed' : 'server_error');
  toast.error(`error/${key}`);
  await db.transaction('rw', db.outbox, db.drafts, async () => {
    if (row.kind !== 'like' && !row.createdId) {
      await returnToDrafts(
        row.draftKey ?? (row.kind === 'post' ? draftKeys.post({ rep: row.payload.replyingTo }) : draftKeys.comment(row.payload.parent)),
        {
          text: row.payload.text,
          mentions: row.payload.mentions,
          groups: row.kind === 'post' ? row.payload.groups : [],
          images: row.images,
          returnedError: key,
        },
        row.clientId,
        db,
      );
    }
    await db.outbox.delete(row.seq!);
  });
}

let timer: ReturnType<typeof setTimeout> | null = null;

function schedule(ms: number): void {
  if (timer) clearTimeout(timer);
  timer = setTimeout(() => {
    timer = null;
    kickOutbox();
  }, ms);
}

/** Sends items in creation order until the outbox is empty, the app is offline, or it must wait. */
async function drainLocked(db: KruhDb): Promise<void> {
  for (;;) {
    if (!isOnline()) return;
    const row = await db.outbox.orderBy('seq').first();
    if (!row) return;
    const now = Date.now();
    if (row.nextAttemptAt > now) {
      schedule(row.nextAttemptAt - now);
      return;
    }
    const attempts = row.attempts + 1;
    // Under the lock no other tab is sending, so a row left 'sending' by a closed tab is retried.
    await db.outbox.update(row.seq!, { status: 'sending', attempts });
    try {
      await send(db, row);
      await db.outbox.delete(row.seq!);
    } catch (err) {
      if (isRetryable(err)) {
        const wait = backoffDelay(attempts);
        await db.outbox.update(row.seq!, {
          status: 'failed',
          nextAttemptAt: Date.now() + wait,
          error: err instanceof NetworkError ? 'loading_failed' : errorKeyOf(err),
        });
        // Offline: the `online` event resumes. Otherwise try again after the backoff.
        if (isOnline()) schedule(wait);
        return;
      }
      if (err instanceof ApiError && err.status === 401) {
        // Not the item's fault: keep it for when the session is valid again.
        await db.outbox.update(row.seq!, { status: 'pending', error: errorKeyOf(err, 'no_token') });
        toast.error(`error/${errorKeyOf(err, 'no_token')}`);
        return;
      }
      if (!(err instanceof ApiError)) {
        await db.outbox.update(row.seq!, { status: 'failed', nextAttemptAt: Date.now() + backoffDelay(attempts) });
        throw err;
      }
      await reject(db, row, err);
    }
  }
}

type LockManagerLike = { request: (name: string, callback: () => Promise<void>) => Promise<void> };

/** One drain under the cross-tab lock (or directly where Web Locks do not exist). */
export async function drainOutbox(db: KruhDb = getDb()): Promise<void> {
  const locks = (typeof navigator !== 'undefined' ? (navigator as { locks?: LockManagerLike }).locks : undefined);
  if (locks?.request) await locks.request(OUTBOX_LOCK, () => drainLocked(db));
  else await drainLocked(db);
}

let running: Promise<void> | null = null;
let again = false;

/** Starts sending now (or right after the drain under way). */
export function kickOutbox(): Promise<void> {
  if (running) {
    again = true;
    return running;
  }
  running = (async () => {
    do {
      again = false;
      try {
        await drainOutbox(getDb());
      } catch (err) {
        console.error('outbox', err);
      }
    } while (again);
  })().finally(() => {
    running = null;
  });
  return running;
}

/** Items that failed for lack of network become due again once the network is back. */
async function onOnline(): Promise<void> {
  const db = getDb();
  await db.outbox.where('status').equals('failed').modify((row) => {
    row.nextAttemptAt = 0;
  });
  kickOutbox();
}

/** Cancels a scheduled retry (logout, tests). */
export function cancelScheduledSend(): void {
  if (timer) clearTimeout(timer);
  timer = null;
}

/** Called once at app start: storage persistence, resume on `online`, send what is waiting. */
export function startOutbox(): () => void {
  void requestPersistence();
  const online = () => void onOnline();
  window.addEventListener('online', online);
  // Another account (or this one again) may have items waiting from an earlier session.
  const unsubscribe = subscribeSession(() => kickOutbox());
  kickOutbox();
  return () => {
    window.removeEventListener('online', online);
    unsubscribe();
    cancelScheduledSend();
  };
}
