import { afterEach, describe, expect, it, vi } from 'vitest';
import { askAgain, shownMediaUrls } from './keep-shown-media';

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

describe('askAgain', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('asks for one picture after another, and a failed one does not stop the rest', async () => {
    const started: string[] = [];
    const finish: Array<() => void> = [];
    vi.stubGlobal('fetch', (url: string) => {
      started.push(url);
      return new Promise<Response>((resolve, reject) => finish.push(url === 'b' ? () => reject(new Error('offline')) : () => resolve(new Response())));
    });
    const done = askAgain(['a', 'b', 'c']);
    await Promise.resolve();
    expect(started).toEqual(['a']);
    finish[0]!();
    await vi.waitFor(() => expect(started).toEqual(['a', 'b']));
    finish[1]!();
    await vi.waitFor(() => expect(started).toEqual(['a', 'b', 'c']));
    finish[2]!();
    await done;
  });
});
