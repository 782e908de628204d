import type { FastifyInstance } from 'fastify';
import { LIMITS } from '#core/limits';
import type { StoredObject } from '../../lib/storage.js';
import { federationRules, userAgentOf } from '../../lib/egress/federation-rules.js';
import { isUrlBlocked } from '../../policy/blocked-domains.js';
import { toContentImage } from './images.js';
import { remoteMediaKey, verifyRemoteMedia } from '../../policy/media-urls.js';

/**
 * Remote posts' pictures, shown through this server: the first reader's request fetches the
 * picture from its server through the outgoing-request guard (within the size of an upload, never
 * from a blocked domain), re-encodes it as an upload is (so only a picture gets through, and none
 * of its metadata), and keeps the copy in the media storage, where every later reader gets it.
 */

const FETCH_TIMEOUT_MS = 10_000;

/** The picture at the address, re-encoded; null when it cannot be had or is no picture. */
async function fetchPicture(app: FastifyInstance, url: string): Promise<Buffer | null> {
  if (!/^https?:\/\//i.test(url) || (await isUrlBlocked(app.db, url))) return null;
  try {
    const response = await app.egress.request(
      url,
      { method: 'GET', headers: { Accept: 'image/*', 'User-Agent': userAgentOf(app.config) }, timeoutMs: FETCH_TIMEOUT_MS, maxResponseBytes: LIMITS.imageMaxBytes },
      federationRules(app.config),
    );
    if (response.status !== 200) return null;
    return await toContentImage(response.body);
  } catch (error) {
    app.log.debug({ err: error, url }, 'remote picture not shown');
    return null;
  }
}

/** The kept copy of the remote picture the hash names, fetched the first time; null for none. */
export async function readRemotePicture(app: FastifyInstance, hash: string, url: unknown): Promise<StoredObject | null> {
  const key = remoteMediaKey(hash);
  const kept = await app.storage.get(key);
  if (kept) return kept;
  if (!verifyRemoteMedia(app, hash, url)) return null;
  const picture = await fetchPicture(app, url as string);
  if (!picture) return null;
  await app.storage.put(key, picture, 'image/webp');
  return app.storage.get(key);
}
