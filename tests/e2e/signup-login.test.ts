import { describe, expect, it } from 'vitest';
import { api, createVerifiedUser, mailedLink, mailsTo, uniqueName, verificationLink } from './support/server';
import { blockingViolations } from './support/accessibility';
import { JOURNEY_VIEWPORT, text } from './support/journeys';
import { useE2eSuite } from './support/suite';

/** The texts a person sees, per language (locales/<lng>/*.json), written out so a wrong language fails. */
const LANGUAGES = [
  {
    lng: 'en',
    query: '',
    signupTitle: 'Create your account',
    username: 'Username',
    email: 'Email',
    password: 'Password',
    repeat: 'Password again',
    signup: 'Sign up',
    signupSent: 'Almost done! We sent you an email to verify your address.',
    sentTo: 'We sent it to',
    resend: 'Send it again',
    resent: 'If this address is waiting to be verified, we sent it a new link.',
    mailSubject: 'Confirm your email address for Kruh',
    verified: 'Your email is verified. You can log in now.',
    toLogin: 'Log in',
    loginTitle: 'Log in to Kruh',
    identifier: 'Username or email',
    login: 'Log in',
    wrongPassword: 'Wrong username, email or password.',
    nav: 'Main navigation',
    newPost: 'New post',
  },
  {
    lng: 'cs',
    query: '?lng=cs',
    signupTitle: 'Vytvořte si účet',
    username: 'Uživatelské jméno',
    email: 'E-mail',
    password: 'Heslo',
    repeat: 'Heslo znovu',
    signup: 'Zaregistrovat se',
    signupSent: 'Skoro hotovo! Poslali jsme vám e-mail k ověření adresy.',
    sentTo: 'Poslali jsme ho na',
    resend: 'Poslat znovu',
    resent: 'Pokud tato adresa čeká na ověření, poslali jsme na ni nový odkaz.',
    mailSubject: 'Potvrďte svou e-mailovou adresu pro Kruh',
    verified: 'Váš e-mail je ověřený. Teď se můžete přihlásit.',
    toLogin: 'Přihlásit se',
    loginTitle: 'Přihlášení do Kruhu',
    identifier: 'Uživatelské jméno nebo e-mail',
    login: 'Přihlásit se',
    wrongPassword: 'Nesprávné uživatelské jméno, e-mail nebo heslo.',
    nav: 'Hlavní navigace',
    newPost: 'Napsat',
  },
] as const;

/**
 * Sign-up to feed in the built app, in English and in Czech: the form, the
 * emailed link, the verified message, a refused password, then a login that lands on the feed.
 */
describe('sign-up, verification and login', () => {
  const e2e = useE2eSuite();

  for (const L of LANGUAGES) {
    it(`signs up, verifies the email and logs in (${L.lng})`, async () => {
      const { server } = e2e;
      const username = uniqueName(`new${L.lng}`);
      const email = `${username}@example.com`;
      const password = 'Kruh!2026pass';

      const page = await e2e.visit(`/signup${L.query}`);
      const { context } = e2e.journey;
      const main = page.getByRole('main');
      await main.getByRole('heading', { name: L.signupTitle }).waitFor();
      expect((await page.evaluate(() => document.documentElement.lang)).slice(0, 2)).toBe(L.lng);

      await main.getByLabel(L.username, { exact: true }).fill(username);
      await main.getByLabel(L.email, { exact: true }).fill(email);
      await main.getByLabel(L.password, { exact: true }).fill(password);
      await main.getByLabel(L.repeat, { exact: true }).fill(password);
      await main.getByRole('button', { name: L.signup, exact: true }).click();
      await main.getByRole('status').filter({ hasText: L.signupSent }).waitFor();

      // The email went out in the language the form was used in.
      await verificationLink(server, email);
      expect(mailsTo(server, email).map((m) => m.subject)).toEqual([L.mailSubject]);

      // "Almost done" names the address, and sends the mail again on asking; the newer link works.
      await main.getByText(`${L.sentTo} ${email}.`).waitFor();
      await main.getByRole('button', { name: L.resend, exact: true }).click();
      await main.getByRole('status').filter({ hasText: L.resent }).waitFor();
      await expect.poll(() => mailsTo(server, email).map((m) => m.subject)).toEqual([L.mailSubject, L.mailSubject]);
      const link = await verificationLink(server, email);
      expect(link).toMatch(/^\/verify\?token=[^&]+&email=/);

      // Opened on another device (a second browser), the link only verifies the address.
      await context.close();
      const { context: other } = await e2e.open();
      const page2 = await other.newPage();
      await page2.goto(`${server.baseUrl}${link}${L.query ? `&${L.query.slice(1)}` : ''}`);
      const main2 = page2.getByRole('main');
      await main2.getByRole('status').filter({ hasText: L.verified }).waitFor();
      expect(await page2.evaluate(() => localStorage.getItem('token'))).toBeNull();
      await main2.getByRole('link', { name: L.toLogin, exact: true }).click();

      await main2.getByRole('heading', { name: L.loginTitle }).waitFor();
      await main2.getByLabel(L.identifier, { exact: true }).fill(username);
      await main2.getByLabel(L.password, { exact: true }).fill(`${password}x`);
      await main2.getByRole('button', { name: L.login, exact: true }).click();
      await main2.getByRole('alert').filter({ hasText: L.wrongPassword }).waitFor();
      expect(await page2.evaluate(() => localStorage.getItem('token'))).toBeNull();

      await main2.getByLabel(L.password, { exact: true }).fill(password);
      await main2.getByRole('button', { name: L.login, exact: true }).click();

      const nav = page2.getByRole('navigation', { name: L.nav });
      await nav.getByRole('link', { name: L.newPost, exact: true }).waitFor();
      await nav.getByRole('link', { name: username, exact: true }).waitFor();
      await page2.waitForURL((url) => url.pathname === '/feed');
      expect(await page2.evaluate(() => localStorage.getItem('username'))).toBe(username);
      expect(e2e.journey.log.pageErrors).toEqual([]);
    });
  }

  const en = (id: string) => text('en', id);

  it('signs in the browser that signed up when it opens the verification link', async () => {
    const { server } = e2e;
    const username = uniqueName('same');
    const email = `${username}@example.com`;
    const page = await e2e.visit('/signup', { viewport: JOURNEY_VIEWPORT });
    const main = page.getByRole('main');
    await main.getByLabel(en('auth:signup.username'), { exact: true }).fill(username);
    await main.getByLabel(en('auth:signup.email'), { exact: true }).fill(email);
    await main.getByLabel(en('auth:signup.password'), { exact: true }).fill('Kruh!2026pass');
    await main.getByLabel(en('auth:signup.repeat'), { exact: true }).fill('Kruh!2026pass');
    await main.getByRole('button', { name: en('auth:signup.submit'), exact: true }).click();
    const link = await verificationLink(server, email);

    // The mail is read in another tab of the same browser.
    const tab = await e2e.journey.context.newPage();
    await tab.goto(`${server.baseUrl}${link}`);
    await tab.getByRole('main').getByRole('status').filter({ hasText: en('auth:verify.signedIn') }).waitFor();
    expect(await blockingViolations(tab, 'verify-signed-in')).toEqual([]);
    await tab.getByRole('main').getByRole('link', { name: en('auth:verify.start'), exact: true }).click();
    await tab.waitForURL((url) => url.pathname === '/feed');
    await tab.getByRole('navigation', { name: en('common:nav.label') }).getByRole('link', { name: username, exact: true }).waitFor();
    const token = await tab.evaluate(() => localStorage.getItem('token'));
    expect((await api(server, 'POST', '/auth/test', { token: token ?? '' })).status).toBe(200);
    expect(e2e.journey.log.pageErrors).toEqual([]);
  });

  it('sends the verification mail again from the login with the name logged in with, asking for no address', async () => {
    const { server } = e2e;
    const username = uniqueName('wait');
    const email = `${username}@example.com`;
    expect((await api(server, 'POST', '/auth/signup', { body: { username, email, password: 'Kruh!2026pass', language: 'en' } })).status).toBe(201);
    await verificationLink(server, email);
    const page = await e2e.visit('/login', { viewport: JOURNEY_VIEWPORT });
    const main = page.getByRole('main');
    await main.getByLabel(en('auth:login.identifier'), { exact: true }).fill(username);
    await main.getByLabel(en('auth:login.password'), { exact: true }).fill('Kruh!2026pass');
    await main.getByRole('button', { name: en('auth:login.submit'), exact: true }).click();
    await main.getByRole('alert').filter({ hasText: en('error:verify_email') }).waitFor();
    const resend = main.getByRole('button', { name: en('auth:verification.resend'), exact: true });
    await resend.waitFor();
    expect(await main.getByLabel(en('auth:verification.email'), { exact: true }).count()).toBe(0);
    await resend.click();
    await main.getByRole('status').filter({ hasText: en('info:verification_sent') }).waitFor();
    await expect.poll(() => mailsTo(server, email).length).toBe(2);
    expect(e2e.journey.log.pageErrors).toEqual([]);
  });

  it('says a used reset link was used, offering a new one, and a second request within the minute that no mail went', async () => {
    const { server } = e2e;
    const user = await createVerifiedUser(server);
    expect((await api(server, 'POST', '/auth/forgot', { body: { email: user.email } })).status).toBe(200);
    const link = await mailedLink(server, user.email, 'reset');
    const query = new URL(link, server.baseUrl).searchParams;
    const used = await api(server, 'POST', '/auth/reset', { body: { token: query.get('token'), email: query.get('email'), password: 'N3w!password' } });
    expect(used.status).toBe(200);

    const page = await e2e.visit(link, { viewport: JOURNEY_VIEWPORT });
    const main = page.getByRole('main');
    await main.getByRole('alert').filter({ hasText: en('auth:reset.used') }).waitFor();
    expect(await main.getByLabel(en('auth:reset.password'), { exact: true }).count()).toBe(0);
    expect(await blockingViolations(page, 'reset-used')).toEqual([]);
    await main.getByRole('link', { name: en('auth:reset.newLink'), exact: true }).click();
    const address = main.getByLabel(en('auth:forgot.email'), { exact: true });
    await address.waitFor();
    // The address was asked for a minute ago already: no mail goes, and the page says so.
    expect(await address.inputValue()).toBe(user.email);
    await main.getByRole('button', { name: en('auth:forgot.submit'), exact: true }).click();
    await main.getByText(en('error:reset_wait')).waitFor();
    expect(await main.getByText(en('info:password_reset_sent')).count()).toBe(0);
    expect(mailsTo(server, user.email).filter((m) => /reset/i.test(m.subject))).toHaveLength(1);
    expect(e2e.journey.log.pageErrors).toEqual([]);
  });
});
