import { describe, expect, it } from 'vitest';
import { isoTime } from '../../src/modules/clientapi/account.mapper';
import { tagsOf } from '../../src/modules/clientapi/status.mapper';

/** What a status's mapping keeps between requests is the same as made afresh, per origin and text. */
describe('formatting kept between requests', () => {
  it('finds a text\'s hashtags with the links of each origin, the same when asked again', () => {
    const text = 'Coffee #Morning and #tea';
    const first = tagsOf('https://a.example', text);
    expect(first).toEqual([
      { name: 'morning', url: 'https://a.example/h/morning' },
      { name: 'tea', url: 'https://a.example/h/tea' },
    ]);
    expect(tagsOf('https://b.example', text).map((tag) => tag.url)).toEqual(['https://b.example/h/morning', 'https://b.example/h/tea']);
    expect(tagsOf('https://a.example', `${text} #more`).map((tag) => tag.name)).toEqual(['morning', 'tea', 'more']);
    expect(tagsOf('https://a.example', text)).toEqual(first);
  });

  it('writes each time as ISO 8601, the same when asked again', () => {
    for (const ms of [0, 1_764_489_600_123, 1_764_489_600_124, 1_764_489_600_123]) expect(isoTime(ms)).toBe(new Date(ms).toISOString());
  });
});
