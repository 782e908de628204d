import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { EXPLORE_PATHS, isServerPath } from '#core/app-paths';
import { pageWithPreview, previewOf, previewTags } from './link-preview.js';
import { preferredLanguage } from './link-texts.js';
import { PAGE_SIZES } from '#core/limits';
import { FIRST_FEED_ELEMENT_ID } from '#core/listing';
import { FIRST_FEED_FALLBACK_CLASS, type ShellLanguage, firstFeedHtml } from './first-feed-cards.js';
import { acceptedEncoding } from '../../lib/accept-encoding.js';
/** The call whose answer the page carries: what a visitor's explore feed asks first. */
export const FIRST_FEED_URL = `/api/feed?page=1&limit=${PAGE_SIZES.posts}`;
/**
 * How long one rendering of the page is served before the feed is read again (a burst of visits
 * reads it once); a write that forgets the kept visitor pages (a deletion, a post turning private)
 * forgets it at once too.
 */
export const FIRST_FEED_FRESH_MS = 2_000;

interface Page {
  html: Buffer;
  br: Buffer;
  gzip: Buffer;
}

interface Rendered {
  at: number;
  /** The visitor cache's generation it was read in: a write that forgets visitor pages forgets it too. */
  generation: number;
  /** The page in a language, made once from this reading when first asked for. */
  language(language: ShellLanguage): Page;
}

/** The page with its brotli and gzip copies, made once per rendering. */
const encoded = (html: Buffer): Page => ({
  html,
  br: brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }),
  gzip: gzipSync(html),
});

/** The static shell's main area, whose spinner the first page's cards take the place of. */
const SHELL_MAIN = /(<main class="shell__main">)([\s\S]*?)(<\/main>)/;

/** JSON that cannot end the script element it sits in, nor open a comment there. */
const inertJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/**
 * The app's page at `/`, carrying the first page of a visitor's explore feed as a JSON data block:
 * on a first visit the feed then draws without waiting for its own request, and its first picture
 * is asked for as soon as the app's first script runs. The answer is the API's own (asked through
 * the router, so it is exactly what GET /api/feed answers a visitor); the app uses it only when it
 * opens on that feed without a session. The same page is also drawn as plain HTML cards in the
 * static shell's main area (in the visitor's language), so the largest paint needs no script; when
 * the app opens elsewhere, the head's script (firstFeedBootScript) shows the shell's spinner instead.
 * Every other screen's path is the page with what a shared link to it shows (see link-preview.ts);
 * `/index.html` (the service worker's copy) is the static file.
 */
export const appShellRoutes: FastifyPluginAsync<{ webDir: string }> = async (app, { webDir }) => {
  const file = readFileSync(join(webDir, 'index.html'), 'utf8');
  const origin = app.config.publicUrl;
  // The page at `/` is rendered once for every visitor, so its preview is the site's, in English.
  // The home page's preview is the site's own, in each language.
  const home = { en: await previewOf(app, '/', 'en'), cs: await previewOf(app, '/', 'cs') };
  const templateIn = (language: ShellLanguage) => pageWithPreview(file, previewTags(home[language], origin, language));
  let rendered: Rendered | null = null;
  let rendering: Promise<Rendered> | null = null;

  async function render(): Promise<Rendered> {
    const generation = app.visitorCacheGeneration();
    const answer = await app.inject({ method: 'GET', url: FIRST_FEED_URL });
    const feed = answer.statusCode === 200 ? (answer.json() as Parameters<typeof firstFeedHtml>[0]) : null;
    const block = feed ? `<script type="application/json" id="${FIRST_FEED_ELEMENT_ID}" data-url="${FIRST_FEED_URL}">${inertJson(feed)}</script>` : '';
    const at = Date.now();
    const pages = new Map<ShellLanguage, Page>();
    // Function replacements: a string one would expand `$&`, `$\`` and `$'` found in a post's text.
    const make = (language: ShellLanguage): Page => {
      const template = templateIn(language);
      const withCards = feed
        ? template.replace(SHELL_MAIN, (_, open: string, spinner: string, close: string) =>
            `${open}${firstFeedHtml(feed, language, at)}<div class="${FIRST_FEED_FALLBACK_CLASS}">${spinner}</div>${close}`,
          )
        : template;
      return encoded(Buffer.from(withCards.replace('</body>', () => `${block}</body>`)));
    };
    return {
      at,
      generation,
      language(language) {
        let page = pages.get(language);
        if (!page) pages.set(language, (page = make(language)));
        return page;
      },
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

  function send(request: FastifyRequest, reply: FastifyReply, page: Page, status = 200) {
    const encoding = acceptedEncoding(request.headers['accept-encoding']);
    const body = encoding === 'br' ? page.br : encoding === 'gzip' ? page.gzip : page.html;
    if (encoding) reply.header('Content-Encoding', encoding);
    return reply.status(status).header('Vary', 'Accept-Encoding, Accept-Language').header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').send(body);
  }

  /**
   * A screen's page: the app, with what a shared link to it shows, in the visitor's language. A
   * page naming nobody answers 404 (crawlers and link checkers see it is not there), still with the
   * app, which says so on the screen.
   */
  async function sendScreen(request: FastifyRequest, reply: FastifyReply, path: string) {
    const language = preferredLanguage(request.headers['accept-language']);
    const preview = await previewOf(app, path, language);
    return send(request, reply, encoded(Buffer.from(pageWithPreview(file, previewTags(preview, origin, language)))), preview.missing ? 404 : 200);
  }

  const homePage = async (request: FastifyRequest) => (await current()).language(preferredLanguage(request.headers['accept-language']));

  app.get('/', async (request, reply) => send(request, reply, await homePage(request)));

  // Every other screen's path is the app too (the browser router draws it); the server's own paths
  // that no route answered stay a 404.
  app.get('/*', async (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    if (isServerPath(path)) return reply.callNotFound();
    return EXPLORE_PATHS.includes(path) ? send(request, reply, await homePage(request)) : sendScreen(request, reply, path);
  });
};
