import { useSyncExternalStore } from 'react';
import { type Session, getSession, subscribeSession } from './session-store';

export * from './session-store';

/** The app state: isLoggedIn, user (username) and id. */
export function useSession(): Session & { isLoggedIn: boolean } {
  const session = useSyncExternalStore(subscribeSession, getSession, getSession);
  return { ...session, isLoggedIn: !!session.token };
}
