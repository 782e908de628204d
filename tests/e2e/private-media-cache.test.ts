import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { waitForServiceWorker } from './support/browser';
import { type TestUser, api, createVerifiedUser, uniqueName } from './support/server';
import { useE2eSuite } from './support/suite';

const MEDIA_CACHE = 'kruh-media';

/**
 * A private group's picture in the service worker's cache belongs to the session that fetched it:
 * once that session is cleared without the app's logout, the worker answers the picture's address
 * from its cache to nobody, signed or not, online or offline.
 */
describe("a private group's picture in the service worker's cache", () => {
  const e2e = useE2eSuite({ browser: 'full' });
  let member: TestUser;
  let postId: string;
  let signed: string;

  beforeAll(async () => {
    member = await createVerifiedUser(e2e.server);
    const group = uniqueName('attic');
    const created = await api(e2e.server, 'POST', '/group', {
      token: member.token,
      body: { name: group, description: 'Kept among ourselves.', isPrivate: true, requestJoin: true, everyoneCanPost: true },
    });
    expect(created.status).toBe(201);
    const post = await api<{ _id: string }>(e2e.server, 'POST', '/post', { token: member.token, body: { text: 'Only for the attic', groups: [group], images: 1 } });
    expect(post.status).toBe(201);
    postId = post.body._id;
    const photo = await sharp({ create: { width: 60, height: 40, channels: 3, background: '#884422' } }).png().toBuffer();
    const form = new FormData();
    form.append('id', postId);
    form.append('index', '0');
    form.append('image', new Blob([photo], { type: 'image/png' }), 'attic.png');
    const uploaded = await fetch(`${e2e.server.baseUrl}/api/upload/image`, { method: 'POST', body: form, headers: { authorization: `Bearer ${member.token}` } });
    expect(uploaded.status).toBe(201);
    const read = await api<{ media: string[] }>(e2e.server, 'GET', `/post/${postId}`, { token: member.token });
    signed = read.body.media[0]!;
    expect(signed).toMatch(/[?&]sig=/);
  });

  it('is answered to nobody once the session is cleared without a logout', async () => {
    const page = await e2e.visit(`/p/${postId}`, { as: member });
    await waitForServiceWorker(page);
    // Past the browser's own HTTP cache (which keeps the answer its max-age, as the server asks):
    // what answers is the worker, from its cache or the network.
    const status = (url: string) =>
      page.evaluate(async (address) => {
        try {
          return (await fetch(address, { cache: 'no-store' })).status;
        } catch {
          return 'no answer';
        }
      }, url);
    const kept = () => page.evaluate(async (name) => (await (await caches.open(name)).keys()).map((request) => request.url), MEDIA_CACHE);
    // The address without its signature: the key the worker keeps the picture under.
    const address = new URL(signed, e2e.server.baseUrl);
    address.searchParams.delete('exp');
    address.searchParams.delete('sig');
    const unsigned = `${address.pathname}${address.search}`;

    // Signed in, the picture is fetched through the worker, which keeps it for this account.
    await expect.poll(async () => (await status(signed)) === 200 && (await kept()).includes(address.href), { timeout: 15_000 }).toBe(true);

    // The session is cleared behind the app's back (site storage, not the logout).
    await page.evaluate(() => localStorage.clear());
    // Its address without the signature is the server's to answer, and the server refuses it.
    expect(await status(unsigned)).toBe(404);

    // Started again with no session, offline: the cache answers the signed address no more.
    await page.reload();
    await page.getByRole('main').waitFor();
    await e2e.journey.context.setOffline(true);
    await expect.poll(() => status(signed), { timeout: 10_000 }).toBe('no answer');
    await e2e.journey.context.setOffline(false);
    expect(e2e.journey.log.pageErrors).toEqual([]);
  });
});
