import type { BrowserContext } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { waitForServiceWorker } from '../support/browser';
import { runAdminCommand } from '../../../server/src/modules/reports/admin';
import { JOURNEY_VIEWPORT, text } from '../support/journeys';
import { outboxSize } from '../support/outbox';
import { api, createVerifiedUser, sessionStorageState, uniqueName } from '../support/server';
import { useE2eSuite } from '../support/suite';

const en = (id: string, values?: Record<string, string | number>) => text('en', id, values);

/**
 * A reader meets a spammer on the train: offline, she reports his post and blocks him, and the
 * post leaves her feed at once; back online, both reach the server once. A moderator finds the
 * report with its reason and suspends the account: he can no longer sign in, and his post is gone
 * for everyone.
 */
describe('journey: report and block offline, then a moderator suspends the spammer', () => {
  const e2e = useE2eSuite();
  const contexts: BrowserContext[] = [];
  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close();
  });

  it('queues the report and the block offline, sends each once, and the moderator acts on the report', async () => {
    const { server } = e2e;
    // Made inside the test, so a second try starts from fresh people and words.
    const ava = await createVerifiedUser(server);
    const rex = await createVerifiedUser(server);
    const mia = await createVerifiedUser(server);
    await runAdminCommand(server.app.db, { grant: mia.username });
    const words = `Cheap followers, click the link now (${uniqueName('try')})`;
    const spam = await api<{ _id: string }>(server, 'POST', '/post', { token: rex.token, body: { text: words } });
    expect(spam.status).toBe(201);
    const reason = 'Spam: he sells followers under every post';

    const page = await e2e.visit('/feed', { as: ava, viewport: JOURNEY_VIEWPORT });
    const main = page.getByRole('main');
    const card = main.locator(`article[data-post-id="${spam.body._id}"]`).first();
    await card.getByText(words).waitFor();
    // Her app is stored on the phone: its service worker hands out the menu's code offline too.
    await waitForServiceWorker(page);

    // Offline: the report waits in the outbox, and says so.
    await e2e.journey.context.setOffline(true);
    await card.getByRole('button', { name: en('post:menu'), exact: true }).click();
    await page.getByRole('menuitem', { name: en('moderation:report.post'), exact: true }).click();
    const dialog = page.getByRole('dialog', { name: en('moderation:report.title.post') });
    await dialog.getByRole('textbox', { name: en('moderation:report.reason') }).fill(reason);
    await dialog.getByRole('button', { name: en('moderation:report.send'), exact: true }).click();
    await page.getByText(en('moderation:report.queued')).first().waitFor();

    // Still offline, she blocks him: after the confirmation his post leaves her feed at once.
    await card.getByRole('button', { name: en('post:menu'), exact: true }).click();
    await page.getByRole('menuitem', { name: en('safety:block_user', { username: rex.username }), exact: true }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: en('safety:block_user', { username: rex.username }), exact: true }).click();
    await expect.poll(() => main.locator(`article[data-post-id="${spam.body._id}"]`).count()).toBe(0);
    expect(await outboxSize(page, ava.id)).toBe(2);

    // Online again: each is sent, once.
    await e2e.journey.context.setOffline(false);
    await expect.poll(() => outboxSize(page, ava.id), { timeout: 30_000 }).toBe(0);
    const relation = await api<{ blocking: boolean }>(server, 'GET', `/block/${rex.id}`, { token: ava.token });
    expect(relation.body.blocking).toBe(true);
    expect((await api(server, 'GET', `/post/${spam.body._id}`, { token: ava.token })).status).toBe(404);

    // The moderator finds the report with its reason and suspends the author.
    const context = await e2e.browser.newContext({ viewport: JOURNEY_VIEWPORT, storageState: sessionStorageState(server, mia) });
    contexts.push(context);
    const moderator = await context.newPage();
    await moderator.goto(`${server.baseUrl}/account`);
    await moderator.getByRole('main').getByRole('link', { name: en('moderation:link'), exact: true }).click();
    const queue = moderator.getByRole('main');
    await queue.getByText(reason).waitFor();
    await queue.getByRole('button', { name: en('moderation:action.suspend', { username: rex.username }), exact: true }).click();
    await moderator.getByRole('alertdialog').getByRole('button', { name: en('moderation:confirm_action.suspend', { username: rex.username }), exact: true }).click();
    await queue.getByText(en('moderation:log.suspend', { actor: mia.username })).first().waitFor();

    // He cannot sign in, and his post is gone for everyone, visitors included.
    const login = await api(server, 'POST', '/auth/login', { body: { username: rex.username, password: rex.password } });
    expect(login.body).toEqual({ message: 'error/account_suspended' });
    expect((await api(server, 'GET', `/post/${spam.body._id}`)).status).toBe(404);
    expect(e2e.journey.log.pageErrors).toEqual([]);
  });
});
