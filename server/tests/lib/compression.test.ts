import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { createPost, createUser } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';

/** Text of about `bytes` bytes, varied enough that it does not compress to nothing. */
const textOf = (bytes: number, line: (i: number) => string) => Array.from({ length: Math.ceil(bytes / 40) }, (_, i) => line(i)).join('\n');

const webDir = mkdtempSync(join(tmpdir(), 'kruh-web-'));
const TEMPLATE = `<!doctype html><html><head><title>Kruh</title><style>${textOf(3000, (i) => `.c${i} { margin: ${i}px }`)}</style></head><body><div id="root"></div></body></html>`;
const FILES: Record<string, string> = {
  'index.html': TEMPLATE,
  'sw.js': textOf(8000, (i) => `self.precache${i} = "/assets/chunk-${i}.js";`),
  'assets/app-1a2b3c.js': textOf(6000, (i) => `export const value${i} = ${i * 7};`),
  // Built by another tool, or added by hand: no compressed copies beside it.
  'assets/extra-4d5e6f.css': textOf(4000, (i) => `.extra${i} { padding: ${i}px }`),
  'assets/tiny-7a8b9c.js': 'export const tiny = 1;',
};
/** Files the build writes brotli and gzip copies of (as vite.config.ts's precompress does). */
const PRECOMPRESSED = ['index.html', 'sw.js', 'assets/app-1a2b3c.js'];
const PICTURE = randomBytes(4096);

beforeAll(() => {
  for (const [file, content] of Object.entries(FILES)) {
    mkdirSync(dirname(join(webDir, file)), { recursive: true });
    writeFileSync(join(webDir, file), content);
  }
  for (const file of PRECOMPRESSED) {
    writeFileSync(join(webDir, `${file}.br`), brotliCompressSync(FILES[file]!));
    writeFileSync(join(webDir, `${file}.gz`), gzipSync(FILES[file]!));
  }
  mkdirSync(join(webDir, 'icons'), { recursive: true });
  writeFileSync(join(webDir, 'icons/picture.png'), PICTURE);
  return () => rmSync(webDir, { recursive: true, force: true });
});

const BOTH = { 'accept-encoding': 'br, gzip' };

/** The body as the browser reads it, after undoing the answer's Content-Encoding. */
function decoded(answer: LightMyRequestResponse): string {
  const encoding = answer.headers['content-encoding'];
  const bytes = encoding === 'br' ? brotliDecompressSync(answer.rawPayload) : encoding === 'gzip' ? gunzipSync(answer.rawPayload) : answer.rawPayload;
  return bytes.toString('utf8');
}

describe('compressed answers', () => {
  const t = useTestApp({ WEB_DIR: webDir });
  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

  it.each(['sw.js', 'assets/app-1a2b3c.js', 'index.html'])('sends the built copies of /%s: brotli, else gzip, else the file', async (file) => {
    const br = await get(`/${file}`, BOTH);
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.rawPayload.length).toBeLessThan(FILES[file]!.length / 2);
    expect(decoded(br)).toBe(FILES[file]);
    const gzip = await get(`/${file}`, { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(decoded(gzip)).toBe(FILES[file]);
    const plain = await get(`/${file}`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(FILES[file]);
  });

  it('compresses the page at / that carries the first feed', async () => {
    const page = await get('/', BOTH);
    expect(page.headers['content-encoding']).toBe('br');
    expect(decoded(page)).toBe((await get('/')).body);
    expect(decoded(page)).toContain('<div id="root">');
  });

  it('compresses on the fly a text file the build wrote no copies of, whose ETag still answers 304', async () => {
    const css = await get('/assets/extra-4d5e6f.css', BOTH);
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-encoding']).toBe('br');
    expect(css.headers['content-length']).toBeUndefined();
    expect(css.headers.vary).toMatch(/accept-encoding/i);
    expect(decoded(css)).toBe(FILES['assets/extra-4d5e6f.css']);
    const etag = String(css.headers.etag);
    expect(etag).not.toBe('undefined');
    const again = await get('/assets/extra-4d5e6f.css', { ...BOTH, 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
  });

  it("answers 304 to the service worker's revalidation with its ETag", async () => {
    const first = await get('/sw.js', BOTH);
    const etag = first.headers.etag;
    expect(etag).toBeTruthy();
    const again = await get('/sw.js', { ...BOTH, 'if-none-match': String(etag) });
    expect(again.statusCode).toBe(304);
  });

  it('compresses a JSON list over 1 KB, brotli or gzip, to the same JSON', async () => {
    const author = await createUser(t.app);
    for (let i = 0; i < 5; i += 1) await createPost(t.app, author, { text: `post ${i}: ${'a few words about the day '.repeat(6)}` });
    const plain = await get('/api/feed');
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    for (const [accept, encoding] of [['br, gzip', 'br'], ['gzip, deflate', 'gzip'], ['gzip;q=1, br;q=0', 'gzip']] as const) {
      const answer = await get('/api/feed', { 'accept-encoding': accept });
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-encoding'], accept).toBe(encoding);
      expect(answer.rawPayload.length).toBeLessThan(plain.rawPayload.length);
      expect(JSON.parse(decoded(answer))).toEqual(plain.json());
    }
    // A signed-in reader's answer, never kept in memory, is compressed too.
    const url = `/api/profile/posts/${author.username}`;
    const mine = await t.app.inject({ method: 'GET', url, headers: { ...BOTH, ...author.auth } });
    expect(mine.statusCode).toBe(200);
    expect(mine.headers['content-encoding']).toBe('br');
    expect(JSON.parse(decoded(mine))).toEqual((await t.app.inject({ method: 'GET', url, headers: author.auth })).json());
  });

  it('leaves answers under 1 KB, pictures and a refused encoding as they are', async () => {
    const health = await get('/api/health', BOTH);
    expect(health.statusCode).toBe(200);
    expect(health.headers['content-encoding']).toBeUndefined();
    expect(health.json()).toBeTruthy();
    const tiny = await get('/assets/tiny-7a8b9c.js', BOTH);
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.body).toBe(FILES['assets/tiny-7a8b9c.js']);
    const picture = await get('/icons/picture.png', BOTH);
    expect(picture.headers['content-encoding']).toBeUndefined();
    expect(picture.rawPayload.equals(PICTURE)).toBe(true);
    const refused = await get('/api/feed', { 'accept-encoding': 'br;q=0, gzip;q=0' });
    expect(refused.headers['content-encoding']).toBeUndefined();
  });
});
