import { beforeAll, describe, expect, it } from 'vitest';
import { consoleCaughtUp, waitForServiceWorker } from './support/browser';
import { outboxSize } from './support/outbox';
import { type TestUser, api, createVerifiedUser } from './support/server';
import { useE2eSuite } from './support/suite';

/** What a cold start says on the console: nothing but real trouble. */
describe('console on a cold start', () => {
  const e2e = useE2eSuite();
  let user: TestUser;

  beforeAll(async () => {
    user = await createVerifiedUser(e2e.server);
  });

  const complaints = (lines: string[]) => lines.filter((line) => /\] (error|warning): /.test(line) && !/Failed to load resource/.test(line));

  it('warns of no missing hydration fallback when a screen is opened by its own link', async () => {
    for (const path of ['/feed', `/u/${user.username}`, '/search']) {
      const page = await e2e.visit(path, { as: user });
      // The warning would come from the router's first render, before the screen is drawn.
      await page.locator('#main h1, #main article, #main input').first().waitFor();
      await consoleCaughtUp(page);
      expect(e2e.journey.log.lines.filter((line) => /HydrateFallback/.test(line))).toEqual([]);
      await e2e.journey.context.close();
    }
  });

  it('logs no outbox error when the stored session is no longer valid, and waits for a new login', async () => {
    const text = `Liked while the session lapses ${Date.now()}`;
    expect((await api(e2e.server, 'POST', '/post', { token: user.token, body: { text } })).status).toBe(201);
    const page = await e2e.visit('/feed', { as: user });
    await waitForServiceWorker(page);
    const card = page.getByRole('main').getByRole('article').filter({ hasText: text });
    await card.getByRole('button', { name: 'Like', exact: true }).waitFor();
    // A like waits offline; meanwhile the session stops being valid.
    await e2e.journey.context.setOffline(true);
    await card.getByRole('button', { name: 'Like', exact: true }).click();
    await expect.poll(() => outboxSize(page, user.id)).toBe(1);
    // The password changed on another device: every earlier session ends.
    const changed = await api(e2e.server, 'PATCH', '/account/changepassword', {
      token: user.token,
      body: { oldPassword: user.password, newPassword: 'N3w!password' },
    });
    expect(changed.status).toBe(200);
    await e2e.journey.context.setOffline(false);
    // What the service worker says counts too: Background Sync runs the same outbox there.
    for (const worker of e2e.journey.context.serviceWorkers()) {
      worker.on('console', (message) => e2e.journey.log.lines.push(`[worker] ${message.type()}: ${message.text()}`));
    }
    await page.reload();
    await page.locator('#main').waitFor();
    // A screen that checks the session finds it refused: the shell offers a new login.
    await page.goto(`${e2e.server.baseUrl}/notifications`);
    const main = page.getByRole('main');
    await main.getByRole('status').filter({ hasText: 'Your session has ended.' }).getByRole('link', { name: 'Log in', exact: true }).click();
    await main.getByLabel('Username or email', { exact: true }).waitFor();
    // Kept for the next login.
    expect(await outboxSize(page, user.id)).toBe(1);
    expect(complaints(e2e.journey.log.lines).filter((line) => /outbox/i.test(line))).toEqual([]);

    await main.getByLabel('Username or email', { exact: true }).fill(user.username);
    await main.getByLabel('Password', { exact: true }).fill('N3w!password');
    await main.getByRole('button', { name: 'Log in', exact: true }).click();
    await expect.poll(() => outboxSize(page, user.id), { timeout: 15_000 }).toBe(0);
    expect(complaints(e2e.journey.log.lines).filter((line) => /outbox/i.test(line))).toEqual([]);
  });
});
