import { type UseStore, createStore, del, get, set } from 'idb-keyval';
import { type Session, getSession, subscribeSession } from '../session-store';

/**
 * Background Sync: the outbox is also sent by the service worker, when the browser says the
 * network is back, even with every tab of the app closed. The worker runs the same outbox code on
 * the same rows, so the idempotency keys are the ones the page would send, and the Web Lock keeps
 * page and worker from sending at the same time. Where the browser has no Background Sync the
 * page sends at its next start, as it always does.
 *
 * A service worker cannot read localStorage, where the session lives, so the page keeps a copy of
 * it in IndexedDB for the worker (removed at logout).
 */
export const SYNC_TAG = 'kruh-outbox';

const SESSION_KEY = 'session';
let store: UseStore | null = null;
// Opened on first use: importing this module must not open a database.
const sessionStore = (): UseStore => (store ??= createStore('kruh-worker', 'session'));

export async function mirrorSession(session: Session): Promise<void> {
  if (session.token && session.id) await set(SESSION_KEY, session, sessionStore());
  else await del(SESSION_KEY, sessionStore());
}

/** The session as the page last saw it (undefined when logged out). */
export function mirroredSession(): Promise<Session | undefined> {
  return get<Session>(SESSION_KEY, sessionStore());
}

/** Keeps the worker's copy of the session current; answers a function that stops it. */
export function mirrorSessionForWorker(): () => void {
  const mirror = () => {
    mirrorSession(getSession()).catch((err: unknown) => console.warn('session mirror', err));
  };
  mirror();
  return subscribeSession(mirror);
}

interface SyncManagerLike {
  register(tag: string): Promise<void>;
}

/**
 * Asks the browser for a sync event once the network is back; false where it cannot (no service
 * worker yet, no Background Sync, or sync refused by permissions or private mode): the page then
 * sends at its next start.
 */
export async function requestBackgroundSync(): Promise<boolean> {
  const registration = await globalThis.navigator?.serviceWorker?.getRegistration().catch(() => undefined);
  const sync = (registration as (ServiceWorkerRegistration & { sync?: SyncManagerLike }) | undefined)?.sync;
  if (!sync) return false;
  return sync.register(SYNC_TAG).then(
    () => true,
    () => false,
  );
}
