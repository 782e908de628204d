import { describe, expect, it } from 'vitest';
import { mailsTo, uniqueName, verificationLink } from './support/server';
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

      await page.goto(`${server.baseUrl}${link}`);
      await main.getByRole('status').filter({ hasText: L.verified }).waitFor();
      await main.getByRole('link', { name: L.toLogin, exact: true }).click();

      await main.getByRole('heading', { name: L.loginTitle }).waitFor();
      await main.getByLabel(L.identifier, { exact: true }).fill(username);
      await main.getByLabel(L.password, { exact: true }).fill(`${password}x`);
      await main.getByRole('button', { name: L.login, exact: true }).click();
      await main.getByRole('alert').filter({ hasText: L.wrongPassword }).waitFor();
      expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();

      await main.getByLabel(L.password, { exact: true }).fill(password);
      await main.getByRole('button', { name: L.login, exact: true }).click();

      const nav = page.getByRole('navigation', { name: L.nav });
      await nav.getByRole('link', { name: L.newPost, exact: true }).waitFor();
      await nav.getByRole('link', { name: username, exact: true }).waitFor();
      await page.waitForURL((url) => url.pathname === '/feed');
      expect(await page.evaluate(() => localStorage.getItem('username'))).toBe(username);
      expect(e2e.journey.log.pageErrors).toEqual([]);
    });
  }
});
