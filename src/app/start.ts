import { getDb } from '../lib/db/db';
import { startCacheUpkeep } from '../lib/db/prune';
import { startOutbox } from '../lib/outbox/outbox';
import { loadPublicConfig } from '../lib/public-config';
import { queryClient } from '../lib/query/client';
import { startSessionExpiry } from '../lib/session-expiry';
import { keepShownMediaOnceControlled } from './keep-shown-media';
import { registerServiceWorker } from './pwa';

/**
 * What runs beside the screens once the first one is drawn: sending the outbox, bounding the local
 * cache, forgetting private images once the session is refused, the public settings (media host)
 * and the service worker (which then keeps the pictures already shown). None of it is needed to
 * paint, so it comes in its own chunk after the first paint rather than in the entry.
 */
export function startBackgroundWork(): void {
  startOutbox();
  startCacheUpkeep();
  startSessionExpiry();
  loadPublicConfig(queryClient, getDb().name);
  keepShownMediaOnceControlled();
  registerServiceWorker();
}
