import { describe, expect, it } from 'vitest';
import { listingSearchParams, timeWindowStart } from './listing';
import { extractHashtags, foldForSearch, normalizeHashtag, tokenizeText } from './text';
import { relativeTime } from './time';

describe('hashtags', () => {
  it('extracts distinct Unicode hashtags, lowercased', () => {
    expect(extractHashtags('#Praha je #krásná, #praha! a#not #123 #rok_2026')).toEqual(['praha', 'krásná', 'rok_2026']);
  });

  it('tokenizes text around hashtags', () => {
    expect(tokenizeText('hi #Čau there')).toEqual([
      { kind: 'text', value: 'hi ' },
      { kind: 'hashtag', value: '#Čau', tag: 'čau' },
      { kind: 'text', value: ' there' },
    ]);
  });

  it('normalizes a hashtag from a URL', () => expect(normalizeHashtag('#Žluť')).toBe('žluť'));
});

describe('search folding', () => {
  it('removes case and diacritics', () => {
    expect(foldForSearch('Žlutý KŮŇ')).toBe('zluty kun');
    expect(foldForSearch('zluty')).toBe(foldForSearch('žlutý'));
  });
});

describe('relative time', () => {
  const now = Date.UTC(2026, 10, 22);
  const ago = (ms: number) => relativeTime(now - ms, now);
  const MIN = 60_000;
  const DAY = 24 * 60 * MIN;
  it.each([
    [0, 'minute', 1],
    [59 * MIN, 'minute', 59],
    [60 * MIN, 'hour', 1],
    [23 * 60 * MIN, 'hour', 23],
    [DAY, 'day', 1],
    [6 * DAY, 'day', 6],
    [7 * DAY, 'week', 1],
    [29 * DAY, 'week', 4],
    [30 * DAY, 'month', 1],
    [364 * DAY, 'month', 12],
    [365 * DAY, 'year', 1],
    [800 * DAY, 'year', 2],
  ])('%d ms ago -> %s %d', (ms, unit, value) => expect(ago(ms)).toEqual({ unit, value }));
});

describe('listing parameters', () => {
  it('omits the default sort and sends time only for popular', () => {
    expect(listingSearchParams('newest', 'week')).toEqual({});
    expect(listingSearchParams('newest', 'day')).toEqual({});
    expect(listingSearchParams('popular', 'week')).toEqual({ sort: 'popular' });
    expect(listingSearchParams('popular', 'all')).toEqual({ sort: 'popular', time: 'all' });
    expect(listingSearchParams('popular', 'all', { sort: 'popular', time: 'all' })).toEqual({});
  });

  it('computes window starts', () => {
    expect(timeWindowStart('all', 1000)).toBe(0);
    expect(timeWindowStart('day', 86_400_000 * 2)).toBe(86_400_000);
  });
});
