import { createStore, get, set, type UseStore } from 'idb-keyval';
import { useEffect, useState } from 'react';
import { LIMITS } from '#core/limits';

/**
 * Search history: kept on this device per user id as a `searches` list of
 * {id, history[]}; entries are users and groups (by id) or free text, newest first, at most 30
 * distinct.
 */
export type HistoryEntry = ({ type: 'user' } & SavedName) | ({ type: 'group' } & SavedName) | { type: 'text'; text: string };

/**
 * A user or group by id, with the name and avatar it had when saved: what the list shows when the
 * current name cannot be asked for (offline). Entries saved before these were kept have neither.
 */
interface SavedName {
  id: string;
  name?: string;
  /** The versioned avatar address (pfpUrl, gpUrl), when it was known. */
  avatar?: string;
}

export interface UserHistory {
  id: string;
  history: HistoryEntry[];
}

const KEY = 'searches';
/** Visitors have a history too, under this id. */
const VISITOR = '';
let store: UseStore | undefined;
const listeners = new Set<() => void>();

function db(): UseStore {
  store ??= createStore('kruh-search-history', 'keyval');
  return store;
}

const sameEntry = (a: HistoryEntry, b: HistoryEntry): boolean =>
  a.type === b.type && (a.type === 'text' ? a.text === (b as typeof a).text : a.id === (b as typeof a).id);

async function readAll(): Promise<UserHistory[]> {
  return (await get<UserHistory[]>(KEY, db())) ?? [];
}

export async function loadHistory(userId: string | null): Promise<HistoryEntry[]> {
  const all = await readAll();
  return all.find((h) => h.id === (userId ?? VISITOR))?.history ?? [];
}

async function writeHistory(userId: string | null, history: HistoryEntry[]): Promise<void> {
  const id = userId ?? VISITOR;
  const all = (await readAll()).filter((h) => h.id !== id);
  if (history.length) all.push({ id, history });
  await set(KEY, all, db());
  for (const listener of listeners) listener();
}

/** Puts the entry first, dropping its older copy and anything past the limit. */
export async function addHistoryEntry(userId: string | null, entry: HistoryEntry): Promise<void> {
  if (entry.type === 'text' && entry.text.trim() === '') return;
  const history = await loadHistory(userId);
  const next = [entry, ...history.filter((e) => !sameEntry(e, entry))].slice(0, LIMITS.searchHistoryMax);
  await writeHistory(userId, next);
}

export async function clearHistory(userId: string | null): Promise<void> {
  await writeHistory(userId, []);
}

/** The user's history, kept current as entries are added or cleared. */
export function useSearchHistory(userId: string | null): HistoryEntry[] {
  const [history, setHistory] = useState<HistoryEntry[]>([]);
  useEffect(() => {
    let active = true;
    const refresh = () => {
      loadHistory(userId).then(
        (entries) => active && setHistory(entries),
        () => active && setHistory([]),
      );
    };
    refresh();
    listeners.add(refresh);
    return () => {
      active = false;
      listeners.delete(refresh);
    };
  }, [userId]);
  return history;
}
