import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand } from '../../server/src/modules/reports/admin';
import { text } from './support/journeys';
import { type TestServer, type TestUser, api, createVerifiedUser, mailsTo, uniqueName, verificationLink } from './support/server';
import { useE2eSuite } from './support/suite';
import { VIEWPORTS } from './support/world';

/** Each flow once on a phone in English and once on a desktop in Czech. */
const RUNS = [
  { lng: 'en', size: 'phone' },
  { lng: 'cs', size: 'desktop' },
] as const;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A moderator who speaks `lng`, made while sign-ups are open. */
async function makeModerator(server: TestServer, lng: 'en' | 'cs'): Promise<TestUser> {
  const mod = await createVerifiedUser(server, { language: lng });
  await runAdminCommand(server.app.db, { grant: mod.username });
  return mod;
}

/** Sign-ups open again, whatever an earlier test left. */
async function reopen(server: TestServer, mod: TestUser): Promise<void> {
  const reset = await api(server, 'PUT', '/registration', { token: mod.token, body: { mode: 'open', membersInvite: false } });
  expect(reset.status).toBe(200);
}

/** The moderator chooses a mode on the moderation page and saves it. */
async function chooseMode(page: Page, lng: 'en' | 'cs', mode: 'approval' | 'invitation') {
  const t = (id: string, values?: Record<string, string | number>) => text(lng, id, values);
  const section = page.getByRole('region', { name: t('moderation:registration.title') });
  await section.getByRole('radio', { name: new RegExp(`^${escape(t(`moderation:registration.mode.${mode}`))}`) }).check();
  await section.getByRole('button', { name: t('moderation:registration.save'), exact: true }).click();
  await page.getByText(t('info:registration_updated')).first().waitFor();
}

/** Fills the sign-up form's account fields. */
async function fillAccount(main: ReturnType<Page['getByRole']>, lng: 'en' | 'cs', who: { username: string; email: string; password: string }) {
  const t = (id: string) => text(lng, id);
  await main.getByLabel(t('auth:signup.username'), { exact: true }).fill(who.username);
  await main.getByLabel(t('auth:signup.email'), { exact: true }).fill(who.email);
  await main.getByLabel(t('auth:signup.password'), { exact: true }).fill(who.password);
  await main.getByLabel(t('auth:signup.repeat'), { exact: true }).fill(who.password);
}

describe('registration by approval and by invitation', () => {
  const e2e = useE2eSuite();
  const contexts: BrowserContext[] = [];
  const moderators = {} as Record<'en' | 'cs', TestUser>;
  beforeAll(async () => {
    moderators.en = await makeModerator(e2e.server, 'en');
    moderators.cs = await makeModerator(e2e.server, 'cs');
  });
  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close();
  });

  /** A visitor's page of its own, at the run's size. */
  async function visitorPage(size: keyof typeof VIEWPORTS): Promise<Page> {
    const context = await e2e.browser.newContext({ viewport: VIEWPORTS[size] });
    contexts.push(context);
    return context.newPage();
  }

  for (const { lng, size } of RUNS) {
    const t = (id: string, values?: Record<string, string | number>) => text(lng, id, values);
    const query = lng === 'cs' ? '?lng=cs' : '';

    it(`a moderator switches to approval, an applicant gives a reason, the moderator approves (${lng}, ${size})`, async () => {
      const { server } = e2e;
      const mod = moderators[lng];
      await reopen(server, mod);
      const page = await e2e.visit(`/moderation${query}`, { as: mod, viewport: VIEWPORTS[size] });
      await chooseMode(page, lng, 'approval');
      await expect.poll(async () => (await api<{ mode: string }>(server, 'GET', '/registration')).body.mode).toBe('approval');

      // The applicant signs up with a reason, and confirms the address.
      const username = uniqueName(`app${lng}`);
      const applicant = { username, email: `${username}@example.com`, password: 'Kruh!2026pass' };
      const reason = lng === 'cs' ? 'Zpívám ve sboru a chci sdílet koncerty.' : 'I sing in the choir and would like to share our concerts.';
      const signup = await visitorPage(size);
      await signup.goto(`${server.baseUrl}/signup${query}`);
      const form = signup.getByRole('main');
      await form.getByText(t('auth:signup.approvalLead')).waitFor();
      await fillAccount(form, lng, applicant);
      await form.getByRole('button', { name: t('auth:signup.submit'), exact: true }).click();
      await form.getByText(t('error:registration_reason_required')).waitFor();
      await form.getByLabel(t('auth:signup.reason'), { exact: true }).fill(reason);
      await form.getByRole('button', { name: t('auth:signup.submit'), exact: true }).click();
      await form.getByRole('status').filter({ hasText: t('info:signup_application') }).waitFor();
      const verify = new URL(await verificationLink(server, applicant.email), server.baseUrl);
      expect((await api(server, 'GET', `/auth/verify?${verify.searchParams.toString()}`)).status).toBe(200);

      // Not yet approved: the login says it waits.
      await signup.goto(`${server.baseUrl}/login`);
      await form.getByLabel(t('auth:login.identifier'), { exact: true }).fill(username);
      await form.getByLabel(t('auth:login.password'), { exact: true }).fill(applicant.password);
      await form.getByRole('button', { name: t('auth:login.submit'), exact: true }).click();
      await form.getByRole('alert').filter({ hasText: t('error:registration_pending') }).waitFor();

      // The moderator finds the application with its reason and approves it.
      await page.reload();
      const applications = page.getByRole('region', { name: t('moderation:applications.title') });
      await applications.getByText(reason).waitFor();
      await applications.getByRole('button', { name: t('moderation:applications.approve_named', { username }), exact: true }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: t('moderation:applications.approve_named', { username }), exact: true }).click();
      await applications.getByText(t('moderation:applications.empty')).waitFor();

      // The applicant is told by mail in their language, and now signs in.
      const approved = lng === 'cs' ? 'Váš účet v Kruhu je schválen' : 'Your Kruh account is approved';
      await expect.poll(() => mailsTo(server, applicant.email).map((m) => m.subject), { timeout: 10_000 }).toContain(approved);
      await form.getByRole('button', { name: t('auth:login.submit'), exact: true }).click();
      await signup.waitForURL((url) => url.pathname === '/feed');
      expect(e2e.journey.log.pageErrors).toEqual([]);
    });

    it(`a moderator makes an invite link, a newcomer signs up with it, and the moderator revokes it (${lng}, ${size})`, async () => {
      const { server } = e2e;
      const mod = moderators[lng];
      await reopen(server, mod);
      const page = await e2e.visit(`/moderation${query}`, { as: mod, viewport: VIEWPORTS[size] });
      await chooseMode(page, lng, 'invitation');

      // Closed to anyone without a link: the plain sign-up asks for one.
      const visitor = await visitorPage(size);
      await visitor.goto(`${server.baseUrl}/signup${query}`);
      const form = visitor.getByRole('main');
      await form.getByLabel(t('auth:signup.invite'), { exact: true }).waitFor();

      const invites = page.getByRole('region', { name: t('moderation:invites.title') });
      await invites.getByLabel(t('moderation:invites.max_uses'), { exact: true }).fill('1');
      await invites.getByRole('button', { name: t('moderation:invites.create'), exact: true }).click();
      const linkField = invites.getByLabel(t('moderation:invites.link'), { exact: true });
      await linkField.waitFor();
      const link = new URL(await linkField.inputValue());
      expect(link.pathname).toBe('/signup');
      const code = link.searchParams.get('invite') ?? '';
      expect(code).not.toBe('');

      // The newcomer opens the link: the code is filled in, and the sign-up goes through.
      const username = uniqueName(`inv${lng}`);
      const newcomer = { username, email: `${username}@example.com`, password: 'Kruh!2026pass' };
      await visitor.goto(`${server.baseUrl}/signup?invite=${encodeURIComponent(code)}${lng === 'cs' ? '&lng=cs' : ''}`);
      await expect.poll(() => form.getByLabel(t('auth:signup.invite'), { exact: true }).inputValue()).toBe(code);
      await fillAccount(form, lng, newcomer);
      await form.getByRole('button', { name: t('auth:signup.submit'), exact: true }).click();
      await form.getByRole('status').filter({ hasText: t('info:signup_email') }).waitFor();
      await verificationLink(server, newcomer.email);

      // The link has been used; the moderator sees it, and revokes it.
      await page.reload();
      await invites.getByText(t('moderation:invites.uses', { uses: 1, max: 1 })).waitFor();
      await invites.getByRole('button', { name: t('moderation:invites.revoke_named', { link: link.toString() }), exact: true }).click();
      await invites.getByText(t('moderation:invites.empty')).waitFor();
      const again = await api(server, 'POST', '/auth/signup', { body: { username: uniqueName('late'), email: 'late@example.com', password: 'Kruh!2026pass', invite: code } });
      expect(again.body).toEqual({ message: 'error/invalid_invite' });
      expect(e2e.journey.log.pageErrors).toEqual([]);
    });
  }
});
