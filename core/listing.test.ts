import { describe, expect, it } from 'vitest';
import { FIRST_FEED_ELEMENT_ID, isSort, isTimeWindow, SORTS, TIMES, timeWindowStart } from './listing';

const DAY = 24 * 60 * 60 * 1000;

describe('time windows', () => {
  const now = Date.UTC(2026, 10, 23, 12);

  it.each([
    ['day', 1],
    ['week', 7],
    ['month', 30],
    ['year', 365],
  ] as const)('a %s reaches back %i days', (time, days) => {
    expect(timeWindowStart(time, now)).toBe(now - days * DAY);
  });

  it('starts all time at the epoch', () => expect(timeWindowStart('all', now)).toBe(0));
});

describe('reading sort and time from a URL', () => {
  it.each(SORTS)('accepts the sort %s', (sort) => expect(isSort(sort)).toBe(true));
  it.each(TIMES)('accepts the time %s', (time) => expect(isTimeWindow(time)).toBe(true));

  it.each(['', 'oldest', 'Newest', 'week', 'newest '])('refuses the sort %j', (value) => expect(isSort(value)).toBe(false));
  it.each(['', 'hour', 'Week', 'newest', 'all '])('refuses the time %j', (value) => expect(isTimeWindow(value)).toBe(false));

  it.each([undefined, null, 1, ['newest'], { sort: 'newest' }])('refuses the non-string %j', (value) => {
    expect(isSort(value)).toBe(false);
    expect(isTimeWindow(value)).toBe(false);
  });
});

describe("the first feed page's block in the app page", () => {
  it('has an id an element can carry and a query can find', () => {
    expect(FIRST_FEED_ELEMENT_ID).toMatch(/^[A-Za-z][\w-]*$/);
  });
});
