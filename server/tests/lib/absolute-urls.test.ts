import { describe, expect, it } from 'vitest';
import { appPaths } from '#core/app-paths';
import { absolute } from '../../src/lib/absolute-url';

/** What the URL parser makes of the join: the answer absolute must give, however it gets there. */
const parsed = (origin: string, url: string) => new URL(url, `${origin}/`).href;

const ORIGINS = [
  'https://kruh.example',
  'http://127.0.0.1:8080',
  'https://KRUH.Example',
  'https://kruh.example:443',
  'http://kruh.example:80',
  'https://kruh.example/community',
  'https://kruh.example/',
  'https://bücher.example',
  'http://[::1]:3000',
];

const PATHS = [
  appPaths.user('alice'),
  appPaths.user('bob@other.example'),
  appPaths.post('6b0caf46fb20ecfb3636d4f5'),
  appPaths.hashtag('kočka'),
  '/media/pfp/abc.webp?v=3',
  '/a/./b',
  '/a/../b',
  '/a/..',
  '/a/b/.',
  '/a/.hidden/b',
  '/a b',
  "/q?x='y'",
  '/q?x="y"',
  '/h#frag ment',
  '//elsewhere.example/path',
  '/caf\u00e9',
  '/tab\there',
  'https://bucket.example/media/x.webp',
  'relative/path',
  '/%zz/%41',
  '/a\\b',
];

describe('absolute', () => {
  it('gives what the URL parser gives for every origin and path, joined by hand or not', () => {
    for (const origin of ORIGINS) {
      for (const path of PATHS) expect(absolute(origin, path), `${origin} + ${path}`).toBe(parsed(origin, path));
    }
  });

  it('answers for each origin in turn, not for the one it saw before', () => {
    expect(absolute('https://kruh.example/community', '/user/a')).toBe('https://kruh.example/user/a');
    expect(absolute('https://kruh.example', '/user/a')).toBe('https://kruh.example/user/a');
    expect(absolute('https://KRUH.example', '/user/a')).toBe('https://kruh.example/user/a');
  });
});
