import { type Static, Type } from '@sinclair/typebox';
import { LIMITS } from '#core/limits';
import { type Sort, type TimeWindow, SORTS, TIMES, timeWindowStart } from '#core/listing';

/**
 * The furthest page a list serves: far past any real scroll, and small enough that its offset
 * stays an ordinary integer for both databases.
 */
export const MAX_PAGE = 1_000_000;
/** The latest moment a JavaScript Date can hold (epoch ms); a later `before` names no time. */
export const MAX_TIME = 8_640_000_000_000_000;

/**
 * Query parameters shared by every paged list: page is 1-based (0 is read as 1), limit is capped
 * at LIMITS.maxPageSize (see pageWindow), and `before` (epoch ms) pins a listing to the moment
 * its first page was read, so items arriving meanwhile do not shift later pages. A page or moment
 * outside its range (1e308, 20-digit numbers) is refused by the schema rather than reaching SQL;
 * Infinity is refused by the errors plugin.
 */
export const PageQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_PAGE, default: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1 })),
  query: Type.Optional(Type.String({ maxLength: 200 })),
  before: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_TIME })),
});
export type PageQuery = Static<typeof PageQuery>;

export const ListingQuery = Type.Composite([
  PageQuery,
  Type.Object({
    sort: Type.Optional(Type.Union(SORTS.map((s) => Type.Literal(s)))),
    time: Type.Optional(Type.Union(TIMES.map((t) => Type.Literal(t)))),
  }),
]);
export type ListingQuery = Static<typeof ListingQuery>;

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
