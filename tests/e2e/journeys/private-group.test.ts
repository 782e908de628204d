import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import type { Group } from '#core/api/groups';
import type { PostList } from '#core/api/posts';
import { waitForServiceWorker } from '../support/browser';
import { JOURNEY_VIEWPORT, text } from '../support/journeys';
import { type TestUser, api, createVerifiedUser, sessionStorageState, uniqueName } from '../support/server';
import { useE2eSuite } from '../support/suite';

/**
 * A private group that takes requests: its owner creates it, a person asks to join and is accepted
 * from the notification, posts; the owner pins the post, bans and unbans its author, and hands the
 * group over. Someone outside sees none of it, online or offline.
 */
describe('journey: a private group, from the request to join to a new owner', () => {
  const e2e = useE2eSuite();
  const contexts: BrowserContext[] = [];

  /** The people and names of one try, made inside the test so a second try starts from fresh ones. */
  async function setUp() {
    const group = uniqueName('allotment');
    const secret = `The gate code is ${Date.now()}`;
    const [olga, mia, otto] = [await createVerifiedUser(e2e.server), await createVerifiedUser(e2e.server), await createVerifiedUser(e2e.server)];
    return { olga, mia, otto, group, secret };
  }
  afterAll(async () => {
    for (const context of contexts) await context.close();
  });

  /** Another person's browser, beside the test's own. */
  async function browserOf(user: TestUser): Promise<Page> {
    const context = await e2e.browser.newContext({ viewport: JOURNEY_VIEWPORT, storageState: sessionStorageState(e2e.server, user) });
    contexts.push(context);
    return context.newPage();
  }

  it('creates, admits, posts, pins, bans, unbans and transfers, while an outsider sees nothing', async () => {
    const { olga, mia, otto, group, secret } = await setUp();
    const { server } = e2e;
    const groupAs = async (user: TestUser) => (await api<{ group: Group }>(server, 'GET', `/group/${group}`, { token: user.token })).body.group;
    const postsAs = (user: TestUser) => api<PostList>(server, 'GET', `/group/${group}/posts`, { token: user.token });
    const en = (id: string, values?: Record<string, string>) => text('en', id, values);

    // Olga creates the group from the form.
    const page = await e2e.visit('/create-group', { as: olga, viewport: JOURNEY_VIEWPORT });
    const main = page.getByRole('main');
    await main.getByLabel(en('groups:form.name')).fill(group);
    await main.getByLabel(en('groups:form.description')).fill('Plots, tools and the gate code.');
    await main.getByRole('group', { name: en('groups:form.isPrivate') }).getByLabel(en('groups:form.yes')).check();
    await main.getByRole('group', { name: en('groups:form.requestJoin') }).getByLabel(en('groups:form.yes')).check();
    await main.getByRole('button', { name: en('groups:create.submit'), exact: true }).click();
    await page.waitForURL((url) => url.pathname === `/g/${group}`);
    expect(await groupAs(olga)).toMatchObject({ owner: true, members: 1 });

    // Mia asks to join.
    const miaPage = await browserOf(mia);
    await miaPage.goto(`${server.baseUrl}/g/${group}`);
    await miaPage.getByRole('main').getByText(en('groups:need_join')).waitFor();
    await miaPage.getByRole('main').getByRole('button', { name: en('groups:join.request'), exact: true }).click();
    await miaPage.getByRole('main').getByRole('button', { name: en('groups:join.requested'), exact: true }).waitFor();

    // Olga accepts from her notifications.
    await page.goto(`${server.baseUrl}/notifications`);
    const request = main.locator('article.notification').filter({ hasText: mia.username });
    await expect.poll(() => request.count(), { timeout: 15_000 }).toBe(1);
    await request.getByRole('button', { name: en('notifications:accept'), exact: true }).click();
    await expect.poll(async () => (await groupAs(mia)).member).toBe(true);

    // Mia posts into the group from its page.
    await miaPage.goto(`${server.baseUrl}/post?g=${group}`);
    const box = miaPage.getByRole('main').getByRole('textbox', { name: en('compose:text_label') });
    await box.fill(secret);
    await box.press('Control+Enter');
    await expect.poll(async () => (await postsAs(olga)).body.posts.map((p) => p.text)).toEqual([secret]);
    const postId = (await postsAs(olga)).body.posts[0]!._id;

    // Olga pins it, bans its author and lets her back, from the post's menu.
    await page.goto(`${server.baseUrl}/p/${postId}`);
    const card = main.locator(`article[data-post-id="${postId}"]`).first();
    const menuItem = async (name: string) => {
      await card.getByRole('button', { name: en('post:menu') }).click();
      await card.getByRole('menuitem', { name }).click();
    };
    await menuItem(en('post:admin.pin'));
    await expect.poll(async () => (await api<{ _id: string }>(server, 'GET', `/group/${group}/pinned`, { token: olga.token })).body._id).toBe(postId);
    await menuItem(en('post:admin.ban', { username: mia.username }));
    await page.getByRole('alertdialog').getByRole('button', { name: en('common:conf.ban_action', { username: mia.username }), exact: true }).click();
    await expect.poll(async () => (await groupAs(mia)).member).toBe(false);
    expect((await api(server, 'POST', '/post', { token: mia.token, body: { text: 'Let me back in', groups: [group] } })).status).toBe(403);
    await menuItem(en('post:admin.unban', { username: mia.username }));
    await expect.poll(async () => (await groupAs(mia)).banned).toBe(false);

    // Let back in, Mia asks again and is accepted; then Olga hands her the group.
    expect((await api(server, 'POST', `/group/${group}/request`, { token: mia.token })).status).toBeLessThan(300);
    expect((await api(server, 'POST', `/group/${group}/accept/${mia.id}`, { token: olga.token })).status).toBeLessThan(300);
    await page.goto(`${server.baseUrl}/g/${group}/settings`);
    await main.getByRole('button', { name: en('groups:settings.transfer'), exact: true }).click();
    await main.getByRole('radio', { name: mia.username }).check();
    await main.getByRole('button', { name: en('groups:settings.transfer_submit'), exact: true }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: en('groups:settings.transfer_action', { username: mia.username }), exact: true }).click();
    await expect.poll(async () => (await groupAs(mia)).owner).toBe(true);
    expect(await groupAs(olga)).toMatchObject({ owner: false, admin: true });

    // Otto, outside, sees none of it: not the post, not its text in search, online or offline.
    const ottoPage = await browserOf(otto);
    await ottoPage.goto(`${server.baseUrl}/g/${group}`);
    await waitForServiceWorker(ottoPage);
    await ottoPage.getByRole('main').getByText(en('groups:need_join')).waitFor();
    await ottoPage.goto(`${server.baseUrl}/search?q=${encodeURIComponent('gate code')}`);
    // Each part of the results drawn as the server answered it: what it found, or that it found none.
    const answered = (part: 'users' | 'groups' | 'posts', item: string) => {
      const region = ottoPage.getByRole('main').getByRole('region', { name: en(`search:tabs.${part}`), exact: true });
      return region.locator(item).or(region.getByText(en(`search:no_${part}`), { exact: true })).first().waitFor();
    };
    await Promise.all([answered('users', 'li'), answered('groups', 'li'), answered('posts', 'article')]);
    expect(await ottoPage.content()).not.toContain(secret);
    await ottoPage.getByRole('main').getByText(en('search:no_posts'), { exact: true }).waitFor();
    expect((await postsAs(otto)).status).toBe(403);
    await ottoPage.context().setOffline(true);
    await ottoPage.goto(`${server.baseUrl}/g/${group}`);
    await ottoPage.reload();
    // The group as this device kept it: closed to Otto.
    await ottoPage.getByRole('main').getByText(en('groups:need_join')).waitFor();
    expect(await ottoPage.content()).not.toContain(secret);
    // Nothing of the group's content is stored on Otto's device either.
    const stored = await ottoPage.evaluate(async () => {
      const dumps: string[] = [];
      for (const info of await indexedDB.databases()) {
        if (!info.name) continue;
        const db = await new Promise<IDBDatabase>((done, fail) => {
          const open = indexedDB.open(info.name!);
          open.onsuccess = () => done(open.result);
          open.onerror = () => fail(open.error);
        });
        for (const name of Array.from(db.objectStoreNames)) {
          const all = await new Promise<unknown[]>((done) => {
            const request = db.transaction(name).objectStore(name).getAll();
            request.onsuccess = () => done(request.result);
          });
          dumps.push(JSON.stringify(all));
        }
        db.close();
      }
      return dumps.join('\n');
    });
    expect(stored).not.toContain(secret);
    expect(e2e.journey.log.pageErrors).toEqual([]);
  });
});
