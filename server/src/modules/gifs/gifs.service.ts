import { LIMITS } from '#core/limits';
import type { Config } from '../../config.js';
import { AppError, badRequest, notFound } from '../../lib/app-error.js';
import type { Gif, GifCategory, GifLocale, GifPage } from '#core/api/gifs';
import type { ServiceContext } from '../../lib/service-context.js';

/**
 * The Tenor v2 client behind the GIF picker. The key stays on the server, and GIF bytes
 * come through it, so the browser never talks to Tenor's API and attaches a GIF like any image.
 */

const CLIENT_KEY = 'kruh';
/** Where Tenor serves GIF files; the configured API host is trusted too (a local fake in tests). */
const MEDIA_ORIGIN = 'https://media.tenor.com';
const API_TIMEOUT_MS = 8_000;
const FILE_TIMEOUT_MS = 20_000;

const unavailable = () => new AppError(502, 'gifs_unavailable');

interface Tenor {
  key: string;
  baseUrl: string;
  mediaOrigins: Set<string>;
}

/** Without a key the picker is off: every GIF route answers as absent (GET /config says so too). */
function tenorOf(config: Config): Tenor {
  if (!config.tenorKey) throw notFound('gifs_unavailable');
  return { key: config.tenorKey, baseUrl: config.tenorUrl, mediaOrigins: new Set([MEDIA_ORIGIN, new URL(config.tenorUrl).origin]) };
}

/** Only Tenor's own media hosts are ever fetched or handed out: no URL reaches us from a client. */
function isTenorMedia(tenor: Tenor, value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return !url.username && !url.password && tenor.mediaOrigins.has(url.origin);
  } catch {
    return false;
  }
}

/** Tenor's answer at `url`; a redirect, a timeout, a network failure or an error status is Tenor failing. */
async function fetchTenor(url: URL | string, timeoutMs: number): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
  } catch {
    throw unavailable();
  }
  if (!response.ok) throw unavailable();
  return response;
}

async function callTenor(tenor: Tenor, endpoint: string, params: Record<string, string | undefined>): Promise<Record<string, unknown>> {
  const url = new URL(`${tenor.baseUrl}/${endpoint}`);
  const all = { key: tenor.key, client_key: CLIENT_KEY, ...params };
  for (const [name, value] of Object.entries(all)) if (value !== undefined) url.searchParams.set(name, value);
  const response = await fetchTenor(url, API_TIMEOUT_MS);
  const body: unknown = await response.json().catch(() => null);
  if (!body || typeof body !== 'object') throw unavailable();
  return body as Record<string, unknown>;
}

/** The shared parameters for result lists. */
function listParams(locale: GifLocale): Record<string, string> {
  return {
    contentfilter: 'off',
    media_filter: 'gif,tinygif',
    locale,
    country: LIMITS.gifCountry,
    ar_range: 'all',
    limit: String(LIMITS.gifPageSize),
  };
}

interface TenorFormat {
  url?: unknown;
  dims?: unknown;
}

function formatOf(raw: Record<string, unknown>, name: string): TenorFormat | undefined {
  const formats = raw.media_formats as Record<string, TenorFormat> | undefined;
  const format = formats && typeof formats === 'object' ? formats[name] : undefined;
  return format && typeof format === 'object' ? format : undefined;
}

function dimsOf(format: TenorFormat | undefined): [number, number] {
  const dims = format?.dims;
  if (Array.isArray(dims) && dims.length === 2 && dims.every((d) => typeof d === 'number' && d > 0)) return [dims[0], dims[1]];
  return [0, 0];
}

/** A Tenor result as the picker reads it, or null when it lacks a usable GIF on Tenor's hosts. */
function toGif(tenor: Tenor, raw: unknown): Gif | null {
  if (!raw || typeof raw !== 'object') return null;
  const result = raw as Record<string, unknown>;
  const gif = formatOf(result, 'gif');
  const tiny = formatOf(result, 'tinygif');
  if (typeof result.id !== 'string' || !isTenorMedia(tenor, gif?.url) || !isTenorMedia(tenor, tiny?.url)) return null;
  const tags = Array.isArray(result.tags) ? result.tags.filter((t): t is string => typeof t === 'string') : [];
  return { id: result.id, url: gif.url, preview: tiny.url, dims: dimsOf(gif), tags };
}

function toPage(tenor: Tenor, body: Record<string, unknown>): GifPage {
  const results = Array.isArray(body.results) ? body.results : [];
  return {
    results: results.map((r) => toGif(tenor, r)).filter((g): g is Gif => g !== null),
    next: typeof body.next === 'string' && body.next !== '0' ? body.next : '',
  };
}

/** The picker's categories; GIF calls need no viewer, only the Tenor settings, so they take (ctx, input). */
export async function gifCategories(ctx: ServiceContext, locale: GifLocale): Promise<GifCategory[]> {
  const tenor = tenorOf(ctx.app.config);
  const body = await callTenor(tenor, 'categories', { contentfilter: 'off', locale, country: LIMITS.gifCountry });
  const tags = Array.isArray(body.tags) ? (body.tags as Record<string, unknown>[]) : [];
  return tags
    .filter((t) => t && typeof t.searchterm === 'string' && typeof t.name === 'string' && isTenorMedia(tenor, t.image))
    .map((t) => ({ name: (t.name as string).replace(/^#/, ''), searchterm: t.searchterm as string, image: t.image as string }));
}

/** The search box's maxLength caps the query, and it counts UTF-16 units: so does this, so both agree. */
function checkQuery(q: string): void {
  if (q.length > LIMITS.gifQueryMax) throw badRequest('max_gif_query_length');
}

export async function searchGifs(ctx: ServiceContext, input: { q: string; pos?: string | undefined; locale: GifLocale }): Promise<GifPage> {
  const { q, pos, locale } = input;
  const tenor = tenorOf(ctx.app.config);
  checkQuery(q);
  if (q.trim() === '') return { results: [], next: '' };
  return toPage(tenor, await callTenor(tenor, 'search', { ...listParams(locale), q: q.trim(), pos }));
}

export async function featuredGifs(ctx: ServiceContext, input: { pos?: string | undefined; locale: GifLocale }): Promise<GifPage> {
  const { pos, locale } = input;
  const tenor = tenorOf(ctx.app.config);
  return toPage(tenor, await callTenor(tenor, 'featured', { ...listParams(locale), pos }));
}

/** Tenor's share counter, which tunes its rankings. */
export async function registerShare(ctx: ServiceContext, input: { id: string; q?: string | undefined; locale: GifLocale }): Promise<void> {
  const { id, q, locale } = input;
  const tenor = tenorOf(ctx.app.config);
  if (q !== undefined) checkQuery(q);
  await callTenor(tenor, 'registershare', { id, locale, country: LIMITS.gifCountry, q: q?.trim() || undefined });
}

/** Reads a body, giving up as soon as it passes the image size limit. */
async function readCapped(response: Response): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length'));
  if (declared > LIMITS.imageMaxBytes) throw new AppError(413, 'image_too_large');
  if (!response.body) throw unavailable();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > LIMITS.imageMaxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new AppError(413, 'image_too_large');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/**
 * The GIF file of a Tenor id. The id is looked up at Tenor and only the media URL Tenor gives for
 * it is fetched, and only from Tenor's media host; redirects are refused so none can lead elsewhere.
 */
export async function gifFile(ctx: ServiceContext, id: string): Promise<Buffer> {
  const tenor = tenorOf(ctx.app.config);
  const body = await callTenor(tenor, 'posts', { ids: id, media_filter: 'gif' });
  const results = Array.isArray(body.results) ? (body.results as Record<string, unknown>[]) : [];
  const found = results.find((r) => r && r.id === id);
  if (!found) throw notFound('gif_not_found');
  const url = formatOf(found, 'gif')?.url;
  if (!isTenorMedia(tenor, url)) throw unavailable();
  const response = await fetchTenor(url, FILE_TIMEOUT_MS);
  const data = await readCapped(response).catch((err: unknown) => {
    throw err instanceof AppError ? err : unavailable();
  });
  // Whatever else the host might send, only a GIF goes on to the client.
  if (data.subarray(0, 4).toString('latin1') !== 'GIF8') throw unavailable();
  return data;
}
