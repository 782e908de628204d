import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Post, PostList } from '#core/api/posts';
import { waitForServiceWorker } from './support/browser';
import { outboxSize } from './support/outbox';
import { type TestUser, api, createPost, createVerifiedUser, uniqueName } from './support/server';
import { useE2eSuite } from './support/suite';

/**
 * The PWA's promise: with a cached app and feed, a post written offline shows at
 * once as pending, stays pending across reloads, and is sent exactly once when the network is
 * back; likes toggled offline end as one final state on the server.
 */
describe('offline outbox', () => {
  const e2e = useE2eSuite();
  let author: TestUser;
  let reader: TestUser;
  let seed: Post;

  beforeAll(async () => {
    const { server } = e2e;
    [author, reader] = await Promise.all([createVerifiedUser(server), createVerifiedUser(server)]);
    seed = await createPost(server, author, { text: `Hello from ${author.username}, already on the server` });
  });

  /** A logged-in page on the feed, controlled by the service worker, with the seed post stored. */
  async function openFeed(user: TestUser): Promise<Page> {
    const page = await e2e.visit('/feed', { as: user });
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'New post', exact: true }).waitFor();
    await waitForServiceWorker(page);
    await page.getByRole('main').getByRole('article').filter({ hasText: seed.text }).waitFor();
    return page;
  }

  async function serverPostsOf(user: TestUser, text: string): Promise<Post[]> {
    const reply = await api<PostList>(
      e2e.server,
      'GET',
      `/profile/posts/${encodeURIComponent(user.username)}?sort=newest&time=all`,
      { token: user.token },
    );
    expect(reply.status).toBe(200);
    return reply.body.posts.filter((p) => p.text === text);
  }

  it('keeps a post written offline pending across reloads and sends it once when online', async () => {
    const page = await openFeed(author);
    const main = page.getByRole('main');
    const postCalls: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/post') postCalls.push(request.url());
    });

    await e2e.journey.context.setOffline(true);
    await page.reload();
    // Shell and stored feed come from the service worker and IndexedDB.
    await page.getByRole('navigation', { name: 'Main navigation' }).waitFor();
    await main.getByRole('article').filter({ hasText: seed.text }).waitFor();
    await main.getByRole('status').filter({ hasText: 'You are offline. Showing saved posts.' }).waitFor();

    const text = `Written on a train without signal ${Date.now()}`;
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'New post', exact: true }).click();
    await main.getByRole('heading', { name: 'New post' }).waitFor();
    const box = main.getByLabel('What is on your mind?');
    await expect.poll(() => box.isEnabled(), { timeout: 15_000 }).toBe(true);
    await box.fill(text);
    await main.getByRole('button', { name: 'Post', exact: true }).click();

    // Back on the feed at once, shown as waiting to be sent.
    const mine = main.getByRole('article').filter({ hasText: text });
    await page.waitForURL((url) => url.pathname === '/' || url.pathname === '/feed');
    await mine.getByRole('status').filter({ hasText: 'Waiting to send' }).waitFor();
    expect(await serverPostsOf(author, text)).toEqual([]);

    await page.reload();
    await mine.getByRole('status').filter({ hasText: 'Waiting to send' }).waitFor();
    expect(await mine.count()).toBe(1);
    expect(await outboxSize(page, author.id)).toBe(1);
    expect(await serverPostsOf(author, text)).toEqual([]);
    expect(postCalls).toEqual([]);

    await e2e.journey.context.setOffline(false);
    // Sent: a regular card with its actions, no pending mark, nothing left in the outbox.
    await mine.getByRole('button', { name: 'Like', exact: true }).waitFor({ timeout: 20_000 });
    await expect.poll(() => outboxSize(page, author.id), { timeout: 10_000 }).toBe(0);
    await expect.poll(() => mine.getByRole('status').count()).toBe(0);
    expect(await mine.count()).toBe(1);
    const sent = await serverPostsOf(author, text);
    expect(sent).toHaveLength(1);
    expect(postCalls.length).toBeGreaterThanOrEqual(1);
    expect(e2e.journey.log.pageErrors).toEqual([]);
  });

  it('sends likes toggled offline as one final state', async () => {
    // Its own post, so a second try starts unliked.
    const post = await createPost(e2e.server, author, { text: `Like me offline (${uniqueName('try')})` });
    const page = await openFeed(reader);
    const card = page.getByRole('main').getByRole('article').filter({ hasText: post.text });
    const likePath = `/api/post/${post._id}/like`;
    const pageCalls: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === likePath) pageCalls.push(request.method());
    });
    await card.getByRole('button', { name: 'Like', exact: true }).waitFor();

    await e2e.journey.context.setOffline(true);
    // Like, unlike, like: each click waits for the screen to show the new state.
    for (const next of ['Unlike', 'Like', 'Unlike']) {
      await card.getByRole('button', { name: next === 'Unlike' ? 'Like' : 'Unlike', exact: true }).click();
      await card.getByRole('button', { name: next, exact: true }).waitFor();
    }
    await expect.poll(() => card.getByRole('button', { name: 'Unlike', exact: true }).getAttribute('aria-pressed')).toBe('true');
    expect(await outboxSize(page, reader.id)).toBe(1);

    // Still liked after a reload while offline, and nothing was tried while offline.
    await page.reload();
    await card.getByRole('button', { name: 'Unlike', exact: true }).waitFor();
    expect(pageCalls).toEqual([]);
    let onServer = await api<Post>(e2e.server, 'GET', `/post/${post._id}`, { token: reader.token });
    expect(onServer.body).toMatchObject({ liked: false, likes: 0 });

    await e2e.journey.context.setOffline(false);
    await expect.poll(() => outboxSize(page, reader.id), { timeout: 20_000 }).toBe(0);
    onServer = await api<Post>(e2e.server, 'GET', `/post/${post._id}`, { token: reader.token });
    expect(onServer.status).toBe(200);
    expect(onServer.body).toMatchObject({ liked: true, likes: 1 });
    // One request, from the page or from the service worker's sync, whichever woke first.
    expect(e2e.server.requests.filter((r) => r.path === likePath).map((r) => r.method)).toEqual(['PATCH']);
    await card.getByRole('button', { name: 'Unlike', exact: true }).waitFor();
    expect(e2e.journey.log.pageErrors).toEqual([]);
  });
});
