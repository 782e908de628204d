import type { FastifyInstance } from 'fastify';
import { LIMITS } from '#core/limits';
import { forgetRemoteCopies, recordRemoteCopy, remoteCopiesFetchedBefore } from '../../db/remote-media-copies.js';
import type { Executor } from '../../db/schema.js';
import type { StoredObject } from '../../lib/storage.js';
import { federationRules, userAgentOf } from '../../lib/egress/federation-rules.js';
import { isUrlBlocked } from '../../policy/blocked-domains.js';
import { toContentImage } from './images.js';
import { remoteMediaKey, verifyRemoteMedia } from '../../policy/media-urls.js';

/**
 * Remote posts' pictures, shown through this server: the first reader's request fetches the
 * picture from its server through the outgoing-request guard (within the size of an upload, never
 * from a blocked domain), re-encodes it as an upload is (so only a picture gets through, and none
 * of its metadata), and keeps the copy in the media storage, where every later reader gets it
 * until REMOTE_MEDIA_DAYS after the fetch: the maintenance job then drops it, and the next reader
 * fetches it again, as the first did.
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
  await recordRemoteCopy(app.db, key, picture.length, Date.now());
  return app.storage.get(key);
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Copies one maintenance run drops at most: the storage is asked once per copy, inside the run's transaction. */
export const REMOTE_COPIES_PER_RUN = 500;

/**
 * Drops the copies fetched more than REMOTE_MEDIA_DAYS ago, the oldest first, and logs how many
 * went and their bytes. A copy fetched again meanwhile keeps its row; one whose bytes another read
 * puts back just as they go is fetched once more by its next reader.
 */
export async function dropOldRemoteCopies(app: FastifyInstance, db: Executor, now: number): Promise<{ dropped: number; bytes: number }> {
  const before = now - app.config.remoteMediaDays * DAY_MS;
  const old = await remoteCopiesFetchedBefore(db, before, REMOTE_COPIES_PER_RUN);
  const keys = old.map((copy) => copy.key);
  await forgetRemoteCopies(db, keys, before);
  if (keys.length > 0) await app.storage.remove(keys);
  const bytes = old.reduce((sum, copy) => sum + copy.bytes, 0);
  app.log.info({ dropped: keys.length, bytesFreed: bytes, days: app.config.remoteMediaDays }, 'old copies of remote pictures dropped');
  return { dropped: keys.length, bytes };
}
