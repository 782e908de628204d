import { ApiError, NetworkError, errorKeyOf, isRetryable } from '../api/client';
import type { OutboxRowOf } from './kinds/handler';
import {
  type CommentPayload,
  type DraftImage,
  type EditPayload,
  type KruhDb,
  type OutboxRow,
  type PostPayload,
  type SafetyAction,
  type ReportPayload,
  getDb,
} from '../db/db';
import { requestPersistence } from '../db/db';
import { withRoom } from '../db/prune';
import { getSession, subscribeSession } from '../session-store';
import { toast } from '../toast';
import { mirrorSessionForWorker, requestBackgroundSync } from './background-sync';
import { handlerOf } from './handlers';
import { commentDraftKey } from './kinds/comment';
import { editMentions, editTarget } from './kinds/edit';
import { postDraftKey } from './kinds/post';
import { safetyStateKey, setSafetyState } from './kinds/safety';
import { hideOnStoredPages } from '../query/safety-pages';
import { patchStoredAccount, readStoredAccount } from '../stored-account';
import type { Language } from '#core/api/account';

/**
 * The outbox: posts, comments and likes are written here first, shown at once as pending, and
 * sent in creation order whenever the app is online. Each item carries an Idempotency-Key made
 * when it was queued, so a retry after a lost answer is applied once by the server. Network
 * failures and 5xx answers are retried with exponential backoff; a refusal (4xx) is shown with
 * its message and the item goes back to drafts (likes are reverted): nothing is dropped silently.
 * Only one tab sends at a time (Web Locks). This file holds the order, the retries and the lock;
 * what each kind of item sends and leaves behind lives in its handler (`handlers.ts`, `kinds/`).
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

/** What an editor queues: the item, its images and the draft it was written in. */
type QueueInput<P> = P & { images: DraftImage[]; draftKey?: string };
export type QueuePostInput = QueueInput<PostPayload>;
export type QueueCommentInput = QueueInput<CommentPayload>;

/** Adds a row to the outbox and starts sending. */
async function enqueue(row: OutboxRow, db: KruhDb): Promise<OutboxRow> {
  // Storage may be full of cache: room is made for what must not be lost.
  row.seq = await withRoom(db, () => db.outbox.add(row));
  kickOutbox();
  return row;
}

export function queuePost({ images, draftKey, ...payload }: QueuePostInput, db: KruhDb = getDb()): Promise<OutboxRow> {
  return enqueue({ ...base(draftKey ?? postDraftKey(payload)), kind: 'post', payload, images }, db);
}

export function queueComment({ images, draftKey, ...payload }: QueueCommentInput, db: KruhDb = getDb()): Promise<OutboxRow> {
  return enqueue({ ...base(draftKey ?? commentDraftKey(payload)), kind: 'comment', payload, images }, db);
}

/**
 * Reports a post, comment or user to the moderators. A second report of the same target while the
 * first still waits is not queued again: the server would only refuse it as already reported.
 */
export async function queueReport(payload: ReportPayload, db: KruhDb = getDb()): Promise<void> {
  const target = `report:${payload.kind}:${payload.id}`;
  await withRoom(db, () => db.transaction('rw', db.outbox, async () => {
    if ((await db.outbox.where('target').equals(target).count()) > 0) return;
    await db.outbox.add({ ...base(), kind: 'report', target, payload, images: [] });
  }));
  kickOutbox();
}

/**
 * Queues a new version of a post's text and shows it at once: the local copy of the post takes the
 * text (so it reads so offline too), and the row keeps the copy as it was, for a refusal.
 */
export async function queueEdit(payload: Omit<EditPayload, 'previous'>, db: KruhDb = getDb()): Promise<void> {
  const key = editTarget(payload.postId);
  await withRoom(db, () => db.transaction('rw', db.outbox, db.posts, async () => {
    const post = await db.posts.get(payload.postId);
    const previous = {
      text: post?.text ?? '',
      mentions: post?.mentions ?? [],
      contentWarning: post?.contentWarning ?? null,
      editedAt: post?.editedAt ?? null,
    };
    const now = Date.now();
    await db.outbox.add({ ...base(), kind: 'edit', target: key, payload: { ...payload, previous }, images: [] });
    await db.posts.update(payload.postId, {
      text: payload.text,
      mentions: editMentions(payload),
      contentWarning: payload.contentWarning?.trim() || null,
      editedAt: now,
    });
  }));
  kickOutbox();
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
  await withRoom(db, () => db.transaction('rw', db.outbox, () => foldToggle<OutboxRowOf<'like'>>(db, {
    kind: 'like',
    target: key,
    wanted: liked,
    known: from,
    stateOf: (row) => row.payload.liked,
    create: (serverState) => ({ ...base(), kind: 'like', target: key, payload: { target, id, liked, from: serverState }, images: [] }),
  })));
  kickOutbox();
}

/** The rows that set one state, where only the last wanted state matters (a like, a block, the language). */
type ToggleRow = OutboxRowOf<'like' | 'safety' | 'language'>;
type StateOf<R extends ToggleRow> = R['payload']['from'];

/** A change of one state and how its rows hold it. */
interface Toggle<R extends ToggleRow> {
  kind: R['kind'];
  target: string;
  wanted: StateOf<R>;
  /** The server's state as last seen, when no row of the target exists. */
  known: StateOf<R>;
  stateOf: (row: R) => StateOf<R>;
  /** A new row setting `wanted`, the server holding `serverState`. */
  create: (serverState: StateOf<R>) => R;
}

/**
 * Folds a change of a toggle into the outbox: an unsent row of the same target takes the new
 * state, or goes when the state is back to the server's; otherwise a row is added, unless the
 * server already holds the state (the one being sent, when a send is under way). Runs inside the
 * caller's transaction.
 */
async function foldToggle<R extends ToggleRow>(db: KruhDb, toggle: Toggle<R>): Promise<void> {
  const rows = (await db.outbox.where('target').equals(toggle.target).toArray()).filter((r): r is R => r.kind === toggle.kind);
  const open = rows.find((r) => r.status !== 'sending');
  if (open) {
    if (open.payload.from === toggle.wanted) await db.outbox.delete(open.seq!);
    else await db.outbox.update(open.seq!, { payload: toggle.create(open.payload.from).payload });
    return;
  }
  const inFlight = rows[0];
  const serverState = inFlight ? toggle.stateOf(inFlight) : toggle.known;
  if (serverState === toggle.wanted) return;
  await db.outbox.add(toggle.create(serverState));
}

/**
 * Sets a block, a mute or a muted hashtag to `on`. Like a like, changes of one subject not sent yet
 * fold into one row, and going back to the server's state removes it. The state the screens read
 * changes at once, and what a new block or mute hides leaves the stored pages in the same moment.
 */
export async function queueSafety(
  action: SafetyAction,
  subject: string,
  on: boolean,
  { label, from }: { label?: string; from?: boolean } = {},
  db: KruhDb = getDb(),
): Promise<void> {
  const key = `safety:${action}:${subject}`;
  await withRoom(db, () => db.transaction('rw', db.outbox, db.meta, async () => {
    // `from` is the state a screen saw from the server (a list of blocked users) when this device kept none.
    const known = from ?? (await db.meta.get(safetyStateKey(action, subject)))?.value === true;
    await setSafetyState(db, action, subject, on);
    await foldToggle<OutboxRowOf<'safety'>>(db, {
      kind: 'safety',
      target: key,
      wanted: on,
      known,
      stateOf: (row) => row.payload.on,
      create: (serverState) => ({
        ...base(),
        kind: 'safety',
        target: key,
        payload: { action, subject, on, from: serverState, ...(label ? { label } : {}) },
        images: [],
      }),
    });
  }));
  if (on) await hideOnStoredPages(db, action, subject);
  void kickOutbox();
}

/**
 * Sets the language the server writes the account's emails and notifications in. Changes not sent
 * yet fold into one row, and going back to the server's language removes it; the stored account
 * takes the language at once, so the account screen shows the choice offline.
 */
export async function queueLanguage(language: Language, db: KruhDb = getDb()): Promise<void> {
  await withRoom(db, () => db.transaction('rw', db.outbox, db.meta, async () => {
    // The account's language is one the server accepted, so one of the app's languages.
    const known = ((await readStoredAccount(db))?.language ?? language) as Language;
    await patchStoredAccount(db, { language });
    await foldToggle<OutboxRowOf<'language'>>(db, {
      kind: 'language',
      target: LANGUAGE_TARGET,
      wanted: language,
      known,
      stateOf: (row) => row.payload.language,
      create: (serverState) => ({ ...base(), kind: 'language', target: LANGUAGE_TARGET, payload: { language, from: serverState }, images: [] }),
    });
  }));
  void kickOutbox();
}

const LANGUAGE_TARGET = 'account:language';

/** The server refused the item: say why, and give it back to its author as its kind does. */
async function reject(db: KruhDb, row: OutboxRow, err: unknown): Promise<void> {
  const handler = handlerOf(row);
  const key = errorKeyOf(err, handler.refusedFallback);
  toast.error(`error/${key}`);
  // The posts too: a refused edit puts its post back as it was; the meta, where a refused block or mute goes back.
  await db.transaction('rw', db.outbox, db.drafts, db.posts, db.meta, async () => {
    await handler.giveBack(db, row, key);
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

/**
 * How a drain runs. In the page, a refusal is shown and given back at once and retries are
 * scheduled. In the service worker (Background Sync, the app may be closed) nobody would see a
 * toast: a refused item is left marked `refused` for the page to give back when it next runs, and
 * the browser, not a timer, decides when to try again.
 */
export interface DrainOptions {
  inWorker?: boolean;
}

/**
 * Sends items in creation order until the outbox is empty, the app is offline, or it must wait.
 * When the account's session ends meanwhile (a logout, or a token the server refused), its
 * database closes under the drain: that is no fault, the items wait in it for the account's next
 * login, which starts a drain of its own.
 */
async function drainLocked(db: KruhDb, options: DrainOptions): Promise<void> {
  try {
    await drainRows(db, options);
  } catch (err) {
    if (!databaseClosed(err)) throw err;
  }
}

/** The account's database closed under the work (its session ended, or its data was cleared). */
const databaseClosed = (err: unknown): boolean => (err as Error | undefined)?.name === 'DatabaseClosedError';

async function drainRows(db: KruhDb, { inWorker = false }: DrainOptions): Promise<void> {
  for (;;) {
    // A session the server refused would only be refused again: the items wait for the next login.
    if (!isOnline() || getSession().expired) return;
    const row = await db.outbox.orderBy('seq').first();
    if (!row) return;
    if (row.status === 'refused') {
      if (inWorker) return;
      await reject(db, row, new ApiError(400, row.error, 'refused while the app was closed'));
      continue;
    }
    const now = Date.now();
    if (row.nextAttemptAt > now) {
      if (!inWorker) schedule(row.nextAttemptAt - now);
      return;
    }
    const attempts = row.attempts + 1;
    // Under the lock no other tab is sending, so a row left 'sending' by a closed tab is retried.
    await db.outbox.update(row.seq!, { status: 'sending', attempts });
    try {
      await handlerOf(row).send(db, row);
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
        if (isOnline() && !inWorker) schedule(wait);
        return;
      }
      if (err instanceof ApiError && err.status === 401) {
        // Not the item's fault: keep it for when the session is valid again.
        await db.outbox.update(row.seq!, { status: 'pending', error: errorKeyOf(err, 'no_token') });
        // A refused session is said once, by the shell's notice; a toast is left for a call sent without one.
        if (!getSession().expired) toast.error(`error/${errorKeyOf(err, 'no_token')}`);
        return;
      }
      if (!(err instanceof ApiError)) {
        await db.outbox.update(row.seq!, { status: 'failed', nextAttemptAt: Date.now() + backoffDelay(attempts) });
        throw err;
      }
      if (inWorker) {
        await db.outbox.update(row.seq!, { status: 'refused', error: errorKeyOf(err, handlerOf(row).refusedFallback) });
        return;
      }
      await reject(db, row, err);
    }
  }
}

type LockManagerLike = { request: (name: string, callback: () => Promise<void>) => Promise<void> };

/** One drain under the cross-tab lock (or directly where Web Locks do not exist). */
export async function drainOutbox(db: KruhDb = getDb(), options: DrainOptions = {}): Promise<void> {
  const locks = (typeof navigator !== 'undefined' ? (navigator as { locks?: LockManagerLike }).locks : undefined);
  if (locks?.request) await locks.request(OUTBOX_LOCK, () => drainLocked(db, options));
  else await drainLocked(db, options);
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
        // Items left waiting are also handed to Background Sync, which may send them after the app
        // closes. Checked before `again`, so a kick made meanwhile still drains once more.
        if ((await getDb().outbox.count()) > 0) await requestBackgroundSync();
      } catch (err) {
        if (!databaseClosed(err)) console.error('outbox', err);
      }
    } while (again);
  })().finally(() => {
    running = null;
  });
  return running;
}

/** Items that failed for lack of network become due again once the network is back. */
export async function makeFailedDue(db: KruhDb): Promise<void> {
  await db.outbox.where('status').equals('failed').modify((row) => {
    row.nextAttemptAt = 0;
  });
}

async function onOnline(): Promise<void> {
  await makeFailedDue(getDb());
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
  const stopMirror = mirrorSessionForWorker();
  const online = () => void onOnline();
  window.addEventListener('online', online);
  // Another account (or this one again) may have items waiting from an earlier session.
  const unsubscribe = subscribeSession(() => kickOutbox());
  kickOutbox();
  return () => {
    window.removeEventListener('online', online);
    unsubscribe();
    stopMirror();
    cancelScheduledSend();
  };
}
