/**
 * The media cache as both sides know it: the service worker fills it (`sw/media-cache.ts` holds its
 * Workbox plugins), the page empties its private part at logout and tells the worker the content
 * host. No service-worker globals here, so the page, the worker and the tests import it.
 */

/** Cache of uploaded images and avatars. */
export const MEDIA_CACHE = 'kruh-media';

/**
 * Query parameters of a signed (private-group) image URL. The server re-signs such an image every
 * few minutes, so the same picture comes under ever new URLs; they are left out of the cache key.
 * Other parameters (an avatar's version) name different bytes and stay in it.
 */
const SIGNATURE_PARAMS = ['exp', 'sig'];

/** The key a media response is cached under: its URL without the signature. */
export function mediaCacheKey(url: string | URL): string {
  const parsed = new URL(url);
  for (const name of SIGNATURE_PARAMS) parsed.searchParams.delete(name);
  return parsed.href;
}

/**
 * Whether the address names fixed bytes, so the cache may answer without asking: a versioned URL
 * (`v`, what the API hands out) or a signed one (a private image, keyed without its signature).
 * A plain avatar address (an id without a version, e.g. the app bar's own avatar) always shows the
 * current picture, so it is answered from the cache only while the network is asked again.
 */
export function isFixedMedia(url: URL): boolean {
  return url.searchParams.has('v') || url.searchParams.has('sig');
}

/**
 * The server marks images of private groups `Cache-Control: private`; the cached response keeps
 * that header, which is how they are told apart from public media here.
 */
export function isPrivateResponse(response: Response | undefined): boolean {
  const directives = (response?.headers.get('Cache-Control') ?? '').toLowerCase().split(',');
  return directives.some((directive) => directive.trim() === 'private');
}

/**
 * Deletes every private-group image from the media cache, so the next person on this device does
 * not see them offline after a logout; public images and avatars stay. Answers how many went.
 */
export async function forgetPrivateMedia(storage: CacheStorage | undefined = globalThis.caches): Promise<number> {
  if (!storage || !(await storage.has(MEDIA_CACHE))) return 0;
  const cache = await storage.open(MEDIA_CACHE);
  let removed = 0;
  for (const request of await cache.keys()) {
    if (isPrivateResponse(await cache.match(request)) && (await cache.delete(request))) removed += 1;
  }
  return removed;
}

/**
 * Whether a GET of `url` is media the cache keeps: the app's own `/media/...`, or the same path on
 * the content host (`mediaBase`, the MEDIA_URL the server tells in GET /config: its origin, and
 * under its path when it has one). Matched by origin and path, so nothing else on either host is.
 */
export function isMediaUrl(url: URL, appOrigin: string, mediaBase: string | null): boolean {
  if (url.origin === appOrigin && url.pathname.startsWith('/media/')) return true;
  if (!mediaBase) return false;
  let base: URL;
  try {
    base = new URL(mediaBase);
  } catch {
    return false;
  }
  const prefix = `${base.pathname.replace(/\/+$/, '')}/`;
  return url.origin === base.origin && url.pathname.startsWith(prefix) && url.pathname.length > prefix.length;
}

/** The page's message telling the service worker the content host: `{type, mediaUrl}` (null: none). */
export const MEDIA_BASE_MESSAGE = 'MEDIA_BASE';
