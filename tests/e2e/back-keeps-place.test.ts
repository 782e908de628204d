import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestUser, createPost, createVerifiedUser } from './support/server';
import { useE2eSuite } from './support/suite';

const SEEDED = 28;
/** Where the list is left: a post of the second page, so more than one page must come back. */
const LOADED = 24;

/**
 * Back from a post lands where the list was left: every page it had loaded, scrolled as it was,
 * as a phone's browser back and the app's own back arrow both do.
 */
describe('back keeps the place in a list', () => {
  const e2e = useE2eSuite();
  let author: TestUser;

  beforeAll(async () => {
    author = await createVerifiedUser(e2e.server);
    for (let i = 1; i <= SEEDED; i += 1) await createPost(e2e.server, author, { text: `Place kept ${i} of ${author.username}` });
  });

  const posts = (page: Page) => page.getByRole('main').getByRole('article');
  const scrollY = (page: Page) => page.evaluate(() => Math.round(window.scrollY));

  /**
   * Scrolls to the end of the list, every page loaded, then back up; how many it shows and where it
   * stopped. To the very end, so no page asked for at the bottom can still arrive and lengthen the
   * list after it was counted.
   */
  async function scrollDown(page: Page): Promise<{ count: number; y: number }> {
    // Each time the last post shows, the next page is asked for.
    await posts(page).first().waitFor();
    await expect
      .poll(
        async () => {
          await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
          return posts(page).count();
        },
        { timeout: 30_000 },
      )
      .toBe(SEEDED);
    // Up to a post whose list ends well below the screen, once a page asked for at the bottom is in;
    // in the middle, clear of the bars, so clicking it scrolls nothing.
    await posts(page).nth(LOADED - 12).evaluate((card) => card.scrollIntoView({ block: 'center' }));
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    await page.getByRole('main').getByRole('status').waitFor({ state: 'detached' });
    const count = await posts(page).count();
    const y = await scrollY(page);
    expect(y).toBeGreaterThan(1000);
    return { count, y };
  }

  /** Opens the post in the middle of the screen (by its time link) and waits for its page. */
  async function openPost(page: Page, index: number) {
    await posts(page).nth(index).locator('.post-time a').click();
    await page.getByRole('heading', { name: 'Post', exact: true }).waitFor();
  }

  async function expectPlace(page: Page, place: { count: number; y: number }) {
    await expect.poll(() => posts(page).count(), { timeout: 10_000 }).toBe(place.count);
    await expect.poll(async () => Math.abs((await scrollY(page)) - place.y), { timeout: 10_000 }).toBeLessThanOrEqual(4);
  }

  it("restores the feed's loaded posts and scroll after browser back, then the app's back arrow", async () => {
    const page = await e2e.visit('/feed');
    const place = await scrollDown(page);

    await openPost(page, LOADED - 12);
    await page.goBack();
    await expectPlace(page, place);

    await openPost(page, LOADED - 12);
    await page.getByRole('main').getByRole('button', { name: 'Back', exact: true }).click();
    await expectPlace(page, place);

    // A fresh visit of the feed (a new entry, not back) starts again at its top.
    await page.getByRole('navigation', { name: 'Feeds' }).getByRole('link', { name: 'Explore' }).click();
    await expect.poll(() => scrollY(page)).toBe(0);
    expect(e2e.journey.log.pageErrors).toEqual([]);
  });

  it("restores a profile's posts and scroll after back", async () => {
    const page = await e2e.visit(`/u/${author.username}`);
    const place = await scrollDown(page);

    await openPost(page, LOADED - 12);
    await page.goBack();
    await expectPlace(page, place);
    expect(e2e.journey.log.pageErrors).toEqual([]);
  });
});
