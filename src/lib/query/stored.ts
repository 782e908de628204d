import { type QueryKey, useQuery } from '@tanstack/react-query';
import { useLiveQuery } from 'dexie-react-hooks';
import type { Table } from 'dexie';
import { type Group, groupsApi } from '#core/api/groups';
import { type Profile, profilesApi } from '#core/api/profiles';
import { DELETED } from '#core/limits';
import { ApiError, callApi } from '../api/client';
import type { KruhDb } from '../db/db';
import { useDb } from '../db/useDb';
import { queryKeys } from './keys';

/** A row holding one page's subject (a profile, a group) by its name, as the server last sent it. */
interface SubjectRow {
  data: unknown;
  cachedAt: number;
}

/**
 * Fetches a page's subject and keeps the copy in `table` (the screen reads from there); a 404
 * removes the stored copy. `row` names the copy's key field.
 */
export async function fetchAndStore<T, R extends SubjectRow>(
  table: Table<R, string>,
  row: Omit<R, keyof SubjectRow>,
  key: string,
  load: () => Promise<T>,
): Promise<T> {
  try {
    const data = await load();
    await table.put({ ...row, data, cachedAt: Date.now() } as R);
    return data;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) await table.delete(key);
    throw err;
  }
}

/**
 * A page's subject by name: fetched from the server while the stored copy is read live from the
 * local database. A blank or deleted name asks for nothing.
 */
export function useStoredSubject<T>(options: {
  key: string;
  table: (db: KruhDb) => Table<SubjectRow, string>;
  queryKey: (dbName: string) => QueryKey;
  fetch: (db: KruhDb, signal: AbortSignal) => Promise<T>;
}) {
  const { key, table, queryKey, fetch } = options;
  const db = useDb();
  const valid = key !== '' && key !== DELETED;
  const query = useQuery({
    queryKey: queryKey(db.name),
    queryFn: ({ signal }) => fetch(db, signal),
    enabled: valid,
  });
  const stored = useLiveQuery(async () => (valid ? ((await table(db).get(key)) ?? null) : null), [db, key, valid]);
  return {
    data: (stored?.data as T | undefined) ?? undefined,
    /** The local read finished (there may be nothing stored). */
    ready: stored !== undefined,
    isFetching: query.isFetching,
    error: query.error,
    refetch: () => query.refetch(),
  };
}

/** GET the profile and keep a copy in the local database (the screen reads from there). */
export function fetchProfile(db: KruhDb, username: string, signal?: AbortSignal): Promise<Profile> {
  return fetchAndStore(db.profiles, { username }, username, async () => (await callApi(profilesApi.user, { params: { username } }, { signal })).user);
}

/** The profile from the local database, fetched again from the server. */
export function useProfile(username: string) {
  const fetch = (db: KruhDb, signal: AbortSignal) => fetchProfile(db, username, signal);
  const { data: profile, ...state } = useStoredSubject<Profile>({ key: username, table: (db) => db.profiles, queryKey: (dbName) => queryKeys.profile(dbName, username), fetch });
  return { profile, ...state };
}

/** GET the group and keep a copy in the local database (the screen reads from there). */
export function fetchGroup(db: KruhDb, name: string, signal?: AbortSignal): Promise<Group> {
  return fetchAndStore(db.groups, { name }, name, async () => (await callApi(groupsApi.get, { params: { name } }, { signal })).group);
}

/**
 * A value kept in the meta table under `key` (null asks for nothing): fetched (and stored) by
 * `fetch`, read live from the local database, so what was seen once shows offline too.
 */
export function useStoredValue<T>(
  key: string | null,
  queryKey: QueryKey,
  fetch: (db: KruhDb, signal: AbortSignal) => Promise<unknown>,
  enabled = true,
  options: { retry?: false; staleTime?: number } = {},
) {
  const db = useDb();
  const query = useQuery({ queryKey, queryFn: ({ signal }) => fetch(db, signal), enabled: enabled && key !== null, ...options });
  const stored = useLiveQuery(async () => (key ? ((await db.meta.get(key)) ?? null) : null), [db, key]);
  return {
    value: (stored?.value as T | undefined) ?? undefined,
    /** The local read finished (there may be nothing stored). */
    ready: stored !== undefined,
    isFetching: query.isFetching,
    error: query.error,
  };
}

/**
 * A setting the server answers as a whole (what the instance says about itself, how accounts come
 * in), kept under `key` in the meta table so it shows offline once seen. `useValue` shows the
 * stored copy and reads it again from the server whenever a screen showing it opens.
 */
export function storedSetting<T>(key: string, queryKeyOf: (dbName: string) => QueryKey, read: (signal?: AbortSignal) => Promise<T>) {
  const fetch = async (db: KruhDb, signal?: AbortSignal): Promise<T> => {
    const value = await read(signal);
    await db.meta.put({ key, value });
    return value;
  };
  const useValue = () => {
    const db = useDb();
    return useStoredValue<T>(key, queryKeyOf(db.name), fetch, true, { staleTime: 0 });
  };
  return { fetch, useValue };
}

/**
 * A list of the account's own things (its passkeys, the apps it let in) kept under `key` in the
 * meta table, so it shows offline once seen. `update` changes the stored copy in one transaction;
 * `removeOne` has the server remove an item, then drops it from the copy, also when the server no
 * longer has it (removed on another device), and answers the server's message.
 */
export function storedList<T>(key: string) {
  const update = (db: KruhDb, change: (current: T[]) => T[]): Promise<void> =>
    db.transaction('rw', db.meta, async () => {
      const current = ((await db.meta.get(key))?.value as T[] | undefined) ?? [];
      await db.meta.put({ key, value: change(current) });
    });
  const removeOne = async (db: KruhDb, keep: (item: T) => boolean, remove: () => Promise<{ message: string }>): Promise<string> => {
    const drop = () => update(db, (current) => current.filter(keep));
    try {
      const reply = await remove();
      await drop();
      return reply.message;
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) await drop();
      throw err;
    }
  };
  return { update, removeOne };
}
