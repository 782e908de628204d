import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LIMITS } from '#core/limits';
import { toContentImage } from '../../src/modules/media/images';
import { call, createUser, type TestUser } from '../helpers/fixtures';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { expectError } from '../helpers/expect';

type Handler = (req: IncomingMessage, res: ServerResponse, url: URL) => void;

/** A local HTTP server recording every request; `handle` answers them. */
async function startServer(handle: Handler) {
  const requests: URL[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://local');
    requests.push(url);
    handle(req, res, url);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, requests, close: () => new Promise<void>((done) => server.close(() => done())) };
}

const json = (res: ServerResponse, body: unknown, status = 200) => {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
};

describe('GIF picker API (Tenor proxy)', () => {
  let tenor: Awaited<ReturnType<typeof startServer>>;
  let internal: Awaited<ReturnType<typeof startServer>>;
  let gif: Buffer;
  let t: TestApp;
  let alice: TestUser;

  const result = (id: string, gifUrl: string, previewUrl = `${tenor.origin}/media/${id}-tiny.gif`) => ({
    id,
    title: `gif ${id}`,
    tags: ['cat', 'happy'],
    media_formats: {
      gif: { url: gifUrl, dims: [498, 280], size: 1000 },
      tinygif: { url: previewUrl, dims: [220, 124], size: 100 },
    },
  });

  beforeAll(async () => {
    gif = await sharp({ create: { width: 4, height: 3, channels: 3, background: '#f80' } }).gif().toBuffer();
    internal = await startServer((_req, res) => json(res, { secret: true }));
    tenor = await startServer((_req, res, url) => {
      const path = url.pathname;
      if (path === '/v2/categories') {
        return json(res, {
          locale: url.searchParams.get('locale'),
          tags: [
            { searchterm: 'excited', path: '/v2/search?q=excited', image: `${tenor.origin}/media/excited.gif`, name: '#excited' },
            // A category whose image is not on a Tenor host is never passed on.
            { searchterm: 'elsewhere', path: '/x', image: `${internal.origin}/x.gif`, name: '#elsewhere' },
          ],
        });
      }
      if (path === '/v2/search' || path === '/v2/featured') {
        const pos = url.searchParams.get('pos');
        return json(res, {
          results: [
            result(pos ? 'g3' : 'g1', `${tenor.origin}/media/one.gif`),
            result('g2', `${tenor.origin}/media/two.gif`),
            result('bad', `${internal.origin}/secret.gif`),
            { id: 'broken' },
          ],
          next: pos ? '' : 'CAE',
        });
      }
      if (path === '/v2/posts') {
        const id = url.searchParams.get('ids');
        const urls: Record<string, string> = {
          g1: `${tenor.origin}/media/one.gif`,
          evil: `${internal.origin}/latest/meta-data`,
          hop: `${tenor.origin}/redirect`,
          huge: `${tenor.origin}/media/huge.gif`,
          stream: `${tenor.origin}/media/stream.gif`,
          text: `${tenor.origin}/media/text.gif`,
        };
        return json(res, { results: id && urls[id] ? [result(id, urls[id])] : [], next: '' });
      }
      if (path === '/v2/registershare') return json(res, {});
      if (path === '/media/one.gif') {
        res.writeHead(200, { 'Content-Type': 'image/gif', 'Content-Length': gif.length });
        return res.end(gif);
      }
      if (path === '/redirect') {
        res.writeHead(302, { Location: `${internal.origin}/latest/meta-data` });
        return res.end();
      }
      if (path === '/media/huge.gif') {
        res.writeHead(200, { 'Content-Type': 'image/gif', 'Content-Length': LIMITS.imageMaxBytes + 1 });
        return res.end();
      }
      if (path === '/media/stream.gif') {
        // No Content-Length: the size is only known while reading.
        res.writeHead(200, { 'Content-Type': 'image/gif' });
        const chunk = Buffer.alloc(1024 * 1024, 0x47);
        let sent = 0;
        const pump = () => {
          while (sent <= LIMITS.imageMaxBytes) {
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        res.on('error', () => undefined);
        return pump();
      }
      if (path === '/media/text.gif') {
        res.writeHead(200, { 'Content-Type': 'text/html' });
        return res.end('<html>not a gif</html>');
      }
      json(res, { error: 'not found' }, 404);
    });
    t = await createTestApp({ TENOR_KEY: 'tenor-secret', TENOR_URL: `${tenor.origin}/v2/` });
    alice = await createUser(t.app);
  });

  afterAll(async () => {
    await t?.close();
    await tenor?.close();
    await internal?.close();
  });

  beforeEach(() => {
    tenor.requests.length = 0;
    internal.requests.length = 0;
  });

  const last = (pathname: string) => tenor.requests.filter((u) => u.pathname === pathname).at(-1)!;

  it('needs a signed-in user', async () => {
    const res = await call(t.app, null, { method: 'GET', url: '/api/gif/featured' });
    expectError(res, 401, 'no_token');
    expect(tenor.requests).toHaveLength(0);
  });

  it('lists categories with Tenor hosts only, in the asked locale', async () => {
    const res = await call(t.app, alice, { method: 'GET', url: '/api/gif/categories?locale=cs_CZ' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ categories: [{ name: 'excited', searchterm: 'excited', image: `${tenor.origin}/media/excited.gif` }] });
    const sent = last('/v2/categories').searchParams;
    expect(sent.get('key')).toBe('tenor-secret');
    expect(sent.get('client_key')).toBe('kruh');
    expect(sent.get('locale')).toBe('cs_CZ');
    expect(sent.get('contentfilter')).toBe('off');
    expect(res.body).not.toContain('tenor-secret');
  });

  it('searches Tenor with our fixed parameters (trimmed query, locale, country, page size) and maps results to id, url, preview, dims, tags', async () => {
    const res = await call(t.app, alice, { method: 'GET', url: `/api/gif/search?q=${encodeURIComponent(' happy cat ')}` });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.next).toBe('CAE');
    expect(body.results).toEqual([
      { id: 'g1', url: `${tenor.origin}/media/one.gif`, preview: `${tenor.origin}/media/g1-tiny.gif`, dims: [498, 280], tags: ['cat', 'happy'] },
      { id: 'g2', url: `${tenor.origin}/media/two.gif`, preview: `${tenor.origin}/media/g2-tiny.gif`, dims: [498, 280], tags: ['cat', 'happy'] },
    ]);
    const sent = Object.fromEntries(last('/v2/search').searchParams);
    expect(sent).toEqual({
      key: 'tenor-secret',
      client_key: 'kruh',
      contentfilter: 'off',
      media_filter: 'gif,tinygif',
      locale: 'en_US',
      country: 'US',
      ar_range: 'all',
      limit: String(LIMITS.gifPageSize),
      q: 'happy cat',
    });
  });

  it('pages with pos and answers an empty next after the last page', async () => {
    const res = await call(t.app, alice, { method: 'GET', url: '/api/gif/featured?pos=CAE' });
    expect(res.statusCode).toBe(200);
    expect(res.json().results.map((g: { id: string }) => g.id)).toEqual(['g3', 'g2']);
    expect(res.json().next).toBe('');
    const sent = last('/v2/featured').searchParams;
    expect(sent.get('pos')).toBe('CAE');
    expect(sent.get('limit')).toBe('50');
    expect(sent.get('media_filter')).toBe('gif,tinygif');
    expect(sent.get('q')).toBeNull();
  });

  it('refuses a search over the query limit without calling Tenor, and accepts one at the limit', async () => {
    const long = await call(t.app, alice, { method: 'GET', url: `/api/gif/search?q=${'a'.repeat(LIMITS.gifQueryMax + 1)}` });
    expectError(long, 400, 'max_gif_query_length');
    expect(tenor.requests).toHaveLength(0);
    const atLimit = await call(t.app, alice, { method: 'GET', url: `/api/gif/search?q=${'a'.repeat(LIMITS.gifQueryMax)}` });
    expect(atLimit.statusCode).toBe(200);
  });

  it('answers a blank search with no results, and refuses an unknown locale', async () => {
    const blank = await call(t.app, alice, { method: 'GET', url: '/api/gif/search?q=%20%20' });
    expect(blank.json()).toEqual({ results: [], next: '' });
    expect(tenor.requests).toHaveLength(0);
    const locale = await call(t.app, alice, { method: 'GET', url: '/api/gif/search?q=cat&locale=de_DE' });
    expectError(locale, 400, 'invalid_query');
  });

  it('serves the GIF bytes of an id, which the image pipeline turns into webp', async () => {
    const res = await call(t.app, alice, { method: 'GET', url: '/api/gif/file?id=g1' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/gif');
    // Like every /api answer it is never stored: the client re-uploads it at once.
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.rawPayload.equals(gif)).toBe(true);
    expect(last('/v2/posts').searchParams.get('ids')).toBe('g1');
    const webp = await sharp(await toContentImage(res.rawPayload)).metadata();
    expect(webp.format).toBe('webp');
  });

  it('answers gif_not_found for an unknown or malformed id', async () => {
    const unknown = await call(t.app, alice, { method: 'GET', url: '/api/gif/file?id=nope' });
    expectError(unknown, 404, 'gif_not_found');
    const malformed = await call(t.app, alice, { method: 'GET', url: `/api/gif/file?id=${encodeURIComponent('http://127.0.0.1/x')}` });
    expectError(malformed, 400, 'gif_not_found');
  });

  it('never fetches a media URL off Tenor hosts, directly or through a redirect', async () => {
    const direct = await call(t.app, alice, { method: 'GET', url: '/api/gif/file?id=evil' });
    expectError(direct, 502, 'gifs_unavailable');
    const redirected = await call(t.app, alice, { method: 'GET', url: '/api/gif/file?id=hop' });
    expect(redirected.statusCode).toBe(502);
    expect(internal.requests).toHaveLength(0);
  });

  it('caps the download at the image size limit, declared or not', async () => {
    const declared = await call(t.app, alice, { method: 'GET', url: '/api/gif/file?id=huge' });
    expectError(declared, 413, 'image_too_large');
    const streamed = await call(t.app, alice, { method: 'GET', url: '/api/gif/file?id=stream' });
    expectError(streamed, 413, 'image_too_large');
  });

  it('passes on only GIF bytes', async () => {
    const res = await call(t.app, alice, { method: 'GET', url: '/api/gif/file?id=text' });
    expectError(res, 502, 'gifs_unavailable');
  });

  it('registers a share with the id, query and locale', async () => {
    const res = await call(t.app, alice, { method: 'POST', url: '/api/gif/share', payload: { id: 'g1', q: 'cat', locale: 'cs_CZ' } });
    expect(res.statusCode).toBe(204);
    const sent = Object.fromEntries(last('/v2/registershare').searchParams);
    expect(sent).toEqual({ key: 'tenor-secret', client_key: 'kruh', id: 'g1', locale: 'cs_CZ', country: 'US', q: 'cat' });
    const bad = await call(t.app, alice, { method: 'POST', url: '/api/gif/share', payload: { id: '../x' } });
    expectError(bad, 400, 'gif_not_found');
    const long = await call(t.app, alice, { method: 'POST', url: '/api/gif/share', payload: { id: 'g1', q: 'a'.repeat(LIMITS.gifQueryMax + 1) } });
    expect(long.json()).toEqual({ message: 'error/max_gif_query_length' });
  });

  it('reports a failing Tenor as gifs_unavailable', async () => {
    const failing = await createTestApp({ TENOR_KEY: 'k', TENOR_URL: `${tenor.origin}/missing` });
    try {
      const user = await createUser(failing.app);
      const res = await call(failing.app, user, { method: 'GET', url: '/api/gif/featured' });
      expectError(res, 502, 'gifs_unavailable');
    } finally {
      await failing.close();
    }
  });
});

describe('GIF picker API without a Tenor key', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  it('answers every GIF route as absent, and GET /config says GIFs are off', async () => {
    const user = await createUser(t.app);
    for (const [method, url] of [
      ['GET', '/api/gif/categories'],
      ['GET', '/api/gif/search?q=cat'],
      ['GET', '/api/gif/featured'],
      ['GET', '/api/gif/file?id=g1'],
      ['POST', '/api/gif/share'],
    ] as const) {
      const res = await call(t.app, user, { method, url, ...(method === 'POST' ? { payload: { id: 'g1' } } : {}) });
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toEqual({ message: 'error/gifs_unavailable' });
    }
    const config = await t.app.inject({ method: 'GET', url: '/api/config' });
    expect(config.json().tenorEnabled).toBe(false);
  });

  it('lets the page load Tenor previews but never call Tenor itself', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/config' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toMatch(/img-src [^;]*https:\/\/media\.tenor\.com/);
    expect(csp).toMatch(/connect-src 'self'/);
    expect(csp).not.toContain('tenor.googleapis.com');
  });
});
