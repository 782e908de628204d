import type { Table } from 'dexie';
import { type Sort, type TimeWindow, listingSearchParams } from '#core/listing';
import { apiFetch } from '../api/client';
import type { KruhDb } from '../db/db';

export interface ListingPageRequest {
  /** The stored key of the listing (its pages live in feedPages under it). */
  key: string;
  page: number;
  path: string;
  limit: number;
  sort: Sort;
  time: TimeWindow;
  /** The listing's defaults on the server: parameters equal to them are left out. */
  defaults: { sort: Sort; time: TimeWindow };
  query?: Record<string, string | number | undefined>;
  signal?: AbortSignal | undefined;
}

export interface ListingPageResult {
  ids: string[];
  hasMore: boolean;
}

/**
 * GET one page of a listing (posts or comments) and store its items and their order. Sort and time
 * follow listingSearchParams: time only for popular away from its default, so a newest listing is
 * all time. Later pages carry `before` = when page 1 was fetched, so items arriving meanwhile do
 * not shift them.
 */
export async function fetchListingPage<T extends { _id: string }>(
  db: KruhDb,
  table: Table<T & { cachedAt: number }, string>,
  field: string,
  request: ListingPageRequest,
): Promise<ListingPageResult> {
  const { key, page, path, limit, sort, time, defaults, query, signal } = request;
  let before: number | undefined;
  if (page > 1) before = (await db.feedPages.get([key, 1]))?.fetchedAt;
  const fetchedAt = Date.now();
  const reply = await apiFetch<Record<string, unknown> & { hasMore: boolean }>(path, {
    query: { ...query, page, limit, ...listingSearchParams(sort, time, defaults), before },
    signal,
  });
  const items = (reply[field] as T[] | undefined) ?? [];
  const ids = items.map((item) => item._id);
  await db.transaction('rw', table, db.feedPages, async () => {
    await table.bulkPut(items.map((item) => ({ ...item, cachedAt: fetchedAt })));
    await db.feedPages.put({ feedKey: key, page, ids, hasMore: reply.hasMore, fetchedAt });
  });
  return { ids, hasMore: reply.hasMore };
}

/** Items of a listing's stored pages 1..pages, in page order, each id once. */
export async function readListingPages<T>(
  db: KruhDb,
  table: Table<T, string>,
  key: string,
  pages: number,
): Promise<{ items: T[]; hasMore: boolean; stored: number; fetchedAt: number }> {
  const rows = await db.feedPages.where('[feedKey+page]').between([key, 1], [key, pages], true, true).sortBy('page');
  const ids = [...new Set(rows.flatMap((row) => row.ids))];
  const items = (await table.bulkGet(ids)).filter((item): item is T => !!item);
  const last = rows[rows.length - 1];
  return { items, hasMore: last ? last.hasMore : true, stored: rows.length, fetchedAt: rows[0]?.fetchedAt ?? 0 };
}
