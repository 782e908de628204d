import '../../test/setup';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FIRST_FEED_ELEMENT_ID } from '#core/listing';
import { setMediaBase } from '../media-url';
import { clearSession, storeSession } from '../session-store';
import { preloadFirstPicture, takeFirstFeed } from './first-feed';

const FEED = { posts: [{ _id: 'a', media: [] }, { _id: 'b', media: ['/media/b0.webp?v=2', '/media/b1.webp?v=2'] }], hasMore: true };

/** The page as the server sends it: the first feed page in a JSON data block. */
function carry(content = JSON.stringify(FEED)): void {
  const block = document.createElement('script');
  Object.assign(block, { type: 'application/json', id: FIRST_FEED_ELEMENT_ID, textContent: content });
  document.body.append(block);
}
const preloads = () => [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="preload"]')];

beforeEach(() => {
  clearSession();
  setMediaBase(null);
});
afterEach(() => {
  document.getElementById(FIRST_FEED_ELEMENT_ID)?.remove();
  for (const link of preloads()) link.remove();
});

describe('the first feed page the HTML carries', () => {
  it("is a visitor's explore feed in its default order, taken once", () => {
    for (const hash of ['', '#/', '#/feed', '#/feed?sort=newest']) {
      carry();
      expect(takeFirstFeed(hash)).toEqual(FEED);
      expect(document.getElementById(FIRST_FEED_ELEMENT_ID)).toBeNull();
      expect(takeFirstFeed(hash)).toBeNull();
    }
  });

  it('is not used for another screen, another order, a logged-in start or a broken block', () => {
    for (const hash of ['#/p/p1', '#/feed/following', '#/feed?sort=popular', '#/?time=all&sort=popular']) {
      carry();
      expect(takeFirstFeed(hash)).toBeNull();
    }
    storeSession('t1', 'me', 'u1');
    carry();
    expect(takeFirstFeed('#/feed')).toBeNull();
    clearSession();
    carry('{"posts": [');
    expect(takeFirstFeed('#/feed')).toBeNull();
    carry('{"message":"error/x"}');
    expect(takeFirstFeed('#/feed')).toBeNull();
    // Whatever happened, the block is gone from the page.
    expect(document.getElementById(FIRST_FEED_ELEMENT_ID)).toBeNull();
  });
});

describe('the first picture of that page', () => {
  it('is asked for at once, from where the app will show it', () => {
    preloadFirstPicture(FEED);
    expect(preloads().map((l) => [l.getAttribute('href'), l.getAttribute('as'), l.getAttribute('fetchpriority')])).toEqual([
      ['/media/b0.webp?v=2', 'image', 'high'],
    ]);
    for (const link of preloads()) link.remove();
    setMediaBase('https://cdn.example.test/m');
    preloadFirstPicture(FEED);
    expect(preloads().map((l) => l.getAttribute('href'))).toEqual(['https://cdn.example.test/m/b0.webp?v=2']);
  });

  it('is nothing when no post has one', () => {
    preloadFirstPicture({ posts: [{ media: [] }, {}] });
    expect(preloads()).toEqual([]);
  });
});
