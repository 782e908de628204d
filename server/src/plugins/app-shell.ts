import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyPluginAsync } from 'fastify';
import { PAGE_SIZES } from '#core/limits';
import { FIRST_FEED_ELEMENT_ID } from '#core/listing';
import { acceptedEncoding } from '../lib/accept-encoding.js';
/** The call whose answer the page carries: what a visitor's explore feed asks first. */
export const FIRST_FEED_URL = `/api/feed?page=1&limit=${PAGE_SIZES.posts}`;
/**
 * How long one rendering of the page is served before the feed is read again (a burst of visits
 * reads it once); a write that forgets the kept visitor pages (a deletion, a post turning private)
 * forgets it at once too.
 */
export const FIRST_FEED_FRESH_MS = 2_000;

interface Rendered {
  at: number;
  /** The visitor cache's generation it was read in: a write that forgets visitor pages forgets it too. */
  generation: number;
  html: Buffer;
  br: Buffer;
  gzip: Buffer;
}

/** JSON that cannot end the script element it sits in, nor open a comment there. */
const inertJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/**
 * The app's page at `/`, carrying the first page of a visitor's explore feed as a JSON data block:
 * on a first visit the feed then draws without waiting for its own request, and its first picture
 * is asked for as soon as the app's first script runs. The answer is the API's own (asked through
 * the router, so it is exactly what GET /api/feed answers a visitor); the app uses it only when it
 * opens on that feed without a session. Other paths, `/index.html` among them (the service worker's
 * copy), are the static file.
 */
export const appShellRoutes: FastifyPluginAsync<{ webDir: string }> = async (app, { webDir }) => {
  const template = readFileSync(join(webDir, 'index.html'), 'utf8');
  let rendered: Rendered | null = null;
  let rendering: Promise<Rendered> | null = null;

  async function render(): Promise<Rendered> {
    const generation = app.visitorCacheGeneration();
    const answer = await app.inject({ method: 'GET', url: FIRST_FEED_URL });
    const block =
      answer.statusCode === 200
        ? `<script type="application/json" id="${FIRST_FEED_ELEMENT_ID}" data-url="${FIRST_FEED_URL}">${inertJson(answer.json())}</script>`
        : '';
    // A function replacement: a string one would expand `$&`, `$\`` and `$'` found in a post's text.
    const html = Buffer.from(template.replace('</body>', () => `${block}</body>`));
    return {
      at: Date.now(),
      generation,
      html,
      br: brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }),
      gzip: gzipSync(html),
    };
  }

  /** One rendering at a time, shared by the requests that wait for it. */
  async function current(): Promise<Rendered> {
    if (rendered && Date.now() - rendered.at < FIRST_FEED_FRESH_MS && rendered.generation === app.visitorCacheGeneration()) return rendered;
    rendering ??= render().finally(() => {
      rendering = null;
    });
    rendered = await rendering;
    return rendered;
  }

  app.get('/', async (request, reply) => {
    const page = await current();
    const encoding = acceptedEncoding(request.headers['accept-encoding']);
    const body = encoding === 'br' ? page.br : encoding === 'gzip' ? page.gzip : page.html;
    if (encoding) reply.header('Content-Encoding', encoding);
    return reply.header('Vary', 'Accept-Encoding').header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').send(body);
  });
};
