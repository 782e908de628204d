import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { EXPLORE_PATHS, isServerPath } from '#core/app-paths';
import { pageWithPreview, previewOf, previewTags } from '../modules/syndication/link-preview.js';
import { preferredLanguage } from '../modules/syndication/link-texts.js';
import { PAGE_SIZES } from '#core/limits';
import { FIRST_FEED_ELEMENT_ID } from '#core/listing';
/** The call whose answer the page carries: what a visitor's explore feed asks first. */
export const FIRST_FEED_URL = `/api/feed?page=1&limit=${PAGE_SIZES.posts}`;
/**
 * How long one rendering of the page is served before the feed is read again (a burst of visits
 * reads it once); a write that forgets the kept visitor pages (a deletion, a post turning private)
 * forgets it at once too.
 */
export const FIRST_FEED_FRESH_MS = 2_000;

interface Encoded {
  html: Buffer;
  br: Buffer;
  gzip: Buffer;
}

interface Rendered extends Encoded {
  at: number;
  /** The visitor cache's generation it was read in: a write that forgets visitor pages forgets it too. */
  generation: number;
}

/** The page with its brotli and gzip copies, made once per rendering. */
const encoded = (html: Buffer): Encoded => ({
  html,
  br: brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }),
  gzip: gzipSync(html),
});

/** JSON that cannot end the script element it sits in, nor open a comment there. */
const inertJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/**
 * The app's page at `/`, carrying the first page of a visitor's explore feed as a JSON data block:
 * on a first visit the feed then draws without waiting for its own request, and its first picture
 * is asked for as soon as the app's first script runs. The answer is the API's own (asked through
 * the router, so it is exactly what GET /api/feed answers a visitor); the app uses it only when it
 * opens on that feed without a session. Every other screen's path is the page with what a shared
 * link to it shows (see link-preview.ts); `/index.html` (the service worker's copy) is the static file.
 */
export const appShellRoutes: FastifyPluginAsync<{ webDir: string }> = async (app, { webDir }) => {
  const file = readFileSync(join(webDir, 'index.html'), 'utf8');
  const origin = app.config.publicUrl;
  // The page at `/` is rendered once for every visitor, so its preview is the site's, in English.
  const template = pageWithPreview(file, previewTags(await previewOf(app, '/', 'en'), origin, 'en'));
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
    return { at: Date.now(), generation, ...encoded(html) };
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

  function send(request: FastifyRequest, reply: FastifyReply, page: Encoded) {
    const accepts = String(request.headers['accept-encoding'] ?? '');
    const [encoding, body] = /\bbr\b/.test(accepts) ? ['br', page.br] : /\bgzip\b/.test(accepts) ? ['gzip', page.gzip] : [null, page.html];
    if (encoding) reply.header('Content-Encoding', encoding);
    return reply.header('Vary', 'Accept-Encoding, Accept-Language').header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').send(body);
  }

  /** A screen's page: the app, with what a shared link to it shows, in the visitor's language. */
  async function screenPage(request: FastifyRequest, path: string): Promise<Encoded> {
    const language = preferredLanguage(request.headers['accept-language']);
    const preview = await previewOf(app, path, language);
    return encoded(Buffer.from(pageWithPreview(file, previewTags(preview, origin, language))));
  }

  app.get('/', async (request, reply) => send(request, reply, await current()));

  // Every other screen's path is the app too (the browser router draws it); the server's own paths
  // that no route answered stay a 404.
  app.get('/*', async (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    if (isServerPath(path)) return reply.callNotFound();
    return send(request, reply, EXPLORE_PATHS.includes(path) ? await current() : await screenPage(request, path));
  });
};
