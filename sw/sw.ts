/// <reference lib="webworker" />
import { clientsClaim } from 'workbox-core';
import { ExpirationPlugin } from 'workbox-expiration';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst, StaleWhileRevalidate } from 'workbox-strategies';
import { SYNC_TAG } from '../src/lib/outbox/background-sync';
import { MEDIA_BASE_MESSAGE, MEDIA_CACHE, isFixedMedia, isMediaUrl } from '../src/lib/media-cache';
import { corsRequest, mediaCacheRules, storeMediaBase, storedMediaBase } from './media-cache';
import { syncOutbox } from './outbox-sync';
import { registerPush } from './push';
import { receiveShare } from './share-target';
import { SHARE_PATH } from '../src/lib/share/shared-items';
import { CLAIM_MESSAGE } from '../src/lib/worker-control';
import { serverPathPattern } from '#core/app-paths';

const SERVER_PATHS = serverPathPattern();

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<{ url: string; revision: string | null }> };

// The app shell: every built asset, versioned by the build.
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// Any navigation to one of the app's screens gets the precached index.html, so the app starts
// offline on every path; the server's own paths (the API, media, feeds, well-known) are left to it.
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('index.html'), {
    denylist: [SERVER_PATHS],
  }),
);

// The API is never answered from a cache (the app's local database owns what is shown offline),
// and no route here takes its requests: the browser sends them itself. Were the worker to answer
// them, the notification stream, open for as long as the page, would be an event the worker never
// finishes, and a waiting new version could never take over ("Reload" in the update banner would
// do nothing until every tab was closed).

// Media: versioned and signed addresses name fixed bytes and are answered from the cache first (so
// offline too); a plain avatar address is answered from the cache while it is fetched again. A
// private image is answered from the cache only within its max-age and its account's session
// (mediaCacheRules); public media is kept up to 30 days.
const mediaOptions = {
  cacheName: MEDIA_CACHE,
  plugins: [
    mediaCacheRules(),
    new ExpirationPlugin({ maxEntries: 500, maxAgeSeconds: 30 * 24 * 60 * 60, purgeOnQuotaError: true }),
  ],
};
// The content host of media (MEDIA_URL): the page tells it (from GET /config) and it is kept for
// the worker's next start; until either is known only the app's own /media is matched.
let mediaBase: string | null = null;
let mediaBaseTold = false;
storedMediaBase().then(
  (stored) => {
    if (!mediaBaseTold) mediaBase = stored;
  },
  () => undefined,
);

// The content host's copies are the same media, cached the same way (without the signature), but
// fetched with CORS so their headers stay readable (see corsRequest).
const contentHostOptions = { ...mediaOptions, plugins: [corsRequest, ...mediaOptions.plugins] };
const strategies = {
  app: { fixed: new CacheFirst(mediaOptions), plain: new StaleWhileRevalidate(mediaOptions) },
  contentHost: { fixed: new CacheFirst(contentHostOptions), plain: new StaleWhileRevalidate(contentHostOptions) },
};
registerRoute(
  ({ url, request }) => request.method === 'GET' && isMediaUrl(url, self.location.origin, mediaBase),
  (options) => {
    const host = options.url.origin === self.location.origin ? strategies.app : strategies.contentHost;
    return (isFixedMedia(options.url) ? host.fixed : host.plain).handle(options);
  },
);

// Shared from another app into the installed one (the manifest's share target), online or not.
registerRoute(
  ({ url }) => url.origin === self.location.origin && url.pathname === new URL(SHARE_PATH, self.registration.scope).pathname,
  ({ request }) => receiveShare(request, self.registration.scope),
  'POST',
);

// Background Sync: the network is back, maybe with every tab closed; send what the outbox holds.
interface SyncEventLike extends ExtendableEvent {
  readonly tag: string;
}
self.addEventListener('sync', (event) => {
  const sync = event as SyncEventLike;
  if (sync.tag === SYNC_TAG) sync.waitUntil(syncOutbox());
});

// The page asks (through the update banner) before a new version takes over, and asks to be
// controlled when it loaded while this worker activated.
self.addEventListener('message', (event) => {
  const data = event.data as { type?: string; mediaUrl?: string | null } | null;
  if (data?.type === 'SKIP_WAITING') void self.skipWaiting();
  if (data?.type === CLAIM_MESSAGE) event.waitUntil(self.clients.claim());
  if (data?.type === MEDIA_BASE_MESSAGE) {
    mediaBaseTold = true;
    mediaBase = data.mediaUrl || null;
    event.waitUntil(storeMediaBase(mediaBase).catch(() => undefined));
  }
});

// Web Push: a notification while the app is closed, the app icon's badge, and a click that opens the app.
registerPush(self);

clientsClaim();
