import { describe, expect, it } from 'vitest';
import { JOURNEY_VIEWPORT, text } from '../support/journeys';
import { api, mailedLink, mailsTo, uniqueName } from '../support/server';
import { useE2eSuite } from '../support/suite';

/**
 * A person's first day: sign up, verify from the mailed link (which signs the browser in), switch the app to Czech,
 * log out; later, a forgotten password reset from the mailed link, and a login with the new one.
 * Each step checks what the person sees and what the server stored.
 */
describe('journey: an account from sign-up to a forgotten password', () => {
  const e2e = useE2eSuite();

  it('signs up, verifies, logs in, changes language, logs out and resets a forgotten password', async () => {
    const { server } = e2e;
    const username = uniqueName('first');
    const email = `${username}@example.com`;
    const password = 'Kruh!2026first';
    const newPassword = 'Kruh!2026second';

    const page = await e2e.visit('/signup', { viewport: JOURNEY_VIEWPORT });
    const main = page.getByRole('main');
    await main.getByRole('heading', { name: text('en', 'auth:signup.title') }).waitFor();
    await main.getByLabel(text('en', 'auth:signup.username'), { exact: true }).fill(username);
    await main.getByLabel(text('en', 'auth:signup.email'), { exact: true }).fill(email);
    await main.getByLabel(text('en', 'auth:signup.password'), { exact: true }).fill(password);
    await main.getByLabel(text('en', 'auth:signup.repeat'), { exact: true }).fill(password);
    await main.getByRole('button', { name: text('en', 'auth:signup.submit'), exact: true }).click();

    // The link opened in the browser that signed up verifies the address and signs it in.
    await page.goto(`${server.baseUrl}${await mailedLink(server, email, 'verify')}`);
    await main.getByRole('status').filter({ hasText: text('en', 'auth:verify.signedIn') }).waitFor();
    await main.getByRole('link', { name: text('en', 'auth:verify.start'), exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/feed');
    const token = await page.evaluate(() => localStorage.getItem('token'));
    expect(token).toBeTruthy();

    // Czech, at once on screen and remembered by the server (its emails follow).
    await page.goto(`${server.baseUrl}/account`);
    await main.getByRole('radio', { name: text('en', 'account:language.cs') }).click();
    const nav = page.getByRole('navigation', { name: text('cs', 'common:nav.label') });
    await nav.getByRole('link', { name: text('cs', 'common:nav.newPost'), exact: true }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('cs');
    await expect
      .poll(async () => (await api<{ user: { language: string } }>(server, 'POST', '/account/get', { token: token ?? '' })).body.user.language)
      .toBe('cs');

    await main.getByRole('button', { name: text('cs', 'account:logout.button'), exact: true }).click();
    await expect.poll(() => page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await nav.getByRole('link', { name: text('cs', 'common:nav.login'), exact: true }).waitFor();

    // Forgotten password, in the language the person now uses.
    await page.goto(`${server.baseUrl}/login`);
    await main.getByRole('button', { name: text('cs', 'auth:login.forgot'), exact: true }).click();
    await main.getByLabel(text('cs', 'auth:forgot.email'), { exact: true }).fill(email);
    await main.getByRole('button', { name: text('cs', 'auth:forgot.submit'), exact: true }).click();
    await main.getByText(text('cs', 'info:password_reset_sent')).waitFor();
    const link = await mailedLink(server, email, 'reset');
    expect(mailsTo(server, email)).toHaveLength(2);

    await page.goto(`${server.baseUrl}${link}`);
    await main.getByRole('heading', { name: text('cs', 'auth:reset.title') }).waitFor();
    await main.getByLabel(text('cs', 'auth:reset.password'), { exact: true }).fill(newPassword);
    await main.getByLabel(text('cs', 'auth:reset.repeat'), { exact: true }).fill(newPassword);
    await main.getByRole('button', { name: text('cs', 'auth:reset.submit'), exact: true }).click();
    await main.getByText(text('cs', 'info:password_changed')).waitFor();

    // The old password no longer opens the account; the new one does.
    expect((await api(server, 'POST', '/auth/login', { body: { username, password } })).status).toBe(400);
    await page.goto(`${server.baseUrl}/login`);
    await main.getByLabel(text('cs', 'auth:login.identifier'), { exact: true }).fill(username);
    await main.getByLabel(text('cs', 'auth:login.password'), { exact: true }).fill(newPassword);
    await main.getByRole('button', { name: text('cs', 'auth:login.submit'), exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/feed');
    expect(await page.evaluate(() => localStorage.getItem('username'))).toBe(username);
    expect(e2e.journey.log.pageErrors).toEqual([]);
  });
});
