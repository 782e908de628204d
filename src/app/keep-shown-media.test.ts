import { afterEach, describe, expect, it } from 'vitest';
import { shownMediaUrls } from './keep-shown-media';

const ORIGIN = window.location.origin;

describe('shownMediaUrls', () => {
  afterEach(() => document.body.replaceChildren());

  it('lists each picture of the app’s media and of the content host once, and nothing else', () => {
    for (const src of [
      '/media/pfp/aaaaaaaaaaaaaaaaaaaaaaaa.jpeg',
      '/media/pfp/aaaaaaaaaaaaaaaaaaaaaaaa.jpeg',
      '/media/pfp/bbbbbbbbbbbbbbbbbbbbbbbb.jpeg?v=3',
      'https://cdn.example.org/kruh/posts/p1.webp',
      'https://cdn.example.org/elsewhere/p2.webp',
      '/icons/icon-192.png',
    ]) {
      const img = document.createElement('img');
      img.src = src;
      document.body.append(img);
    }
    expect(shownMediaUrls(document, ORIGIN, 'https://cdn.example.org/kruh')).toEqual([
      `${ORIGIN}/media/pfp/aaaaaaaaaaaaaaaaaaaaaaaa.jpeg`,
      `${ORIGIN}/media/pfp/bbbbbbbbbbbbbbbbbbbbbbbb.jpeg?v=3`,
      'https://cdn.example.org/kruh/posts/p1.webp',
    ]);
  });
});
