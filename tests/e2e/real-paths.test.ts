import { describe, expect, it } from 'vitest';
import { waitForServiceWorker } from './support/browser';
import { api, createPost, createVerifiedUser, uniqueName } from './support/server';
import { useE2eSuite } from './support/suite';

/**
 * Every screen lives at a real path: opened cold by it, offline after one visit (the service worker
 * answers any screen's path with the app, and leaves the server's own paths alone), and through the
 * old hash addresses that mails and bookmarks still carry.
 */
describe('real paths', () => {
  const e2e = useE2eSuite();

  it('opens each screen by its path, then offline, and follows old hash addresses', async () => {
    const { server } = e2e;
    const user = await createVerifiedUser(server);
    const tag = uniqueName('path');
    const group = uniqueName('pathgroup');
    expect((await api(server, 'POST', '/group', { token: user.token, body: { name: group } })).status).toBe(201);
    const post = await createPost(server, user, { text: `Walking the paths #${tag}` });

    const page = await e2e.visit(`/p/${post._id}`, { as: user });
    const main = page.getByRole('main');
    const screens: Array<[string, () => Promise<unknown>]> = [
      [`/p/${post._id}`, () => main.getByText('Walking the paths').first().waitFor()],
      [`/u/${user.username}`, () => main.getByRole('heading', { name: user.username, exact: true }).waitFor()],
      [`/g/${group}`, () => main.getByRole('heading', { name: group }).first().waitFor()],
      [`/h/${tag}`, () => main.getByRole('article').first().waitFor()],
      [`/search?q=${tag}`, () => main.getByRole('article').first().waitFor()],
      ['/notifications', () => main.getByRole('heading', { name: 'Notifications' }).first().waitFor()],
    ];
    for (const [path, shown] of screens) {
      await page.goto(`${server.baseUrl}${path}`);
      await shown();
      expect(`${new URL(page.url()).pathname}${new URL(page.url()).search}`).toBe(path);
    }

    // Offline, every screen's path starts the app from the service worker, a path never opened too.
    await waitForServiceWorker(page);
    await e2e.journey.context.setOffline(true);
    for (const path of [...screens.map(([visited]) => visited), `/u/${user.username}/followers`]) {
      await page.goto(`${server.baseUrl}${path}`);
      await page.getByRole('navigation', { name: 'Main navigation' }).waitFor({ timeout: 15_000 });
      expect(`${new URL(page.url()).pathname}${new URL(page.url()).search}`).toBe(path);
    }
    // What this device saved is read there too: the post opened online shows offline.
    await page.goto(`${server.baseUrl}/p/${post._id}`);
    await main.getByText('Walking the paths').first().waitFor({ timeout: 15_000 });
    // ...but the server's own paths are not the app's: offline, they fail as the network does.
    await expect(page.goto(`${server.baseUrl}/rss/u/${user.username}`)).rejects.toThrow(/ERR_INTERNET_DISCONNECTED/);
    await e2e.journey.context.setOffline(false);

    // An old hash address, loaded or pasted over the open app, opens the same screen at its path.
    await page.goto(`${server.baseUrl}/p/${post._id}`);
    await main.getByText('Walking the paths').first().waitFor();
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/p/${post._id}`);
    await page.goto(`${server.baseUrl}/p/${post._id}#/u/${user.username}`);
    await main.getByRole('heading', { name: user.username, exact: true }).waitFor();
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/u/${user.username}`);
    expect(e2e.journey.log.pageErrors).toEqual([]);
  });
});
