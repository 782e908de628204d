/** Relative time: minutes (at least 1), hours, days, weeks, months, years. */
export type RelativeUnit = 'minute' | 'hour' | 'day' | 'week' | 'month' | 'year';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export function relativeTime(then: number, now: number): { unit: RelativeUnit; value: number } {
  const diff = Math.max(0, now - then);
  if (diff < HOUR) return { unit: 'minute', value: Math.max(1, Math.floor(diff / MINUTE)) };
  if (diff < DAY) return { unit: 'hour', value: Math.floor(diff / HOUR) };
  if (diff < 7 * DAY) return { unit: 'day', value: Math.floor(diff / DAY) };
  if (diff < 30 * DAY) return { unit: 'week', value: Math.floor(diff / (7 * DAY)) };
  if (diff < 365 * DAY) return { unit: 'month', value: Math.max(1, Math.floor(diff / (30 * DAY))) };
  return { unit: 'year', value: Math.floor(diff / (365 * DAY)) };
}
