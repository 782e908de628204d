import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { PostList } from '#core/api/posts';
import { JOURNEY_VIEWPORT, text } from '../support/journeys';
import { type TestUser, api, createVerifiedUser } from '../support/server';
import { useE2eSuite } from '../support/suite';

/**
 * A post with a described photo behind a content warning: the description and the warning go
 * with it to the server, and the post's page shows the warning first, then, when asked, the photo
 * named by its description, in the card and in the gallery.
 */
describe('journey: a described photo behind a content warning', () => {
  const e2e = useE2eSuite();
  let ada: TestUser;
  let finn: TestUser;

  it('writes the description and the warning, then opens the post behind the warning and reads the description', async () => {
    [ada, finn] = [await createVerifiedUser(e2e.server), await createVerifiedUser(e2e.server)];
    const { server } = e2e;
    const en = (id: string, values?: Record<string, string | number>) => text('en', id, values);
    const words = `Found in the shed ${Date.now()}`;
    const description = 'A large brown spider on a wooden beam';
    const page = await e2e.visit('/post', { as: ada, viewport: JOURNEY_VIEWPORT });
    const main = page.getByRole('main');

    await main.getByRole('textbox', { name: en('compose:text_label') }).fill(words);
    await main.locator('input[type=file]').setInputFiles([{
      name: 'spider.png',
      mimeType: 'image/png',
      buffer: await sharp({ create: { width: 640, height: 480, channels: 3, background: '#7a5230' } }).png().toBuffer(),
    }]);
    await main.getByRole('textbox', { name: en('editor:image_description') }).fill(description);
    await main.getByRole('button', { name: en('editor:content_warning'), exact: true }).click();
    await main.getByRole('textbox', { name: en('editor:content_warning') }).fill('Spiders');
    await main.getByRole('button', { name: en('compose:submit'), exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/');

    const stored = async () =>
      (await api<PostList>(server, 'GET', `/profile/posts/${ada.username}`, { token: finn.token })).body.posts ?? [];
    await expect.poll(async () => (await stored()).map((p) => [p.text, p.media.length, p.alts, p.contentWarning]), { timeout: 15_000 })
      .toEqual([[words, 1, [description], 'Spiders']]);
    const [post] = await stored();

    // The post's page, where a reader (the author too) meets the warning first.
    await page.goto(`${server.baseUrl}/p/${post!._id}`);
    const reader = page;
    const card = reader.getByRole('main').locator(`article[data-post-id="${post!._id}"]`).first();
    const show = card.getByRole('button', { name: en('post:show_content_label', { warning: 'Spiders' }) });
    await show.waitFor({ timeout: 15_000 });
    expect(await show.getAttribute('aria-expanded')).toBe('false');
    expect(await card.getByText(words).count()).toBe(0);
    expect(await card.getByRole('img', { name: description }).count()).toBe(0);

    await show.click();
    const photo = card.getByRole('img', { name: description });
    await photo.waitFor();
    await card.getByText(words).waitFor();
    expect(await card.getByRole('button', { name: en('post:hide_content_label', { warning: 'Spiders' }) }).getAttribute('aria-expanded')).toBe('true');

    await photo.click();
    const gallery = reader.getByRole('dialog');
    await expect.poll(() => gallery.locator('.yarl__slide_description').first().textContent()).toBe(description);
    await reader.keyboard.press('Escape');
    await expect.poll(() => gallery.count()).toBe(0);
    expect(e2e.journey.log.pageErrors).toEqual([]);
  });
});
