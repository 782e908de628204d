import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { JOURNEY_VIEWPORT } from './support/journeys';
import { type TestUser, api, createVerifiedUser } from './support/server';
import { useE2eSuite } from './support/suite';

/** What the page's own script records from its first moment: the sum of its layout shifts, and whether the feed ever blinked empty. */
declare global {
  interface Window {
    shifted: number;
    blinked: boolean;
    shownAtStart: boolean | null;
  }
}

/**
 * The page at `/` comes with the explore feed's first page drawn by the server as plain HTML: it
 * paints without any script, and the app replaces it in place (one card per post, nothing moving,
 * never blank in between). Opening elsewhere, those cards never show.
 */
describe("the server's first feed page", () => {
  const e2e = useE2eSuite();
  let author: TestUser;
  let words: string;

  beforeAll(async () => {
    author = await createVerifiedUser(e2e.server);
    const photo = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#2e86c1' } }).png().toBuffer();
    const pictured = await api<{ _id: string }>(e2e.server, 'POST', '/post', { token: author.token, body: { text: `A lake ${Date.now()}` } });
    const form = new FormData();
    form.append('id', pictured.body._id);
    form.append('index', '0');
    form.append('image', new Blob([photo], { type: 'image/png' }), 'lake.png');
    const uploaded = await fetch(`${e2e.server.baseUrl}/api/upload/image`, { method: 'POST', body: form, headers: { authorization: `Bearer ${author.token}` } });
    expect(uploaded.status).toBe(201);
    words = `Painted before any script <b>${Date.now()}</b>`;
    expect((await api(e2e.server, 'POST', '/post', { token: author.token, body: { text: words } })).status).toBe(201);
  });

  /** Records, from before the page's first byte, what the tests ask about. */
  const watch = () => {
    window.shifted = 0;
    window.blinked = false;
    window.shownAtStart = null;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>) if (!entry.hadRecentInput) window.shifted += entry.value;
    }).observe({ type: 'layout-shift', buffered: true });
    let seen = false;
    new MutationObserver(() => {
      const card = document.querySelector('main article.post-card');
      if (card && window.getComputedStyle(card).display !== 'none') seen = true;
      else if (seen) window.blinked = true;
    }).observe(document, { childList: true, subtree: true });
    document.addEventListener('DOMContentLoaded', () => {
      const drawn = document.querySelector('main .feed-page');
      window.shownAtStart = drawn ? window.getComputedStyle(drawn).display !== 'none' : null;
    });
  };

  it('shows the first post without JavaScript', async () => {
    const page = await e2e.visit('/', { viewport: JOURNEY_VIEWPORT, javaScriptEnabled: false });
    const card = page.getByRole('main').locator('article.post-card').filter({ hasText: words });
    await expect.poll(() => card.isVisible()).toBe(true);
    await expect.poll(() => page.getByRole('main').getByRole('img', { name: /Image 1/ }).isVisible()).toBe(true);
  });

  it('is replaced by the app in place: one card per post, nothing moving, never blank', async () => {
    const { context } = await e2e.open({ viewport: JOURNEY_VIEWPORT });
    const page = await context.newPage();
    await page.addInitScript(watch);
    await page.goto(`${e2e.server.baseUrl}/`);
    // The app's own feed: its section has no mark of the server's.
    await page.locator('main section.feed-page:not(.first-feed) article.post-card').first().waitFor();
    await page.waitForLoadState('load');
    const feed = await api<{ posts: Array<{ _id: string }> }>(e2e.server, 'GET', '/feed?page=1&limit=4');
    const ids = await page.locator('main article.post-card').evaluateAll((cards) => cards.map((c) => c.getAttribute('data-post-id')));
    expect(ids).toEqual(feed.body.posts.map((p) => p._id));
    expect(await page.getByRole('main').getByText(words).isVisible()).toBe(true);
    const seen = await page.evaluate(() => ({ shifted: window.shifted, blinked: window.blinked, shownAtStart: window.shownAtStart }));
    expect(seen.shownAtStart).toBe(true);
    expect(seen.blinked).toBe(false);
    expect(seen.shifted).toBeLessThan(0.05);
    expect(e2e.journey.log.pageErrors).toEqual([]);
  });

  it('never shows for a signed-in reader', async () => {
    const { context } = await e2e.open({ viewport: JOURNEY_VIEWPORT, as: author });
    const page = await context.newPage();
    await page.addInitScript(watch);
    await page.goto(`${e2e.server.baseUrl}/`);
    await page.locator('main section.feed-page:not(.first-feed) article.post-card').first().waitFor();
    expect(await page.evaluate(() => window.shownAtStart)).toBe(false);
  });
});
