import { type QueryKey, useQueries, useQueryClient } from '@tanstack/react-query';
import type { Table } from 'dexie';
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useState } from 'react';
import type { Endpoint, QueryOf, ReplyOf } from '#core/api/endpoint';
import { type Sort, type TimeWindow, listingSearchParams } from '#core/listing';
import { type CallInput, callApi } from '../api/client';
import type { FeedPageRow, KruhDb } from '../db/db';
import { useDb } from '../db/useDb';
import { useHistoryEntry } from '../kept-place/entry';
import { places } from '../kept-place/places';

/**
 * The one paging engine of the web app. Every list shown page by page (feeds, comment threads,
 * notifications, followers, members, a user's groups, search results, moderation queues and logs,
 * GIF results) goes through it:
 *
 * - page N is fetched through its contract entry; its items go to a Dexie table and its ordered ids
 *   to `feedPages` under the list's stored key, in one transaction;
 * - the screen reads the stored pages with useLiveQuery, so they paint before the network answers
 *   (and offline), and every shown page is fetched again in the background;
 * - pages after the first ask for items `before` the first page was fetched, so items arriving in
 *   between do not shift them; a list paged by the server's cursor (Tenor's `pos`) asks instead
 *   with the cursor its previous page's answer gave.
 */

/** What a stored page says about itself, for stores that keep more than the items. */
export interface PageInfo {
  key: string;
  page: number;
  hasMore: boolean;
  fetchedAt: number;
}

/** Where a list's items live in the local database: written as `T`, read back as `R`. */
export interface ItemStore<T, R = T> {
  /** The tables `put` writes (locked with feedPages for the page's transaction). */
  tables: (db: KruhDb) => Table[];
  idOf: (item: T) => string;
  put: (db: KruhDb, items: T[], page: PageInfo) => Promise<void>;
  /** The stored items with these ids, in this order; ids no longer stored are left out. */
  get: (db: KruhDb, ids: string[], key: string) => Promise<R[]>;
}

/** Items with a table of their own keyed by `_id` (posts, comments), stamped with when they were read. */
export function tableStore<T extends { _id: string }>(
  table: (db: KruhDb) => Table<T & { cachedAt: number }, string>,
): ItemStore<T, T & { cachedAt: number }> {
  return {
    tables: (db) => [table(db)],
    idOf: (item) => item._id,
    put: async (db, items, { fetchedAt }) => {
      await table(db).bulkPut(items.map((item) => ({ ...item, cachedAt: fetchedAt })));
    },
    get: async (db, ids) => (await table(db).bulkGet(ids)).filter((item): item is T & { cachedAt: number } => !!item),
  };
}

/**
 * Items of a list with no table of their own (users, groups, a search's replies): one listItems row
 * per list and item, so one list's copy never changes what another list shows.
 */
export function listItemStore<T>(idOf: (item: T) => string): ItemStore<T> {
  return {
    tables: (db) => [db.listItems],
    idOf,
    put: async (db, items, { key, fetchedAt }) => {
      await db.listItems.bulkPut(items.map((item) => ({ listKey: key, id: idOf(item), data: item, cachedAt: fetchedAt })));
    },
    get: async (db, ids, key) => {
      const rows = await db.listItems.bulkGet(ids.map((id): [string, string] => [key, id]));
      return rows.flatMap((row) => (row ? [row.data as T] : []));
    },
  };
}

/**
 * The fields of a list call's reply that hold its items (posts, comments, userList...). Spread
 * over a union of calls, so a source may stand for several calls of one shape (the feeds) or
 * a table of them (the search's kinds).
 */
export type ItemsField<E extends Endpoint> = E extends Endpoint
  ? { [K in keyof ReplyOf<E> & string]: ReplyOf<E>[K] extends readonly unknown[] ? K : never }[keyof ReplyOf<E> & string]
  : never;

/** An item the call's reply lists under `F`: a renamed field or item type breaks its list's build. */
export type ItemOf<E extends Endpoint, F extends string> = E extends Endpoint
  ? F extends keyof ReplyOf<E>
    ? ReplyOf<E>[F] extends ReadonlyArray<infer T>
      ? T
      : never
    : never
  : never;

/**
 * A list paged by an opaque cursor rather than by page number (Tenor's `pos`): page 1 is asked for
 * without one, every later page with the cursor its previous page's answer gave.
 */
export interface PageCursor<E extends Endpoint> {
  /** The query parameter the cursor is sent in. */
  param: keyof NonNullable<QueryOf<E>> & string;
  /** The cursor of the page after this answer; '' when it is the last. */
  next: (answer: ReplyOf<E>) => string;
}

/** How a list's pages are asked for: by number, `limit` items a page, or by the server's cursor. */
export type Paging<E extends Endpoint> = { limit: number; cursor?: undefined } | { cursor: PageCursor<E>; limit?: undefined };

/** One list on the server and in the local database: its items are what the call's reply lists under `field`. */
export type PagedSource<E extends Endpoint, F extends ItemsField<E> = ItemsField<E>, R = ItemOf<E, F>> = Paging<E> & {
  /** The stored key: the list's pages live in feedPages under it. */
  key: string;
  /** The contract entry of the list, its path parameters and its own query parameters. */
  endpoint: E;
  params?: Record<string, string>;
  query?: Record<string, string | number | undefined>;
  /**
   * Sort and time of a listing of posts or comments: sent by listingSearchParams, so a value equal
   * to the server's default is left out.
   */
  listing?: { sort: Sort; time: TimeWindow; defaults: { sort: Sort; time: TimeWindow } };
  /** The reply's field holding the items (posts, comments, userList...). */
  field: F;
  store: ItemStore<ItemOf<E, F>, R>;
};

export interface PageResult {
  ids: string[];
  hasMore: boolean;
}

/** GET page `page` of a list and store its items and their order. */
export async function fetchPage<E extends Endpoint, F extends ItemsField<E>, R>(
  db: KruhDb,
  source: PagedSource<E, F, R>,
  page: number,
  signal?: AbortSignal,
): Promise<PageResult> {
  const { key, endpoint, params } = source;
  // A later page starts from page 1 (its fetch time) or, paged by cursor, from the page before it.
  // Page 1 reads nothing first, so its call goes out at once.
  const from = page > 1 ? await db.feedPages.get([key, source.cursor ? page - 1 : 1]) : undefined;
  const fetchedAt = Date.now();
  // Every list call takes the shared page query (page, limit, before; sort and time for a
  // listing) or its cursor, which a call's input type cannot show while the call is a type parameter.
  const input = { params, query: pageQuery(source, page, from) } as unknown as CallInput<E>;
  const answer = await callApi(endpoint, input, { signal });
  return storePage(db, source, page, answer, fetchedAt);
}

/** The query asking for page `page`: the list's own parameters and where the page starts. */
function pageQuery<E extends Endpoint, F extends ItemsField<E>, R>(
  source: PagedSource<E, F, R>,
  page: number,
  from: FeedPageRow | undefined,
): Record<string, unknown> {
  const { key, query, listing } = source;
  if (source.cursor) {
    if (page === 1) return { ...query };
    // Only a stored page that said more follows offers the next one.
    if (!from?.cursor) throw new Error(`no cursor for page ${page} of ${key}`);
    return { ...query, [source.cursor.param]: from.cursor };
  }
  const sortAndTime = listing ? listingSearchParams(listing.sort, listing.time, listing.defaults) : {};
  return { ...query, page, limit: source.limit, ...sortAndTime, before: from?.fetchedAt };
}

/** Stores a page's answer (as the list's call gave it) as fetchPage does with the one it asks for. */
export async function storePage<E extends Endpoint, F extends ItemsField<E>, R>(
  db: KruhDb,
  source: PagedSource<E, F, R>,
  page: number,
  answer: ReplyOf<E>,
  fetchedAt = Date.now(),
): Promise<PageResult> {
  const { key, field, store } = source;
  // The types above tie `field` to an array of ItemOf<E, F> in the reply; TypeScript cannot
  // follow that through a generic call, so the reply is taken apart as a plain object here.
  const { [field]: listed, hasMore: more, ...rest } = answer as Record<string, unknown>;
  const cursor = source.cursor?.next(answer);
  const hasMore = cursor === undefined ? more === true : cursor !== '';
  const items = (listed as ItemOf<E, F>[] | undefined) ?? [];
  const ids = items.map(store.idOf);
  await db.transaction('rw', [...store.tables(db), db.feedPages], async () => {
    await store.put(db, items, { key, page, hasMore, fetchedAt });
    await db.feedPages.put({
      feedKey: key,
      page,
      ids,
      hasMore,
      fetchedAt,
      ...(Object.keys(rest).length > 0 ? { reply: rest } : {}),
      ...(cursor ? { cursor } : {}),
    });
  });
  return { ids, hasMore };
}

export interface StoredPages<R> {
  /** Items of the stored pages 1..N, in page order, each id once. */
  items: R[];
  /** What the last stored page said (true while none is stored). */
  hasMore: boolean;
  /** How many of the asked pages are stored. */
  stored: number;
  /** When page 1 was fetched (0 when it was not yet). */
  fetchedAt: number;
  /** What else page 1's answer held besides its items and hasMore. */
  reply: Record<string, unknown> | undefined;
}

/** Reads a list's stored pages 1..pages. */
export async function readPages<R>(
  db: KruhDb,
  source: { key: string; store: Pick<ItemStore<never, R>, 'get'> },
  pages: number,
): Promise<StoredPages<R>> {
  const rows = await db.feedPages.where('[feedKey+page]').between([source.key, 1], [source.key, pages], true, true).sortBy('page');
  const ids = [...new Set(rows.flatMap((row) => row.ids))];
  const items = await source.store.get(db, ids, source.key);
  const last = rows[rows.length - 1];
  return {
    items,
    hasMore: last ? last.hasMore : true,
    stored: rows.length,
    fetchedAt: rows[0]?.fetchedAt ?? 0,
    reply: rows[0]?.page === 1 ? rows[0].reply : undefined,
  };
}

/** Which list (and history entry) the shown page count belongs to. */
interface PagingState {
  id: string;
  entry: string | undefined;
  pages: number;
}

export interface PagedOptions<E extends Endpoint, F extends ItemsField<E>, R, S extends StoredPages<R>> {
  source: PagedSource<E, F, R>;
  /** The list's query key without the page, from queryKeys (so it holds the database's name). */
  queryKey: (dbName: string) => QueryKey;
  enabled?: boolean;
  /** 0 leaves the list unfetched until the first loadMore (its first items are shown another way). */
  firstPages?: 0 | 1;
  staleTime?: number;
  /** Reads more in the same live query as the stored pages; it runs again when `readDeps` change. */
  read?: (db: KruhDb, stored: StoredPages<R>) => Promise<S>;
  readDeps?: readonly unknown[];
  /**
   * Offer the next page only once the server has answered the last one: for a list read from its
   * whole table rather than from its stored pages, where a stored page says nothing of what follows.
   */
  moreFromServerOnly?: boolean;
}

export interface PagedState<R, S> {
  /** From the local database: painted before the network answers. */
  items: R[];
  hasMore: boolean;
  /** Nothing stored yet and the first page not answered yet. */
  isLoading: boolean;
  isFetching: boolean;
  /** A page asked for by loadMore is on its way. */
  isLoadingMore: boolean;
  error: unknown;
  pages: number;
  /** What else the stored page 1 held besides its items. */
  first: Record<string, unknown> | undefined;
  /** The whole live read (with what `read` added); undefined until the database answered. */
  stored: S | undefined;
  /**
   * Nothing of the list is stored and its first page failed to load: its emptiness is unknown
   * (offline, a list never seen here), so it must not be called empty.
   */
  unavailable: boolean;
  loadMore: () => void;
  /** Asks the server again for every shown page. */
  reload: () => Promise<void>;
}

/**
 * A list page by page from the local database, revalidated from the server. Starts again at its
 * first page when the list or the account changes; back on a history entry (useKeptPlace), shows as
 * many pages as it had there.
 */
export function usePaged<E extends Endpoint, F extends ItemsField<E>, R, S extends StoredPages<R> = StoredPages<R>>(
  options: PagedOptions<E, F, R, S>,
): PagedState<R, S> {
  const { source, enabled = true, firstPages = 1, read } = options;
  const db = useDb();
  const queryClient = useQueryClient();
  const listQueryKey = options.queryKey(db.name);
  const id = `${db.name}\n${source.key}`;
  const entry = useHistoryEntry();
  // Come back to an entry, the list shows the pages it had loaded there; a new entry shows the
  // list as it is (a fresh list from its first page).
  const kept = entry === undefined ? undefined : places.pagesOf(entry, id);
  const [paging, setPaging] = useState<PagingState>(() => ({ id, entry, pages: kept ?? firstPages }));
  const pagesOf = (p: PagingState) => (p.id === id && p.entry === entry ? p.pages : (kept ?? (p.id === id ? p.pages : firstPages)));
  const pages = pagesOf(paging);
  useEffect(() => {
    if (entry !== undefined) places.keepPages(entry, id, pages);
  }, [entry, id, pages]);

  const queries = useQueries({
    queries: Array.from({ length: pages }, (_, i) => ({
      queryKey: [...listQueryKey, i + 1],
      queryFn: ({ signal }: { signal: AbortSignal }) => fetchPage(db, source, i + 1, signal),
      enabled,
      ...(options.staleTime === undefined ? {} : { staleTime: options.staleTime }),
    })),
  });

  const live = useLiveQuery(
    async () => {
      // A list not shown yet still reads page 1, for when it was fetched.
      const found = await readPages(db, source, Math.max(1, pages));
      return { id, value: read ? await read(db, found) : (found as S) };
    },
    // The source's store and `read` belong to the list's kind, which its key names.
    [db, id, pages, ...(options.readDeps ?? [])],
  );
  // useLiveQuery keeps its last answer until the new read is done: another list's or another
  // account's items must not show meanwhile.
  const stored = live?.id === id ? live.value : undefined;

  const first = queries[0];
  const last = queries[pages - 1];
  let hasMore: boolean;
  if (pages === 0) hasMore = true;
  else if (options.moreFromServerOnly) hasMore = !!last?.data?.hasMore && !last.error && !last.isFetching;
  else hasMore = (last?.data?.hasMore ?? stored?.hasMore ?? true) && !(last?.error && !stored?.stored);

  return {
    items: pages === 0 ? [] : (stored?.items ?? []),
    hasMore: !!stored && stored.stored >= pages ? hasMore : false,
    isLoading:
      pages > 0 &&
      (!stored || (stored.stored === 0 && stored.items.length === 0 && !!first?.isPending && first.fetchStatus !== 'idle')),
    isFetching: queries.some((q) => q.isFetching),
    isLoadingMore: !!stored && pages > 0 && stored.stored < pages && last?.isFetching === true,
    error: queries.find((q) => q.error)?.error ?? null,
    pages,
    first: stored?.reply,
    stored,
    unavailable: pages > 0 && !!stored && stored.stored === 0 && stored.items.length === 0 && !!first?.error,
    loadMore: () => setPaging((p) => ({ id, entry, pages: pagesOf(p) + 1 })),
    reload: () => queryClient.invalidateQueries({ queryKey: listQueryKey }),
  };
}
