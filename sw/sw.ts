/// <reference lib="webworker" />
import { clientsClaim } from 'workbox-core';
import { ExpirationPlugin } from 'workbox-expiration';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst, NetworkOnly, StaleWhileRevalidate } from 'workbox-strategies';
import { MEDIA_CACHE, isFixedMedia, signatureFreeCacheKey } from './media-cache';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<{ url: string; revision: string | null }> };

// The app shell: every built asset, versioned by the build.
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// Any navigation gets the precached index.html, so the app starts offline; routes are after the #.
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('index.html'), {
    denylist: [/^\/api\//, /^\/media\//],
  }),
);

// The API is never answered from a cache: the app's local database owns what is shown offline.
registerRoute(({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith('/api/'), new NetworkOnly());

// Media: versioned and signed addresses name fixed bytes and are answered from the cache first (so
// offline too); a plain avatar address is answered from the cache while it is fetched again.
const mediaOptions = {
  cacheName: MEDIA_CACHE,
  plugins: [
    signatureFreeCacheKey,
    new ExpirationPlugin({ maxEntries: 500, maxAgeSeconds: 30 * 24 * 60 * 60, purgeOnQuotaError: true }),
  ],
};
const isMedia = (url: URL, sameOrigin: boolean, request: Request) =>
  sameOrigin && request.method === 'GET' && url.pathname.startsWith('/media/');

registerRoute(({ url, sameOrigin, request }) => isMedia(url, sameOrigin, request) && isFixedMedia(url), new CacheFirst(mediaOptions));
registerRoute(({ url, sameOrigin, request }) => isMedia(url, sameOrigin, request), new StaleWhileRevalidate(mediaOptions));

// The page asks (through the update banner) before a new version takes over.
self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

clientsClaim();
