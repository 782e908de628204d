import { useSyncExternalStore } from 'react';
import { type Session, getSession, subscribeSession } from './session-store';

export * from './session-store';

/**
 * The app state: isLoggedIn, user (username) and id; `expired` once the server refused the
 * session (still logged in to this device's data, but the server needs a new login).
 */
export function useSession(): Omit<Session, 'expired'> & { isLoggedIn: boolean; expired: boolean } {
  const session = useSyncExternalStore(subscribeSession, getSession, getSession);
  return { ...session, isLoggedIn: !!session.token, expired: !!session.expired };
}
