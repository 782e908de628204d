import { describe, expect, it } from 'vitest';
import { registrationIdOf, waitForServiceWorker } from './support/browser';
import { outboxSize } from './support/outbox';
import { api, createVerifiedUser } from './support/server';
import { useE2eSuite } from './support/suite';

/**
 * Background Sync: a post written offline is sent by the service worker once the network is back,
 * with every tab of the app closed, exactly once, and the app opened later sends nothing again.
 */
describe('background sync', () => {
  const e2e = useE2eSuite({ browser: 'full' });

  it('sends a post written offline after the app was closed, once', async () => {
    const author = await createVerifiedUser(e2e.server);
    const origin = e2e.server.baseUrl;
    const page = await e2e.visit('/post', { as: author });
    await waitForServiceWorker(page);
    const main = page.getByRole('main');
    await main.getByRole('heading', { name: 'New post' }).waitFor();

    await e2e.journey.context.setOffline(true);
    const text = `Sent while the app was closed ${Date.now()}`;
    const box = main.getByLabel('What is on your mind?');
    await expect.poll(() => box.isEnabled(), { timeout: 15_000 }).toBe(true);
    await box.fill(text);
    await main.getByRole('button', { name: 'Post', exact: true }).click();
    await expect.poll(() => outboxSize(page, author.id)).toBe(1);
    // The app asked the browser for a sync once the network is back.
    await expect
      .poll(() => page.evaluate(async () => {
        const registration = (await navigator.serviceWorker.ready) as ServiceWorkerRegistration & { sync: { getTags(): Promise<string[]> } };
        return registration.sync.getTags();
      }))
      .toContain('kruh-outbox');
    await page.close();

    // No tab of the app is open: a page outside the app (the API's health answer) watches.
    await e2e.journey.context.setOffline(false);
    const watcher = await e2e.journey.context.newPage();
    await watcher.goto(`${origin}/api/health`);
    const cdp = await e2e.journey.context.newCDPSession(watcher);
    const registrationId = await registrationIdOf(cdp, origin);
    await cdp.send('ServiceWorker.dispatchSyncEvent', { origin, registrationId, tag: 'kruh-outbox', lastChance: false });

    const onServer = async () => {
      const reply = await api<{ posts: Array<{ text: string }> }>(e2e.server, 'GET', `/profile/posts/${encodeURIComponent(author.username)}?sort=newest&time=all`);
      return reply.body.posts.filter((p) => p.text === text).length;
    };
    await expect.poll(onServer, { timeout: 20_000 }).toBe(1);
    await expect.poll(() => outboxSize(watcher, author.id), { timeout: 10_000 }).toBe(0);

    // The app opened again has nothing left to send, and shows the post as sent.
    const again = await e2e.journey.context.newPage();
    await again.goto(`${origin}/u/${encodeURIComponent(author.username)}`);
    const card = again.getByRole('main').getByRole('article').filter({ hasText: text });
    await card.getByRole('button', { name: 'Like', exact: true }).waitFor({ timeout: 20_000 });
    expect(await onServer()).toBe(1);
    expect(e2e.journey.log.pageErrors).toEqual([]);
  });
});
