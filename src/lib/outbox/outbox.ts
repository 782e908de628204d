import { ApiError, NetworkError, errorKeyOf, isRetryable } from '../api/client';
import { type KruhDb, type OutboxRow, getDb, requestPersistence } from '../db/db';
import { getSession, subscribeSession } from '../session-store';
import { toast } from '../toast';
import { mirrorSessionForWorker, requestBackgroundSync } from './background-sync';
import { handlerOf } from './handlers';
import { sendQueuedWith } from './queue';

/**
 * The outbox's drain: posts, comments, likes and the other kinds are written to the outbox table
 * first (each by its kind's queue function, `kinds/`), shown at once as pending, and sent from
 * here in creation order whenever the app is online. Each item carries an Idempotency-Key made
 * when it was queued, so a retry after a lost answer is applied once by the server. Network
 * failures and 5xx answers are retried with exponential backoff; a refusal (4xx) is shown with
 * its message and the item goes back to drafts (likes are reverted): nothing is dropped silently.
 * Only one tab sends at a time (Web Locks). This file holds the order, the retries and the lock;
 * what each kind of item is, sends and gives back lives in its module (`kinds/`, listed in
 * `handlers.ts`).
 */

export const OUTBOX_LOCK = 'kruh-outbox';
export const BACKOFF_BASE_MS = 2_000;
export const BACKOFF_MAX_MS = 5 * 60_000;

export const backoffDelay = (attempts: number): number =>
  Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1));

const isOnline = () => typeof navigator === 'undefined' || navigator.onLine !== false;

/** The server refused the item: say why, and give it back to its author as its kind does. */
async function reject(db: KruhDb, row: OutboxRow, err: unknown): Promise<void> {
  const handler = handlerOf(row);
  const key = errorKeyOf(err, handler.refusedFallback);
  toast.error(`error/${key}`);
  // Every table: what a kind gives back is its own business (a draft, a post's text, a block's state).
  await db.transaction('rw', db.tables, async () => {
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

// A kind's queue function starts the drain through this, without importing it.
sendQueuedWith(kickOutbox);

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
