import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { FIRST_FEED_FRESH_MS } from '../../server/src/modules/syndication/app-shell';
import { JOURNEY_VIEWPORT } from './support/journeys';
import { api, createVerifiedUser } from './support/server';
import { useE2eSuite } from './support/suite';

/** The app's own feed, not the server's plain cards it replaces. */
const APP_FEED = 'main section.feed-page:not(.first-feed)';

/**
 * A first visit to the feed: the page comes with the feed's first page, drawn by the server as
 * plain cards whose first picture is asked for with the HTML, and carried as data, so the app's
 * feed draws without its own request; the page's head asks for the feed's code before the entry
 * has run.
 */
describe('first visit to the feed', () => {
  const e2e = useE2eSuite();

  it('draws the first page the HTML carried, and asks for its picture early', async () => {
    const author = await createVerifiedUser(e2e.server);
    const words = `Carried with the page ${Date.now()}`;
    const photo = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#2e86c1' } }).png().toBuffer();
    const post = await api<{ _id: string }>(e2e.server, 'POST', '/post', { token: author.token, body: { text: words } });
    expect(post.status).toBe(201);
    const form = new FormData();
    form.append('id', post.body._id);
    form.append('index', '0');
    form.append('image', new Blob([photo], { type: 'image/png' }), 'lake.png');
    const uploaded = await fetch(`${e2e.server.baseUrl}/api/upload/image`, { method: 'POST', body: form, headers: { authorization: `Bearer ${author.token}` } });
    expect(uploaded.status).toBe(201);
    const picture = ((await uploaded.json()) as { url: string }).url;

    // The server keeps one reading of the feed for its page a moment (FIRST_FEED_FRESH_MS): the
    // visit starts once the page it hands out carries the post.
    const homePage = async () => (await fetch(`${e2e.server.baseUrl}/`)).text();
    await expect.poll(homePage, { timeout: FIRST_FEED_FRESH_MS + 10_000 }).toContain(words);
    const { context } = await e2e.open({ viewport: JOURNEY_VIEWPORT });
    const page = await context.newPage();
    // When the app's first card appears, on the page's own clock (resource timings use the same one).
    await page.addInitScript((feed) => {
      new MutationObserver((_, observer) => {
        if (!document.querySelector(`${feed} article.post-card`)) return;
        (window as unknown as { firstCardAt: number }).firstCardAt = performance.now();
        observer.disconnect();
      }).observe(document, { childList: true, subtree: true });
    }, APP_FEED);
    const requests: string[] = [];
    page.on('request', (request) => requests.push(new URL(request.url()).pathname + new URL(request.url()).search));
    await page.goto(`${e2e.server.baseUrl}/`);
    await page.locator(APP_FEED).getByText(words).waitFor();

    expect(requests.filter((r) => r.startsWith('/api/feed'))).toEqual([]);
    // What the head asked for early is what the app then uses: no file of the build comes twice.
    const assets = requests.filter((r) => r.startsWith('/assets/'));
    expect(assets.filter((r, i) => assets.indexOf(r) !== i)).toEqual([]);
    const pictureAt = requests.indexOf(picture);
    const feedCode = requests.findIndex((r) => /\/assets\/FeedPage-.*\.js$/.test(r));
    expect(pictureAt).toBeGreaterThan(-1);
    expect(feedCode).toBeGreaterThan(-1);
    // The picture comes with the HTML, before the app's code.
    expect(pictureAt).toBeLessThan(feedCode);
    const { cardAt, pictureStart } = await page.evaluate((src) => {
      const entry = performance.getEntriesByType('resource').find((e) => new URL(e.name).pathname + new URL(e.name).search === src);
      return { cardAt: (window as unknown as { firstCardAt?: number }).firstCardAt, pictureStart: entry?.startTime };
    }, picture);
    expect(pictureStart).toBeDefined();
    expect(cardAt).toBeDefined();
    expect(pictureStart as number).toBeLessThan(cardAt as number);
    // The feed is stored as any fetched page is: later pages follow it.
    expect((await api<{ posts: unknown[] }>(e2e.server, 'GET', '/feed?page=1&limit=4')).body.posts.length).toBeGreaterThan(0);
    expect(e2e.journey.log.pageErrors).toEqual([]);
  });
});
