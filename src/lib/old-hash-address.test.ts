import { describe, expect, it } from 'vitest';
import { pathOfOldAddress } from './old-hash-address';

const at = (href: string) => {
  const url = new URL(href);
  return { hash: url.hash, search: url.search, origin: url.origin };
};

describe('old hash addresses', () => {
  it.each([
    ['https://kruh.example/#/p/p1?c=c2', '/p/p1?c=c2'],
    ['https://kruh.example/#/u/alice/followers', '/u/alice/followers'],
    ['https://kruh.example/#/verify?token=t&email=a%40b.c', '/verify?token=t&email=a%40b.c'],
    ['https://kruh.example/#/', '/'],
    ['https://kruh.example/?lng=cs#/signup', '/signup?lng=cs'],
    ['https://kruh.example/?lng=cs#/search?q=x&lng=en', '/search?q=x&lng=en'],
  ])('%s opens %s', (href, path) => {
    expect(pathOfOldAddress(at(href))).toBe(path);
  });

  it.each(['https://kruh.example/feed', 'https://kruh.example/p/p1#comments', 'https://kruh.example/#'])('%s is no old address', (href) => {
    expect(pathOfOldAddress(at(href))).toBeNull();
  });
});
