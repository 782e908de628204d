import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { linkPages } from '../../src/modules/clientapi/client-paging';

/** The Link header as the URL parser would write it: the request's address with its paging replaced. */
function parsedLinks(requestUrl: string, publicUrl: string, page: { first: string; last: string; full: boolean }): string {
  const url = new URL(requestUrl, `${publicUrl.replace(/\/$/u, '')}/`);
  const at = (name: string, value: string) => {
    const link = new URL(url);
    for (const key of ['max_id', 'since_id', 'min_id']) link.searchParams.delete(key);
    link.searchParams.set(name, value);
    return link.href;
  };
  return [...(page.full ? [`<${at('max_id', page.last)}>; rel="next"`] : []), `<${at('min_id', page.first)}>; rel="prev"`].join(', ');
}

function linkOf(requestUrl: string, publicUrl: string, page: { first?: string; last?: string; full: boolean }): string | undefined {
  let header: string | undefined;
  const reply = { header: (name: string, value: string) => { if (name === 'Link') header = value; return reply; } };
  linkPages({ url: requestUrl } as FastifyRequest, reply as unknown as FastifyReply, publicUrl, page);
  return header;
}

const URLS = [
  '/api/v1/timelines/home',
  '/api/v1/timelines/home?limit=4',
  '/api/v1/timelines/home?limit=4&max_id=abc&since_id=def&min_id=ghi',
  '/api/v1/timelines/tag/ko%C4%8Dka?any[]=a&any[]=b',
  '/api/v1/notifications?types[]=mention&exclude_types[]=follow&limit=2',
  '/api/v1/timelines/public?local=true&q=a+b%20c&x=%27',
  '/api/v1/accounts/1/statuses?',
  '/api/v1/a/./b/../statuses?max_id=1',
];

describe('linkPages', () => {
  it('writes what the URL parser writes, for full and short pages, under any public address', () => {
    for (const publicUrl of ['http://127.0.0.1:3000', 'https://kruh.example/', 'https://kruh.example/community']) {
      for (const url of URLS) {
        for (const full of [true, false]) {
          const page = { first: '6b0ccb8417c1db5dd4d62004', last: '6b0caf46fb20ecfb3636d4f5', full };
          expect(linkOf(url, publicUrl, page), `${publicUrl} ${url}`).toBe(parsedLinks(url, publicUrl, page));
        }
      }
    }
  });

  it('writes no header for an empty page', () => {
    expect(linkOf('/api/v1/timelines/home', 'https://kruh.example', { full: false })).toBeUndefined();
  });
});
