import { useSyncExternalStore } from 'react';
import { type KruhDb, getDb, subscribeDb } from './db';

/** The current account's database; components re-render when the account changes. */
export function useDb(): KruhDb {
  return useSyncExternalStore(subscribeDb, getDb, getDb);
}
