/** Sort and time-window names and defaults of listing pages. */
export const SORTS = ['newest', 'popular'] as const;
export type Sort = (typeof SORTS)[number];
export const TIMES = ['day', 'week', 'month', 'year', 'all'] as const;
export type TimeWindow = (typeof TIMES)[number];

export const LISTING_DEFAULTS = { sort: 'newest', time: 'week' } as const satisfies { sort: Sort; time: TimeWindow };
export const POST_PAGE_DEFAULTS = { sort: 'popular', time: 'all' } as const satisfies { sort: Sort; time: TimeWindow };
export const FEED_DEFAULTS = { sort: 'newest', time: 'week' } as const satisfies { sort: Sort; time: TimeWindow };

/**
 * The app's page at `/` carries the explore feed's first page (default order) as a visitor gets
 * it, in a JSON block with this id, so a first visit draws the feed without waiting for that call.
 */
export const FIRST_FEED_ELEMENT_ID = 'first-feed';

const DAY = 24 * 60 * 60 * 1000;
const WINDOW_MS: Record<Exclude<TimeWindow, 'all'>, number> = {
  day: DAY,
  week: 7 * DAY,
  month: 30 * DAY,
  year: 365 * DAY,
};

/** Earliest createdAt (ms) a listing includes; 0 for all time. */
export function timeWindowStart(time: TimeWindow, now: number): number {
  return time === 'all' ? 0 : now - WINDOW_MS[time];
}

export function isSort(value: unknown): value is Sort {
  return typeof value === 'string' && (SORTS as readonly string[]).includes(value);
}
export function isTimeWindow(value: unknown): value is TimeWindow {
  return typeof value === 'string' && (TIMES as readonly string[]).includes(value);
}

/**
 * URL parameters for a listing: sort is omitted when it is the default, time is sent only
 * when the sort is popular and the time differs from its default.
 */
export function listingSearchParams(
  sort: Sort,
  time: TimeWindow,
  defaults: { sort: Sort; time: TimeWindow } = LISTING_DEFAULTS,
): Record<string, string> {
  const params: Record<string, string> = {};
  if (sort !== defaults.sort) params.sort = sort;
  if (sort === 'popular' && time !== defaults.time) params.time = time;
  return params;
}
