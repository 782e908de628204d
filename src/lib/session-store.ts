/**
 * The session: token, username and id in localStorage. Logged in means a token is
 * present. Other tabs see changes through the storage event. Free of React, so the service
 * worker (Background Sync) carries no UI code; screens read it through useSession (session.ts).
 */
export interface Session {
  token: string | null;
  username: string | null;
  id: string | null;
  /**
   * The server refused the token (a password changed elsewhere, say). The token and id stay, so
   * the account's local database stays readable and its outbox waits, until the next login.
   */
  expired?: true;
}

const KEYS = { token: 'token', username: 'username', id: 'id', expired: 'sessionExpired' } as const;
const listeners = new Set<() => void>();
let cached: Session | null = null;

/** Set in the service worker, which has no localStorage: the session the page mirrored for it. */
let workerSession: Session | null = null;

function read(): Session {
  if (typeof localStorage === 'undefined') return workerSession ?? { token: null, username: null, id: null };
  const token = localStorage.getItem(KEYS.token);
  return {
    token,
    username: localStorage.getItem(KEYS.username),
    id: localStorage.getItem(KEYS.id),
    // Kept with the token it was said of: a token stored by another tab meanwhile is not expired.
    ...(token !== null && localStorage.getItem(KEYS.expired) === token ? { expired: true as const } : {}),
  };
}

function changed(): void {
  cached = null;
  for (const listener of listeners) listener();
}

export function getSession(): Session {
  cached ??= read();
  return cached;
}

/** In the service worker: act as the session the page mirrored (see outbox/background-sync). */
export function adoptWorkerSession(session: Session): void {
  workerSession = session;
  cached = null;
}

export const isLoggedIn = (): boolean => !!getSession().token;

export function storeSession(token: string, username: string, id: string): void {
  localStorage.setItem(KEYS.token, token);
  localStorage.setItem(KEYS.username, username);
  localStorage.setItem(KEYS.id, id);
  localStorage.removeItem(KEYS.expired);
  changed();
}

/**
 * The server refused `token`: when it is still the session's, the session is marked expired. A
 * refusal of an earlier token (a call sent before the last login) says nothing of the current one.
 * In the service worker (no localStorage) the page finds out for itself.
 */
export function markSessionExpired(token: string): void {
  if (typeof localStorage === 'undefined') return;
  const session = getSession();
  if (session.token !== token || session.expired) return;
  localStorage.setItem(KEYS.expired, token);
  changed();
}

export function setSessionUsername(username: string): void {
  localStorage.setItem(KEYS.username, username);
  changed();
}

export function clearSession(): void {
  for (const key of Object.values(KEYS)) localStorage.removeItem(key);
  changed();
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || Object.values(KEYS).includes(event.key as never)) changed();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}
