import { setImmediate as nextTurn } from 'node:timers/promises';
import { LIMITS } from '#core/limits';
import { type Sort, type TimeWindow, timeWindowStart } from '#core/listing';
import { ListingQuery, MAX_PAGE, MAX_TIME, PageQuery } from '#core/api/common';
import type { Keyset, KeysetPage } from '../db/helpers.js';

/** The list query schemas are part of the API contract; the paging rules below apply them. */
export { ListingQuery, MAX_PAGE, MAX_TIME, PageQuery };

export interface PageWindow {
  offset: number;
  limit: number;
  /** Rows to fetch: one more than the page, to learn hasMore without a count. */
  fetch: number;
}

export function pageWindow(query: { page?: number | undefined; limit?: number | undefined }, defaultLimit: number): PageWindow {
  const page = Math.max(1, query.page ?? 1);
  const limit = Math.min(LIMITS.maxPageSize, Math.max(1, query.limit ?? defaultLimit));
  return { offset: (page - 1) * limit, limit, fetch: limit + 1 };
}

/** What narrows a paged list of users or groups: the text query and the snapshot moment. */
export interface ListFilter {
  query?: string | undefined;
  /** Only rows made at or before this time (epoch ms): keeps later pages stable while new ones arrive. */
  before?: number | undefined;
}

/** Splits the fetched rows into the page and hasMore. */
export function toPage<T>(rows: T[], window: PageWindow): { items: T[]; hasMore: boolean } {
  return { items: rows.slice(0, window.limit), hasMore: rows.length > window.limit };
}

export interface ListingWindow {
  sort: Sort;
  since: number;
  before: number | undefined;
}

/**
 * Sort and time range of a listing. The time window narrows the popular sort (the client sends
 * `time` only with it); a newest listing without an explicit `time` runs back to the
 * first item, so older items stay reachable by scrolling. The window is measured from the
 * snapshot moment, so every page of one listing covers the same range.
 */
export function listingWindow(
  query: { sort?: Sort | undefined; time?: TimeWindow | undefined; before?: number | undefined },
  defaults: { sort: Sort; time: TimeWindow },
  now: number = Date.now(),
): ListingWindow {
  const sort = query.sort ?? defaults.sort;
  const time = query.time ?? (sort === 'popular' ? defaults.time : 'all');
  return { sort, since: timeWindowStart(time, query.before ?? now), before: query.before };
}

/**
 * Every page of a keyset-paged read, in order, `limit` rows at a time: each page is read after the
 * last row of the one before (keyOf). Between pages the event loop first serves whatever waits, so
 * a long read (a data export) never keeps other requests waiting, even on a database whose
 * statements run synchronously.
 */
export async function* keysetPages<T>(read: (page: KeysetPage) => Promise<T[]>, keyOf: (row: T) => Keyset, limit: number): AsyncGenerator<T[]> {
  let after: Keyset | undefined;
  for (;;) {
    const rows = await read({ after, limit });
    if (rows.length > 0) yield rows;
    const last = rows.at(-1);
    if (rows.length < limit || !last) return;
    after = keyOf(last);
    await nextTurn();
  }
}
