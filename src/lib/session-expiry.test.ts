import { afterEach, describe, expect, it, vi } from 'vitest';
import { MEDIA_CACHE } from './media-cache';
import { FakeCacheStorage } from '../test/fake-caches';
import { refuseSession } from '../test/session';
import { storeSession } from './session';
import { startSessionExpiry } from './session-expiry';

const PRIVATE = '/media/aaaaaaaaaaaaaaaaaaaaaaaa0.webp';
const PUBLIC = '/media/bbbbbbbbbbbbbbbbbbbbbbbb0.webp';

async function mediaCache(): Promise<FakeCacheStorage> {
  const storage = new FakeCacheStorage();
  const cache = await storage.open(MEDIA_CACHE);
  await cache.put(PRIVATE, new Response('img', { headers: { 'Cache-Control': 'private, max-age=600' } }));
  await cache.put(PUBLIC, new Response('img', { headers: { 'Cache-Control': 'public, max-age=600' } }));
  vi.stubGlobal('caches', storage.asCacheStorage());
  return storage;
}

describe('startSessionExpiry', () => {
  let stop: (() => void) | undefined;
  afterEach(() => {
    stop?.();
    vi.unstubAllGlobals();
  });

  it('drops private-group images from the media cache once the server refuses the session', async () => {
    const storage = await mediaCache();
    storeSession('tok', 'alice', 'u1');
    stop = startSessionExpiry();
    await new Promise((r) => setTimeout(r, 10));
    expect(storage.urls(MEDIA_CACHE)).toHaveLength(2);

    await refuseSession('tok', 'alice', 'u1');
    await vi.waitFor(() => expect(storage.urls(MEDIA_CACHE)).toEqual([new URL(PUBLIC, location.href).href]));
  });

  it('drops them at start when there is no session, as after one cleared without a logout', async () => {
    const storage = await mediaCache();
    stop = startSessionExpiry();
    await vi.waitFor(() => expect(storage.urls(MEDIA_CACHE)).toEqual([new URL(PUBLIC, location.href).href]));
  });

  it('drops them at start when the session was refused before', async () => {
    const storage = await mediaCache();
    await refuseSession('tok', 'alice', 'u1');
    stop = startSessionExpiry();
    await vi.waitFor(() => expect(storage.urls(MEDIA_CACHE)).toEqual([new URL(PUBLIC, location.href).href]));
  });
});
