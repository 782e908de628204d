import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { api, createVerifiedUser } from './support/server';
import { useE2eSuite } from './support/suite';

const versionOf = (src: string | null) => Number(/[?&]v=(\d+)/.exec(src ?? '')?.[1] ?? 0);

/** A new profile picture shows everywhere the user's avatar is, at once, without a reload. */
describe('own avatar', () => {
  const e2e = useE2eSuite();

  it('changes in the navigation, the profile and the own posts as soon as the upload is accepted', async () => {
    const user = await createVerifiedUser(e2e.server);
    const text = `A post with my face ${Date.now()}`;
    expect((await api(e2e.server, 'POST', '/post', { token: user.token, body: { text } })).status).toBe(201);

    // The profile and its post are seen (and stored) with the old picture first.
    const page = await e2e.visit(`/u/${user.username}`, { as: user });
    const card = page.getByRole('main').getByRole('article').filter({ hasText: text });
    await card.waitFor();
    const cardAvatar = card.getByRole('img', { name: new RegExp(user.username) }).first();
    const before = versionOf(await cardAvatar.getAttribute('src'));
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    // The account item shows the user's name and picture.
    const accountItem = nav.locator('[data-nav="account"] a');
    const navAvatar = accountItem.locator('img');

    await accountItem.click();
    await page.getByRole('heading', { name: user.username, exact: true }).waitFor();
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 200, g: 40, b: 90 } } }).png().toBuffer();
    await page.getByTestId('pfp-input').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });
    await page.getByRole('status').filter({ hasText: 'Profile picture uploaded!' }).waitFor();

    await expect.poll(async () => versionOf(await navAvatar.getAttribute('src'))).toBeGreaterThan(before);
    const after = versionOf(await navAvatar.getAttribute('src'));

    // Back on the profile through the app (no reload): header and the stored post follow.
    await page.goBack();
    await card.waitFor();
    await expect.poll(async () => versionOf(await cardAvatar.getAttribute('src'))).toBe(after);
    expect(e2e.journey.log.pageErrors).toEqual([]);
  });
});
