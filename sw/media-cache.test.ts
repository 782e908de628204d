import { afterEach, describe, expect, it, vi } from 'vitest';
import type { WorkboxPlugin } from 'workbox-core';
import { CacheFirst, StaleWhileRevalidate } from 'workbox-strategies';
import { FakeCacheStorage } from '../src/test/fake-caches';
import { MEDIA_CACHE, forgetPrivateMedia, isFixedMedia, isMediaUrl, mediaCacheKey } from '../src/lib/media-cache';
import { mirrorSession } from '../src/lib/outbox/background-sync';
import { corsRequest, mediaCacheRules, sessionAccount, storeMediaBase, storedMediaBase } from './media-cache';

const ORIGIN = 'https://kruh.test';
const image = (cacheControl: string, body = 'bytes') =>
  new Response(body, { status: 200, headers: { 'Content-Type': 'image/webp', 'Cache-Control': cacheControl } });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('media cache key', () => {
  it('drops the signature of a private image and keeps everything else', () => {
    expect(mediaCacheKey(`${ORIGIN}/media/abc0.webp?exp=123&sig=xyz`)).toBe(`${ORIGIN}/media/abc0.webp`);
    expect(mediaCacheKey(`${ORIGIN}/media/abc0.webp?sig=xyz&exp=123`)).toBe(mediaCacheKey(`${ORIGIN}/media/abc0.webp?exp=999&sig=other`));
    // An avatar's version names other bytes: it stays in the key.
    expect(mediaCacheKey(`${ORIGIN}/media/pfp/u1.jpeg?v=3`)).toBe(`${ORIGIN}/media/pfp/u1.jpeg?v=3`);
    expect(mediaCacheKey(`${ORIGIN}/media/pfp/u1.jpeg?v=3`)).not.toBe(mediaCacheKey(`${ORIGIN}/media/pfp/u1.jpeg?v=4`));
  });
});

describe('which media the cache may answer alone', () => {
  it('is versioned or signed media, not a plain avatar address', () => {
    expect(isFixedMedia(new URL(`${ORIGIN}/media/pfp/u1.jpeg?v=3`))).toBe(true);
    expect(isFixedMedia(new URL(`${ORIGIN}/media/abc0.webp?v=3&exp=1&sig=x`))).toBe(true);
    expect(isFixedMedia(new URL(`${ORIGIN}/media/abc0.webp?exp=1&sig=x`))).toBe(true);
    expect(isFixedMedia(new URL(`${ORIGIN}/media/pfp/u1.jpeg`))).toBe(false);
    expect(isFixedMedia(new URL(`${ORIGIN}/media/gp/default.jpeg`))).toBe(false);
  });
});

describe('which requests are media', () => {
  const HOST = 'https://media.example.com';
  const is = (url: string, mediaBase: string | null = HOST) => isMediaUrl(new URL(url), ORIGIN, mediaBase);

  it("matches the app's own /media, and the content host's media by its origin and path", () => {
    expect(is(`${ORIGIN}/media/abc0.webp?exp=1&sig=x`)).toBe(true);
    expect(is(`${ORIGIN}/media/pfp/u1.jpeg`, null)).toBe(true);
    expect(is(`${HOST}/abc0.webp?exp=1&sig=x`)).toBe(true);
    expect(is(`${HOST}/pfp/u1.jpeg?v=2`)).toBe(true);
    expect(is(`${HOST}/kruh/pfp/u1.jpeg?v=2`, `${HOST}/kruh`)).toBe(true);
  });

  it('matches nothing else: other paths of the app, other hosts, the content host outside its path or when unset', () => {
    expect(is(`${ORIGIN}/api/media/x`)).toBe(false);
    expect(is(`${ORIGIN}/index.html`)).toBe(false);
    expect(is('https://media.tenor.com/x.gif')).toBe(false);
    expect(is('http://media.example.com/abc0.webp')).toBe(false);
    expect(is('https://media.example.com:8443/abc0.webp')).toBe(false);
    expect(is(`${HOST}/abc0.webp`, null)).toBe(false);
    expect(is(`${HOST}/`)).toBe(false);
    expect(is(`${HOST}/other/a.webp`, `${HOST}/kruh`)).toBe(false);
    expect(is(`${HOST}/kruhx/a.webp`, `${HOST}/kruh`)).toBe(false);
    expect(is(`https://elsewhere.test/media/a.webp`)).toBe(false);
  });

  it('keeps the content host between the worker\'s starts', async () => {
    const storage = new FakeCacheStorage().asCacheStorage();
    expect(await storedMediaBase(storage)).toBeNull();
    await storeMediaBase(HOST, storage);
    expect(await storedMediaBase(storage)).toBe(HOST);
    await storeMediaBase(null, storage);
    expect(await storedMediaBase(storage)).toBeNull();
    expect(await storedMediaBase(undefined)).toBeNull();
  });
});

/**
 * Runs the media route's strategy the way the service worker does, over a fake network, with the
 * account the page mirrored (`session.account`, null when signed out) and a clock (`clock.now`).
 */
function setup(plugins: WorkboxPlugin[] = []) {
  const session = { account: 'u1' as string | null };
  const clock = { now: Date.parse('2026-11-29T12:00:00Z') };
  const rules = mediaCacheRules(
    async () => session.account,
    () => clock.now,
  );
  // The service-worker event classes Workbox checks against (jsdom has none).
  class ExtendableEventStub extends Event {
    waitUntil(): void {}
  }
  vi.stubGlobal('ExtendableEvent', ExtendableEventStub);
  vi.stubGlobal('FetchEvent', class extends ExtendableEventStub {});
  const storage = new FakeCacheStorage();
  vi.stubGlobal('caches', storage.asCacheStorage());
  const server = { online: true };
  const network = vi.fn(async (input: RequestInfo | URL) => {
    if (!server.online) throw new TypeError('Failed to fetch');
    const url = new URL(input instanceof Request ? input.url : String(input));
    // As the server answers: a private image only to its signature, kept while that lives.
    if (url.pathname.startsWith('/media/private') && !url.searchParams.has('sig')) return new Response('{}', { status: 404, headers: { 'Cache-Control': 'no-store' } });
    return image(url.searchParams.has('sig') ? 'private, max-age=600' : 'public, max-age=31536000, immutable', url.href);
  });
  vi.stubGlobal('fetch', network);
  const options = { cacheName: MEDIA_CACHE, plugins: [...plugins, rules] };
  const strategies = { fixed: new CacheFirst(options), plain: new StaleWhileRevalidate(options) };
  /**
   * The text the worker answers, the status when it is no image, or 'no answer' when it has none
   * (offline, nothing it may use in the cache); the fixed or plain strategy as sw.ts picks it.
   */
  const get = async (url: string, strategy: 'fixed' | 'plain' = 'fixed') => {
    const event = new ExtendableEventStub('fetch') as unknown as ExtendableEvent;
    const [response, done] = strategies[strategy].handleAll({ request: new Request(url), event });
    await done.catch(() => undefined);
    const answer = await response.catch(() => null);
    if (!answer) return 'no answer';
    return answer.status === 200 ? answer.text() : answer.status;
  };
  return { storage, network, get, session, clock, server };
}

describe('media route caching', () => {
  it('fetches with the signature, caches without it and serves a re-signed URL from the cache', async () => {
    const { storage, network, get } = setup();
    const first = `${ORIGIN}/media/abc0.webp?exp=1000&sig=one`;
    expect(await get(first)).toBe(first);
    expect(network).toHaveBeenCalledTimes(1);
    expect((network.mock.calls[0]![0] as Request).url).toBe(first);
    expect(storage.urls(MEDIA_CACHE)).toEqual([`${ORIGIN}/media/abc0.webp`]);

    // The same image re-signed a few minutes later: no network needed (works offline).
    expect(await get(`${ORIGIN}/media/abc0.webp?exp=2000&sig=two`)).toBe(first);
    expect(network).toHaveBeenCalledTimes(1);

    // A new avatar version is other bytes: fetched and cached on its own.
    await get(`${ORIGIN}/media/pfp/u1.jpeg?v=1`);
    await get(`${ORIGIN}/media/pfp/u1.jpeg?v=2`);
    expect(network).toHaveBeenCalledTimes(3);
  });

  it("caches the content host's media the same way, fetched with CORS so a private image stays known", async () => {
    const { storage, network, get } = setup([corsRequest]);
    const HOST = 'https://media.example.com';
    const first = `${HOST}/abc0.webp?exp=1000&sig=one`;
    expect(await get(first)).toBe(first);
    const request = network.mock.calls[0]![0] as Request;
    expect(request.url).toBe(first);
    expect(request.mode).toBe('cors');
    expect(request.credentials).toBe('omit');
    expect(storage.urls(MEDIA_CACHE)).toEqual([`${HOST}/abc0.webp`]);
    expect(await get(`${HOST}/abc0.webp?exp=2000&sig=two`)).toBe(first);
    expect(network).toHaveBeenCalledTimes(1);
    // At logout it goes like a private image of the app's own.
    expect(await forgetPrivateMedia(storage.asCacheStorage())).toBe(1);
    expect(storage.urls(MEDIA_CACHE)).toEqual([]);
  });
});

describe("private images and the account's session", () => {
  const SIGNED = `${ORIGIN}/media/private0.webp?exp=1000&sig=one`;
  const RESIGNED = `${ORIGIN}/media/private0.webp?exp=2000&sig=two`;
  const UNSIGNED = `${ORIGIN}/media/private0.webp`;

  it('answers a signed request from the cache while the account that fetched it is signed in, within its max-age', async () => {
    const { network, get, clock, server } = setup();
    expect(await get(SIGNED)).toBe(SIGNED);
    server.online = false;
    clock.now += 599_000;
    expect(await get(RESIGNED)).toBe(SIGNED);
    expect(network).toHaveBeenCalledTimes(1);
  });

  it('never answers an address without a signature from the cache', async () => {
    const { storage, network, get } = setup();
    await get(SIGNED);
    // The same picture asked for without its signature, whichever strategy takes it: the server decides.
    expect(await get(UNSIGNED, 'plain')).toBe(404);
    expect(await get(`${UNSIGNED}?v=1`)).toBe(404);
    expect(network).toHaveBeenCalledTimes(3);
    // The account's own copy stays for its signed requests.
    expect(storage.urls(MEDIA_CACHE)).toEqual([UNSIGNED]);
  });

  it('drops it once the session is gone without a logout, and answers nothing offline', async () => {
    const { storage, network, get, session, server } = setup();
    await get(SIGNED);
    session.account = null;
    server.online = false;
    expect(await get(RESIGNED)).toBe('no answer');
    expect(network).toHaveBeenCalledTimes(2);
    expect(storage.urls(MEDIA_CACHE)).toEqual([]);
  });

  it("drops it when another account signs in on the device, and keeps the other's copy for them", async () => {
    const { storage, network, get, session } = setup();
    await get(SIGNED);
    session.account = 'u2';
    expect(await get(RESIGNED)).toBe(RESIGNED);
    expect(network).toHaveBeenCalledTimes(2);
    expect(storage.urls(MEDIA_CACHE)).toEqual([UNSIGNED]);
    expect(await get(SIGNED)).toBe(RESIGNED);
    expect(network).toHaveBeenCalledTimes(2);
  });

  it('keeps it no longer than its max-age, offline too', async () => {
    const { storage, get, clock, server } = setup();
    await get(SIGNED);
    clock.now += 600_000;
    server.online = false;
    expect(await get(RESIGNED)).toBe('no answer');
    expect(storage.urls(MEDIA_CACHE)).toEqual([]);
  });

  it('keeps none fetched while signed out, and public media whoever is signed in', async () => {
    const { storage, network, get, session, clock, server } = setup();
    session.account = null;
    expect(await get(SIGNED)).toBe(SIGNED);
    expect(storage.urls(MEDIA_CACHE)).toEqual([]);
    const avatar = `${ORIGIN}/media/pfp/u1.jpeg?v=2`;
    await get(avatar);
    session.account = 'u2';
    clock.now += 40 * 24 * 3600_000;
    server.online = false;
    expect(await get(avatar)).toBe(avatar);
    expect(network).toHaveBeenCalledTimes(2);
  });

  it("knows the account from the session the page mirrors, while the server takes it", async () => {
    expect(await sessionAccount()).toBeNull();
    await mirrorSession({ token: 'tok', username: 'alice', id: 'u1' });
    expect(await sessionAccount()).toBe('u1');
    await mirrorSession({ token: 'tok', username: 'alice', id: 'u1', expired: true });
    expect(await sessionAccount()).toBeNull();
    await mirrorSession({ token: null, username: null, id: null });
    expect(await sessionAccount()).toBeNull();
  });
});

describe('logout cleanup', () => {
  it('removes private-group images from the media cache and keeps public media', async () => {
    const storage = new FakeCacheStorage();
    const cache = await storage.open(MEDIA_CACHE);
    await cache.put(`${ORIGIN}/media/abc0.webp`, image('private, max-age=3600'));
    await cache.put(`${ORIGIN}/media/def0.webp`, image('public, max-age=31536000, immutable'));
    await cache.put(`${ORIGIN}/media/pfp/u1.jpeg?v=2`, image('public, max-age=31536000, immutable'));
    expect(await forgetPrivateMedia(storage.asCacheStorage())).toBe(1);
    expect(storage.urls(MEDIA_CACHE)).toEqual([`${ORIGIN}/media/def0.webp`, `${ORIGIN}/media/pfp/u1.jpeg?v=2`]);
  });

  it('does nothing where there is no cache', async () => {
    expect(await forgetPrivateMedia(undefined)).toBe(0);
    expect(await forgetPrivateMedia(new FakeCacheStorage().asCacheStorage())).toBe(0);
  });
});
