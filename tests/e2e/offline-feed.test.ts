import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { PAGE_SIZES } from '#core/limits';
import { waitForServiceWorker } from './support/browser';
import { type TestUser, api, createVerifiedUser } from './support/server';
import { useE2eSuite } from './support/suite';

/** Feed pages to scroll through before going offline. */
const PAGES = 3;
const POSTS = PAGES * PAGE_SIZES.posts + 2;

/** Scrolls the main list until `count` posts show (the list loads a page as its end comes into view). */
async function scrollUntil(page: Page, count: number): Promise<void> {
  const cards = page.getByRole('main').getByRole('article');
  await expect
    .poll(
      async () => {
        await cards.last().scrollIntoViewIfNeeded();
        await page.mouse.wheel(0, 4000);
        return cards.count();
      },
      { timeout: 30_000, interval: 250 },
    )
    .toBeGreaterThanOrEqual(count);
}

/**
 * Local-first reading: every feed page a person scrolled through stays readable offline, after a
 * reload, in the order it was shown, and the list keeps scrolling through the stored pages.
 */
describe('offline feed', () => {
  const e2e = useE2eSuite();
  let reader: TestUser;
  const texts: string[] = [];

  beforeAll(async () => {
    const [author, other] = await Promise.all([createVerifiedUser(e2e.server), createVerifiedUser(e2e.server)]);
    reader = other!;
    for (let i = 0; i < POSTS; i++) {
      const text = `Feed post number ${i} from ${author!.username}`;
      const created = await api(e2e.server, 'POST', '/post', { token: author!.token, body: { text } });
      expect(created.status).toBe(201);
      texts.unshift(text);
    }
  });

  it('shows every stored page after an offline reload and keeps scrolling through them', async () => {
    const page = await e2e.visit('/feed', { as: reader });
    const main = page.getByRole('main');
    await main.getByRole('article').filter({ hasText: texts[0] }).waitFor();
    await waitForServiceWorker(page);
    const seen = PAGES * PAGE_SIZES.posts;
    await scrollUntil(page, seen);

    await e2e.journey.context.setOffline(true);
    await page.reload();
    await page.getByRole('navigation', { name: 'Main navigation' }).waitFor();
    await main.getByRole('status').filter({ hasText: 'You are offline. Showing saved posts.' }).waitFor();
    await scrollUntil(page, seen);
    const shown = await main.getByRole('article').allInnerTexts();
    // Newest first, the same posts in the same order as online.
    for (let i = 0; i < seen; i++) expect(shown[i]).toContain(texts[i]);
  });
});
