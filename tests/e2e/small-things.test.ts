import type { Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { waitForServiceWorker } from './support/browser';
import { type TestUser, api, createVerifiedUser } from './support/server';
import { useE2eSuite } from './support/suite';

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

/** The account page's "Joined" date as the language writes it inside a sentence. */
const joinedIn = (lng: string) => {
  const withDay = new Intl.DateTimeFormat(lng, { day: 'numeric', month: 'long', year: 'numeric' }).formatToParts(new Date());
  return `${withDay.find((part) => part.type === 'month')?.value} ${new Date().getFullYear()}`;
};

/** An image that arrived and decoded (from the network or a cache), not a broken one. */
const drawn = (img: Locator) => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0);

/**
 * Small things on a phone: the account screen and the own avatar offline, the language switch
 * taking effect at once, and a list that failed to load saying so rather than that it is empty.
 */
describe('small things', () => {
  const e2e = useE2eSuite();

  /** The account screen seen once online (so the service worker keeps the app), then reloaded offline. */
  async function accountOffline(user: TestUser): Promise<Page> {
    const page = await e2e.visit('/account', { as: user, ...PHONE });
    await waitForServiceWorker(page);
    await page.getByRole('heading', { name: user.username, exact: true }).waitFor();
    await e2e.journey.context.setOffline(true);
    await page.reload();
    await page.getByRole('heading', { name: user.username, exact: true }).waitFor();
    return page;
  }

  it('switches the language at once: the choice, the texts and the dates', async () => {
    const user = await createVerifiedUser(e2e.server);
    const page = await e2e.visit('/account', { as: user, ...PHONE, locale: 'en-US' });
    const main = page.getByRole('main');
    await main.getByText(joinedIn('en')).waitFor();
    await main.getByRole('radio', { name: 'Čeština' }).check();
    await main.getByRole('group', { name: 'Jazyk' }).waitFor();
    await main.getByText(joinedIn('cs')).waitFor();
    expect(await main.getByRole('radio', { name: 'Čeština' }).isChecked()).toBe(true);
    expect(await main.getByRole('radio', { name: 'English' }).isChecked()).toBe(false);
    expect(e2e.journey.log.pageErrors).toEqual([]);
  });

  it('opens the account offline, where the theme, the language and logging out work', async () => {
    const user = await createVerifiedUser(e2e.server);
    const page = await accountOffline(user);
    const main = page.getByRole('main');
    await main.getByRole('radio', { name: 'Dark' }).check();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await main.getByRole('radio', { name: 'Čeština' }).check();
    await main.getByRole('group', { name: 'Jazyk' }).waitFor();
    expect(await main.getByRole('radio', { name: 'Čeština' }).isChecked()).toBe(true);
    await main.getByRole('button', { name: 'Odhlásit se' }).click();
    // The language chosen offline waits in the outbox for the server: logging out would drop it, so
    // the app asks first.
    const confirm = page.getByRole('alertdialog');
    await confirm.getByText(/1 položka ještě čeká na odeslání/).waitFor();
    await confirm.getByRole('button', { name: 'Přesto se odhlásit' }).click();
    const nav = page.getByRole('navigation', { name: 'Hlavní navigace' });
    await nav.getByRole('link', { name: 'Přihlásit se' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    expect(e2e.journey.log.pageErrors).toEqual([]);
  });

  it('shows the own avatar offline, in the navigation and on the own posts', async () => {
    const user = await createVerifiedUser(e2e.server);
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 30, g: 160, b: 90 } } }).png().toBuffer();
    const form = new FormData();
    form.append('pfp', new Blob([png], { type: 'image/png' }), 'me.png');
    const uploaded = await fetch(`${e2e.server.baseUrl}/api/upload/pfp`, { method: 'POST', body: form, headers: { authorization: `Bearer ${user.token}` } });
    expect(uploaded.status).toBe(201);
    const text = `Me, offline ${Date.now()}`;
    expect((await api(e2e.server, 'POST', '/post', { token: user.token, body: { text } })).status).toBe(201);

    const page = await e2e.visit(`/u/${user.username}`, { as: user, ...PHONE });
    const card = page.getByRole('main').getByRole('article').filter({ hasText: text });
    const cardAvatar = card.getByRole('img', { name: new RegExp(user.username) }).first();
    const navAvatar = page.getByRole('navigation', { name: 'Main navigation' }).locator('[data-nav="account"] img');
    // One visit online: the pictures arrive before the service worker is there to keep them.
    await card.waitFor();
    await waitForServiceWorker(page);
    await expect.poll(() => drawn(cardAvatar)).toBe(true);
    await expect.poll(() => drawn(navAvatar)).toBe(true);

    await e2e.journey.context.setOffline(true);
    await page.reload();
    await card.waitFor();
    await expect.poll(() => drawn(cardAvatar)).toBe(true);
    await expect.poll(() => drawn(navAvatar)).toBe(true);
    expect(await navAvatar.getAttribute('src')).not.toContain('default');
    expect(e2e.journey.log.pageErrors).toEqual([]);
  });

  it('says a list failed to load, offline or on a server error, instead of calling it empty', async () => {
    const user = await createVerifiedUser(e2e.server);
    // The service worker stays out of it, so the page's own route answers the feed's call.
    const page = await e2e.visit('/account', { as: user, ...PHONE, serviceWorkers: 'block' });
    await page.route('**/api/feed**', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"error/server_error"}' }));
    await page.goto(`${e2e.server.baseUrl}/feed`);
    const main = page.getByRole('main');
    await main.getByText('Something went wrong while loading.').waitFor();
    expect(await main.getByText('No posts here yet.').count()).toBe(0);

    await page.unroute('**/api/feed**');
    await e2e.journey.context.setOffline(true);
    // Within the app: offline, with no service worker, a new page load could not start it.
    await page.getByRole('main').getByRole('link', { name: 'Following', exact: true }).click();
    await main.getByText('You are offline, and these posts are not saved on this device.').waitFor();
    expect(await main.getByText('No posts here yet.').count()).toBe(0);
    expect(e2e.journey.log.pageErrors).toEqual([]);
  });
});
