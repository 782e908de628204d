import { describe, expect, it } from 'vitest';
import { LIMITS } from '#core/limits';
import { timeWindowStart } from '#core/listing';
import { listingWindow, pageWindow, toPage } from '../../src/lib/paging';

describe('pageWindow: which rows a page covers', () => {
  it('starts at the first row on page 1, and reads a missing page or page 0 as page 1', () => {
    expect(pageWindow({ page: 1, limit: 10 }, 20)).toEqual({ offset: 0, limit: 10, fetch: 11 });
    expect(pageWindow({ limit: 10 }, 20)).toEqual({ offset: 0, limit: 10, fetch: 11 });
    expect(pageWindow({ page: 0, limit: 10 }, 20)).toEqual({ offset: 0, limit: 10, fetch: 11 });
  });

  it('skips the rows of every earlier page', () => {
    expect(pageWindow({ page: 2, limit: 10 }, 20).offset).toBe(10);
    expect(pageWindow({ page: 3, limit: 7 }, 20).offset).toBe(14);
  });

  it('uses the listing default when no limit is sent', () => {
    expect(pageWindow({ page: 2 }, 15)).toEqual({ offset: 15, limit: 15, fetch: 16 });
  });

  it('caps the page size at the maximum and keeps it at least one row', () => {
    expect(pageWindow({ limit: LIMITS.maxPageSize }, 20).limit).toBe(LIMITS.maxPageSize);
    expect(pageWindow({ limit: LIMITS.maxPageSize + 1 }, 20).limit).toBe(LIMITS.maxPageSize);
    expect(pageWindow({}, LIMITS.maxPageSize + 5).limit).toBe(LIMITS.maxPageSize);
    expect(pageWindow({ limit: 1 }, 20).limit).toBe(1);
    expect(pageWindow({ limit: 0 }, 20).limit).toBe(1);
  });

  it('fetches one row past the page, so hasMore needs no count', () => {
    expect(pageWindow({ limit: 1 }, 20).fetch).toBe(2);
  });
});

describe('toPage: the page and whether more follow', () => {
  const window = pageWindow({ limit: 3 }, 20);

  it('has more only when the extra row came back', () => {
    expect(toPage([1, 2, 3, 4], window)).toEqual({ items: [1, 2, 3], hasMore: true });
    expect(toPage([1, 2, 3], window)).toEqual({ items: [1, 2, 3], hasMore: false });
    expect(toPage([1], window)).toEqual({ items: [1], hasMore: false });
    expect(toPage([], window)).toEqual({ items: [], hasMore: false });
  });
});

describe('listingWindow: sort and time range of a listing', () => {
  const now = 1_700_000_000_000;
  const defaults = { sort: 'popular', time: 'week' } as const;

  it('takes the sort and time the client sent', () => {
    expect(listingWindow({ sort: 'newest', time: 'day' }, defaults, now)).toEqual({
      sort: 'newest',
      since: timeWindowStart('day', now),
      before: undefined,
    });
  });

  it('narrows the popular sort by the default time window when none is sent', () => {
    expect(listingWindow({}, defaults, now)).toEqual({ sort: 'popular', since: timeWindowStart('week', now), before: undefined });
    expect(listingWindow({ sort: 'popular' }, { sort: 'newest', time: 'month' }, now).since).toBe(timeWindowStart('month', now));
  });

  it('runs a newest listing without an explicit time back to the first item', () => {
    expect(listingWindow({ sort: 'newest' }, defaults, now)).toEqual({ sort: 'newest', since: 0, before: undefined });
    expect(listingWindow({}, { sort: 'newest', time: 'day' }, now).since).toBe(0);
  });

  it('measures the window from the snapshot moment, so every page covers the same range', () => {
    const before = now - 5_000_000;
    expect(listingWindow({ before }, defaults, now)).toEqual({ sort: 'popular', since: timeWindowStart('week', before), before });
  });
});
