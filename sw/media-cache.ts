import type { WorkboxPlugin } from 'workbox-core';
import { mediaCacheKey } from '../src/lib/media-cache';

/**
 * The service worker's side of the media cache: how its routes key and fetch media, and where it
 * keeps the content host between its starts. What the page shares with it is in
 * `src/lib/media-cache.ts`.
 */

/**
 * Workbox plugin of the media route: the network request keeps its signature, the cache entry does
 * not, so a re-signed URL of an image already seen hits the cache (offline too) until logout.
 */
export const signatureFreeCacheKey: WorkboxPlugin = {
  cacheKeyWillBeUsed: async ({ request }) => mediaCacheKey(request.url),
};

/**
 * Workbox plugin of the content host's media: the request is made with CORS, so the cached answer
 * keeps readable headers (a private image's Cache-Control, which logout reads) instead of being an
 * opaque one; a host that refuses CORS fails, and the page falls back to the app's /media.
 */
export const corsRequest: WorkboxPlugin = {
  requestWillFetch: async ({ request }) => new Request(request.url, { mode: 'cors', credentials: 'omit', headers: request.headers }),
};

/** Where the service worker keeps the content host between its starts (it has no localStorage). */
const SETTINGS_CACHE = 'kruh-settings';
const MEDIA_BASE_KEY = '/__kruh/media-base';

/** Remembers the content host (null: none) for the service worker's next start. */
export async function storeMediaBase(mediaBase: string | null, storage: CacheStorage | undefined = globalThis.caches): Promise<void> {
  if (!storage) return;
  const cache = await storage.open(SETTINGS_CACHE);
  if (mediaBase) await cache.put(MEDIA_BASE_KEY, new Response(mediaBase));
  else await cache.delete(MEDIA_BASE_KEY);
}

/** The content host remembered by storeMediaBase, or null. */
export async function storedMediaBase(storage: CacheStorage | undefined = globalThis.caches): Promise<string | null> {
  if (!storage || !(await storage.has(SETTINGS_CACHE))) return null;
  const response = await (await storage.open(SETTINGS_CACHE)).match(MEDIA_BASE_KEY);
  return response ? (await response.text()) || null : null;
}

