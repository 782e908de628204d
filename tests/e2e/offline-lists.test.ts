import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { waitForServiceWorker } from './support/browser';
import { type TestUser, api, createVerifiedUser } from './support/server';
import { useE2eSuite } from './support/suite';

/**
 * Local-first beyond the feed: lists seen online (a profile's followers, a group's members) read
 * offline after a reload, and a like made offline shows as waiting until it is sent.
 */
describe('offline lists and pending likes', () => {
  const e2e = useE2eSuite();
  let owner: TestUser;
  let fans: TestUser[];
  let reader: TestUser;
  const group = `offline${Date.now()}`;
  let postText: string;

  beforeAll(async () => {
    const { server } = e2e;
    [owner, reader, ...fans] = await Promise.all([1, 2, 3, 4].map(() => createVerifiedUser(server))) as [TestUser, TestUser, ...TestUser[]];
    for (const fan of fans) {
      expect((await api(server, 'POST', '/follow', { token: fan.token, body: { following: owner.id } })).status).toBe(201);
    }
    const created = await api(server, 'POST', '/group', {
      token: owner.token,
      body: { name: group, description: 'Read offline', isPrivate: false, requestJoin: false, everyoneCanPost: true },
    });
    expect(created.status).toBe(201);
    for (const fan of fans) expect((await api(server, 'PUT', `/group/${group}/join`, { token: fan.token })).status).toBe(200);
    postText = `Like me offline ${Date.now()}`;
    const post = await api<{ _id: string }>(server, 'POST', '/post', { token: owner.token, body: { text: postText } });
    expect(post.status).toBe(201);
    for (const fan of fans.slice(0, 2)) {
      const comment = await api(server, 'POST', '/comment/', { token: fan.token, body: { text: `Nice one, ${fan.username}`, parent: post.body._id } });
      expect(comment.status).toBe(201);
    }
  });

  const usersShown = (page: Page, names: string[]) =>
    Promise.all(names.map((name) => page.getByRole('main').getByRole('link', { name, exact: true }).first().waitFor()));

  it("reads a profile's followers and a group's members offline after a reload", async () => {
    const page = await e2e.visit(`/u/${owner.username}/followers`, { as: reader });
    await waitForServiceWorker(page);
    await usersShown(page, fans.map((f) => f.username));
    await page.goto(`${e2e.server.baseUrl}/g/${group}/members`);
    await usersShown(page, [owner.username, ...fans.map((f) => f.username)]);

    await e2e.journey.context.setOffline(true);
    await page.reload();
    await usersShown(page, [owner.username, ...fans.map((f) => f.username)]);
    await page.goto(`${e2e.server.baseUrl}/u/${owner.username}/followers`);
    await page.reload();
    await usersShown(page, fans.map((f) => f.username));
    expect(e2e.journey.log.pageErrors).toEqual([]);
  });

  it("says offline that a post's comments never loaded are not on this device, under the post's count", async () => {
    const page = await e2e.visit(`/u/${owner.username}`, { as: reader });
    await waitForServiceWorker(page);
    const card = page.getByRole('main').getByRole('article').filter({ hasText: postText });
    await card.getByRole('link', { name: '2 comments' }).waitFor();

    await e2e.journey.context.setOffline(true);
    await card.getByRole('link', { name: '2 comments' }).click();
    await page.getByRole('heading', { name: '2 comments' }).waitFor();
    await page.getByText('You are offline, and this is not saved on this device.').waitFor();
    expect(await page.getByText(/No comments yet/).count()).toBe(0);
    expect(e2e.journey.log.pageErrors).toEqual([]);
  });

  it('marks a like made offline as waiting until it is sent', async () => {
    const page = await e2e.visit(`/u/${owner.username}`, { as: reader });
    await waitForServiceWorker(page);
    const card = page.getByRole('main').getByRole('article').filter({ hasText: postText });
    await card.getByRole('button', { name: 'Like', exact: true }).waitFor();

    await e2e.journey.context.setOffline(true);
    await card.getByRole('button', { name: 'Like', exact: true }).click();
    const liked = card.getByRole('button', { name: 'Unlike', exact: true });
    await liked.waitFor();
    await card.getByRole('status').filter({ hasText: 'Waiting to send' }).waitFor();

    await e2e.journey.context.setOffline(false);
    await expect.poll(() => card.getByRole('status').count(), { timeout: 20_000 }).toBe(0);
    await liked.waitFor();
    expect(e2e.journey.log.pageErrors).toEqual([]);
  });
});
