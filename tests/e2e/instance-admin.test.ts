import type { BrowserContext } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { runAdminCommand } from '../../server/src/modules/reports/admin';
import { text } from './support/journeys';
import { type TestUser, api, createVerifiedUser, uniqueName } from './support/server';
import { useE2eSuite } from './support/suite';
import { VIEWPORTS } from './support/world';

type Language = 'en' | 'cs';
const RUNS = [
  { viewport: 'phone', lng: 'en' },
  { viewport: 'desktop', lng: 'cs' },
] as const;
const query = (lng: Language) => (lng === 'cs' ? '?lng=cs' : '');

/**
 * Administering the instance in the built app, on a phone and a desktop, in English and Czech: a
 * moderator sets the instance's name, description, text, rules and address, which a visitor then
 * reads on /about and must accept at sign-up; and a moderator finds an account under People and
 * suspends it.
 */
describe('administering the instance', () => {
  const e2e = useE2eSuite();
  const contexts: BrowserContext[] = [];
  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close();
  });

  async function moderator(): Promise<TestUser> {
    const mod = await createVerifiedUser(e2e.server);
    await runAdminCommand(e2e.server.app.db, { grant: mod.username });
    return mod;
  }

  async function visitor(viewport: keyof typeof VIEWPORTS) {
    const context = await e2e.browser.newContext({ viewport: VIEWPORTS[viewport] });
    contexts.push(context);
    return context.newPage();
  }

  for (const { viewport, lng } of RUNS) {
    const t = (id: string, values?: Record<string, string | number>) => text(lng, id, values);

    it(`sets the instance's settings, shown on /about and at sign-up, which asks to accept the rules (${viewport}, ${lng})`, async () => {
      const { server } = e2e;
      const mod = await moderator();
      const name = uniqueName('Circle');
      const rules = [`Be kind ${lng}.`, 'No spam, no ads.'];

      const page = await e2e.visit(`/moderation/instance${query(lng)}`, { as: mod, viewport: VIEWPORTS[viewport] });
      const main = page.getByRole('main');
      await main.getByRole('heading', { name: t('instance:settings.title') }).waitFor();
      await main.getByLabel(t('instance:settings.name'), { exact: true }).fill(name);
      await main.getByLabel(t('instance:settings.description'), { exact: true }).fill('A small circle of friends');
      await main.getByLabel(t('instance:settings.about'), { exact: true }).fill('We meet on Thursdays.\n\nBring tea.');
      await main.getByLabel(t('instance:settings.rules'), { exact: true }).fill(rules.join('\n'));
      await main.getByLabel(t('instance:settings.contact'), { exact: true }).fill('Admin@Circle.Example');
      await main.getByRole('button', { name: t('instance:settings.save'), exact: true }).click();
      await page.getByText(t('info:instance_updated')).first().waitFor();
      const stored = await api<{ name: string; rules: string[]; contact: string }>(server, 'GET', '/instance');
      expect(stored.body).toMatchObject({ name, rules, contact: 'admin@circle.example' });

      // A visitor reads it on /about, titled by the instance's name.
      const about = await visitor(viewport);
      await about.goto(`${server.baseUrl}/about${query(lng)}`);
      const aboutMain = about.getByRole('main');
      await aboutMain.getByRole('heading', { level: 1, name: t('instance:about.title', { name }) }).waitFor();
      await expect.poll(() => about.title()).toContain(t('instance:about.title', { name }));
      await aboutMain.getByText('A small circle of friends').waitFor();
      await aboutMain.getByText('Bring tea.').waitFor();
      const listed = aboutMain.getByRole('region', { name: t('instance:about.rules') }).getByRole('listitem');
      expect(await listed.allTextContents()).toEqual(rules);
      expect(await aboutMain.getByRole('link', { name: 'admin@circle.example' }).getAttribute('href')).toBe('mailto:admin@circle.example');

      // The sign-up shows the rules and will not go without their acceptance.
      await about.goto(`${server.baseUrl}/signup${query(lng)}`);
      const form = about.getByRole('main');
      const box = form.getByRole('group', { name: t('instance:signup.rules_title', { name }) });
      await box.waitFor();
      expect(await box.getByRole('listitem').allTextContents()).toEqual(rules);
      const username = uniqueName(`join${lng}`);
      await form.getByLabel(t('auth:signup.username'), { exact: true }).fill(username);
      await form.getByLabel(t('auth:signup.email'), { exact: true }).fill(`${username}@example.com`);
      await form.getByLabel(t('auth:signup.password'), { exact: true }).fill('Kruh!2026pass');
      await form.getByLabel(t('auth:signup.repeat'), { exact: true }).fill('Kruh!2026pass');
      await form.getByRole('button', { name: t('auth:signup.submit'), exact: true }).click();
      await box.getByText(t('error:rules_not_accepted')).waitFor();
      await box.getByRole('checkbox', { name: t('instance:signup.accept') }).check();
      await form.getByRole('button', { name: t('auth:signup.submit'), exact: true }).click();
      await form.getByRole('status').filter({ hasText: t('info:signup_email') }).waitFor();
      const made = await server.app.db.selectFrom('users').select('role').where('username', '=', username).executeTakeFirst();
      expect(made).toEqual({ role: 'user' });

      // The rules go: the sign-up asks nothing again.
      const cleared = await api(server, 'PUT', '/instance', { token: mod.token, body: { name: '', description: '', about: '', rules: [], contact: '' } });
      expect(cleared.status).toBe(200);
      expect(e2e.journey.log.pageErrors).toEqual([]);
    });

    // The other size in the same language, so each flow runs at both sizes and in both languages.
    const size = viewport === 'phone' ? 'desktop' : 'phone';
    it(`finds an account under People and suspends it (${size}, ${lng})`, async () => {
      const { server } = e2e;
      const mod = await moderator();
      const target = await createVerifiedUser(server, { username: uniqueName('Quirin') });
      const bystander = await createVerifiedUser(server, { username: uniqueName('Bystander') });

      const page = await e2e.visit(`/moderation${query(lng)}`, { as: mod, viewport: VIEWPORTS[size] });
      const main = page.getByRole('main');
      await main.getByRole('link', { name: t('instance:people.link'), exact: true }).click();
      await main.getByRole('heading', { name: t('instance:people.title') }).waitFor();
      await main.getByLabel(t('instance:people.search'), { exact: true }).fill(target.username.slice(0, 9).toUpperCase());
      const list = main.getByRole('list', { name: t('instance:people.list') });
      const row = list.getByRole('listitem').filter({ hasText: target.username });
      await row.waitFor();
      await expect.poll(() => list.getByRole('listitem').filter({ hasText: bystander.username }).count()).toBe(0);
      await row.getByText(target.email).waitFor();

      await row.getByRole('button', { name: t('instance:people.suspend', { username: target.username }), exact: true }).click();
      const dialog = page.getByRole('alertdialog');
      await dialog.getByRole('button', { name: t('instance:people.suspend', { username: target.username }), exact: true }).click();
      await row.getByText(t('instance:people.badge.suspended'), { exact: true }).waitFor();
      await row.getByRole('button', { name: t('instance:people.unsuspend', { username: target.username }), exact: true }).waitFor();
      const login = await api(server, 'POST', '/auth/login', { body: { username: target.username, password: target.password } });
      expect(login.body).toEqual({ message: 'error/account_suspended' });

      // The suspended are listed under their standing.
      await main.getByLabel(t('instance:people.search'), { exact: true }).fill('');
      await main.getByLabel(t('instance:people.state'), { exact: true }).selectOption('suspended');
      await list.getByRole('listitem').filter({ hasText: target.username }).waitFor();
      await expect.poll(() => list.getByRole('listitem').filter({ hasText: bystander.username }).count()).toBe(0);
      expect(e2e.journey.log.pageErrors).toEqual([]);
    });
  }
});
