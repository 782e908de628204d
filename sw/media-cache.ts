import type { WorkboxPlugin } from 'workbox-core';
import { isPrivateResponse, mediaCacheKey } from '../src/lib/media-cache';
import { mirroredSession } from '../src/lib/outbox/background-sync';

/**
 * The service worker's side of the media cache: how its routes key and fetch media, and where it
 * keeps the content host between its starts. What the page shares with it is in
 * `src/lib/media-cache.ts`.
 */

/** Added to a private image as it is cached: the account whose session fetched it, and when. */
const KEPT_FOR = 'X-Kruh-Kept-For';
const KEPT_AT = 'X-Kruh-Kept-At';

/** The `max-age` of an answer in seconds; 0 when it has none. */
function maxAgeOf(response: Response): number {
  const match = /(?:^|,)\s*max-age\s*=\s*"?(\d+)"?/i.exec(response.headers.get('Cache-Control') ?? '');
  return match ? Number(match[1]) : 0;
}

/** Whether a request carries a private image's signature: only the API hands such an address out. */
const isSigned = (url: string) => new URL(url).searchParams.has('sig');

/**
 * The account whose session the page last mirrored for the worker (it cannot read localStorage),
 * while the server still takes it; null when signed out or refused.
 */
export async function sessionAccount(): Promise<string | null> {
  const session = await mirroredSession().catch(() => undefined);
  return session?.token && session.id && !session.expired ? session.id : null;
}

/**
 * Workbox plugin of every media route. The network request keeps its signature, the cache entry
 * does not, so a re-signed URL of an image already seen hits the cache (offline too). A private
 * image (`Cache-Control: private`) is kept for the account whose session fetched it and no longer
 * than its answer's `max-age`, which the server sets to its signature's life: the cache answers it
 * only to a signed request while that same account is signed in and the time has not passed.
 * Otherwise the entry is dropped and the network asked, so a device whose session was cleared
 * without a logout (or that another account now uses) shows nobody a private image from the cache.
 */
export function mediaCacheRules(account: () => Promise<string | null> = sessionAccount, now: () => number = Date.now): WorkboxPlugin {
  return {
    cacheKeyWillBeUsed: async ({ request, mode, state }) => {
      if (mode === 'read' && state) state.signed = isSigned(request.url);
      return mediaCacheKey(request.url);
    },
    cacheWillUpdate: async ({ response }) => {
      if (response.status !== 200) return null;
      if (!isPrivateResponse(response)) return response;
      const owner = await account();
      if (!owner || maxAgeOf(response) === 0) return null;
      const headers = new Headers(response.headers);
      headers.set(KEPT_FOR, owner);
      headers.set(KEPT_AT, String(now()));
      return new Response(await response.arrayBuffer(), { status: response.status, statusText: response.statusText, headers });
    },
    cachedResponseWillBeUsed: async ({ cacheName, cachedResponse, request, state }) => {
      if (!cachedResponse || !isPrivateResponse(cachedResponse)) return cachedResponse ?? null;
      const keptAt = Number(cachedResponse.headers.get(KEPT_AT));
      const fresh = Number.isFinite(keptAt) && now() - keptAt < maxAgeOf(cachedResponse) * 1000;
      const owner = cachedResponse.headers.get(KEPT_FOR);
      const ours = owner !== null && owner === (await account());
      if (fresh && ours && state?.signed === true) return cachedResponse;
      // Past its time or its session: of no use to anyone any more.
      if (!fresh || !ours) await (await caches.open(cacheName)).delete(request);
      return null;
    },
  };
}

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

