import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { NOTIFICATION_SETTINGS } from '#core/limits';
import { readZip } from '../../../server/tests/helpers/zip';
import { JOURNEY_VIEWPORT, text } from '../support/journeys';
import { type TestUser, api, createVerifiedUser, mailedLink, uniqueName } from '../support/server';
import { useE2eSuite } from '../support/suite';

interface Account {
  username: string;
  email: string;
  bio: string;
  pfpUrl: string;
  /** One switch per NOTIFICATION_SETTINGS entry, in its order. */
  notifications: boolean[];
}

/**
 * Everything a person changes about their account: picture, bio, username, email (confirmed from
 * the mail to the new address), notification settings, a new password that ends the session,
 * then their data downloaded as a zip, and finally the account's deletion with the password.
 */
describe('journey: an account changed in every way, then deleted', () => {
  const e2e = useE2eSuite();
  it('changes picture, bio, username, email, settings and password, then deletes the account', async () => {
    const { server } = e2e;
    // Made here, not once for the file: a second try starts from an account the first did not change.
    const lea: TestUser = await createVerifiedUser(server);
    const en = (id: string, values?: Record<string, string | number>) => text('en', id, values);
    let token = lea.token;
    const account = async () => (await api<{ user: Account }>(server, 'POST', '/account/get', { token })).body.user;
    const before = await account();

    const page = await e2e.visit('/account', { as: lea, viewport: JOURNEY_VIEWPORT });
    const main = page.getByRole('main');
    const logIn = async (identifier: string, password: string) => {
      await page.goto(`${server.baseUrl}/login`);
      await main.getByLabel(en('auth:login.identifier'), { exact: true }).fill(identifier);
      await main.getByLabel(en('auth:login.password'), { exact: true }).fill(password);
      await main.getByRole('button', { name: en('auth:login.submit'), exact: true }).click();
      await page.waitForURL((url) => url.pathname === '/feed');
      token = (await page.evaluate(() => localStorage.getItem('token'))) ?? '';
    };

    // Picture and bio.
    const picture = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#8e44ad' } }).png().toBuffer();
    await main.getByTestId('pfp-input').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: picture });
    await main.getByText(en('account:pfp.uploaded')).waitFor();
    await expect.poll(async () => (await account()).pfpUrl).not.toBe(before.pfpUrl);
    await main.getByRole('textbox', { name: en('account:bio.label') }).fill('Beekeeper. Mostly outdoors.');
    await main.getByRole('button', { name: en('account:bio.update'), exact: true }).click();
    await expect.poll(async () => (await account()).bio).toBe('Beekeeper. Mostly outdoors.');

    // Username and email, each from its own form.
    const newName = uniqueName('leabees');
    const newEmail = `${newName}@example.org`;
    await page.goto(`${server.baseUrl}/account/credentials`);
    const nameForm = main.getByRole('form', { name: en('account:credentials.username.title') });
    await nameForm.getByLabel(en('account:credentials.username.label')).fill(newName);
    await nameForm.getByRole('button', { name: en('account:credentials.save'), exact: true }).click();
    await expect.poll(async () => (await account()).username).toBe(newName);
    await expect.poll(() => page.evaluate(() => localStorage.getItem('username'))).toBe(newName);

    const emailForm = main.getByRole('form', { name: en('account:credentials.email.title') });
    await emailForm.getByLabel(en('account:credentials.email.label'), { exact: true }).fill(newEmail);
    await emailForm.getByLabel(en('account:credentials.email.password'), { exact: true }).fill(lea.password);
    await emailForm.getByRole('button', { name: en('account:credentials.save'), exact: true }).click();
    const confirm = await mailedLink(server, newEmail, 'verify');
    // Not changed until the new address is confirmed.
    expect((await account()).email).toBe(lea.email);
    await page.goto(`${server.baseUrl}${confirm}`);
    await main.getByRole('status').filter({ hasText: en('info:email_verified') }).waitFor();
    await expect.poll(async () => (await account()).email).toBe(newEmail);
    // A confirmed link ends the session on this device, as after sign-up: back in by the new address.
    await expect.poll(() => page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await logIn(newEmail, lea.password);

    // Notification settings.
    await page.goto(`${server.baseUrl}/account/notification-settings`);
    await main.getByRole('switch', { name: en('account:settings.follower') }).click();
    await expect.poll(async () => (await account()).notifications[NOTIFICATION_SETTINGS.indexOf('follower')]).toBe(false);

    // A new password ends this session: the app goes back to the login page.
    const newPassword = 'Kruh!2026bees';
    await page.goto(`${server.baseUrl}/account/credentials`);
    const passwordForm = main.getByRole('form', { name: en('account:credentials.password.title') });
    await passwordForm.getByLabel(en('account:credentials.password.old'), { exact: true }).fill(lea.password);
    await passwordForm.getByLabel(en('account:credentials.password.new'), { exact: true }).fill(newPassword);
    await passwordForm.getByLabel(en('account:credentials.password.repeat'), { exact: true }).fill(newPassword);
    await passwordForm.getByRole('button', { name: en('account:credentials.save'), exact: true }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/login'));
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    expect((await api(server, 'POST', '/auth/test', { token })).status).toBe(401);

    // Back in with the new password: the data is taken away as a zip, then the account is deleted.
    await logIn(newName, newPassword);
    await page.goto(`${server.baseUrl}/account`);
    const saving = page.waitForEvent('download');
    await main.getByRole('button', { name: en('account:export.button'), exact: true }).click();
    const download = await saving;
    expect(download.suggestedFilename()).toMatch(new RegExp(`^kruh-${newName}-\\d{4}-\\d{2}-\\d{2}\\.zip$`));
    await main.getByText(en('account:export.done')).waitFor();
    const exported = await readZip(await readFile(await download.path()));
    expect(JSON.parse(exported.get('account.json')!.toString('utf8'))).toMatchObject({ username: newName, email: newEmail, bio: 'Beekeeper. Mostly outdoors.' });
    expect(exported.has('images/avatar.jpeg')).toBe(true);
    await main.getByRole('button', { name: en('account:delete.button'), exact: true }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText(`${en('common:conf.delete')} ${en('common:conf.item.account')}?`).waitFor();
    await dialog.getByLabel(en('account:delete.password'), { exact: true }).fill(newPassword);
    await dialog.getByRole('button', { name: en('account:delete.confirm'), exact: true }).click();
    await page.getByRole('heading', { name: en('account:deleted.title'), exact: true }).waitFor();
    await expect.poll(() => page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    expect((await api(server, 'POST', '/auth/login', { body: { username: newName, password: newPassword } })).status).toBe(400);
    expect((await api(server, 'GET', `/profile/user/${newName}`)).status).toBe(404);
    expect(e2e.journey.log.pageErrors).toEqual([]);
  });
});
