import { beforeAll, describe, expect, it } from 'vitest';
import type { Post } from '#core/api/posts';
import { JOURNEY_VIEWPORT, text } from './support/journeys';
import { type TestUser, api, createPost, createVerifiedUser } from './support/server';
import { useE2eSuite } from './support/suite';

const NEW_PASSWORD = 'An0ther!pass';

/**
 * A password changed on another device ends this browser's session: what it saved stays readable,
 * the shell says the session ended, and logging in again sends what waited meanwhile.
 */
describe('an expired session', () => {
  const e2e = useE2eSuite();
  let reader: TestUser;
  let post: Post;

  beforeAll(async () => {
    const author = await createVerifiedUser(e2e.server);
    reader = await createVerifiedUser(e2e.server);
    post = await createPost(e2e.server, author, { text: `Still readable words from ${author.username}` });
  });

  it('keeps the saved posts readable, says the session ended and logs in again', async () => {
    const { server } = e2e;
    const { context } = await e2e.open({ viewport: JOURNEY_VIEWPORT });
    // Every toast the page ever shows, however briefly.
    await context.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { toastsSeen: string[] }).toastsSeen = seen;
      new MutationObserver(() => {
        for (const toast of document.querySelectorAll('.toast')) {
          const said = toast.textContent ?? '';
          if (!seen.includes(said)) seen.push(said);
        }
      }).observe(document, { childList: true, subtree: true });
    });
    const page = await context.newPage();
    const main = page.getByRole('main');

    await page.goto(`${server.baseUrl}/login`);
    await main.getByLabel(text('en', 'auth:login.identifier'), { exact: true }).fill(reader.username);
    await main.getByLabel(text('en', 'auth:login.password'), { exact: true }).fill(reader.password);
    await main.getByRole('button', { name: text('en', 'auth:login.submit'), exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/feed');
    await main.getByRole('article').filter({ hasText: post.text }).waitFor();
    await page.goto(`${server.baseUrl}/p/${post._id}`);
    await main.getByRole('article').filter({ hasText: post.text }).waitFor();

    // Another device changes the password: every earlier token is refused from now on.
    const changed = await api(server, 'PATCH', '/account/changepassword', {
      token: reader.token,
      body: { oldPassword: reader.password, newPassword: NEW_PASSWORD },
    });
    expect(changed.status).toBe(200);

    await page.reload();
    const notice = page.getByRole('status').filter({ hasText: text('en', 'common:session.expired') });
    await notice.waitFor();
    const card = main.getByRole('article').filter({ hasText: post.text });
    await card.waitFor();
    expect(await main.getByText(text('en', 'error:didnt_find_post')).count()).toBe(0);
    // A like given meanwhile waits in the outbox for the next login.
    await card.getByRole('button', { name: text('en', 'post:like'), exact: true }).click();

    // The feed keeps what it showed.
    await page.getByRole('navigation', { name: text('en', 'common:nav.label') }).getByRole('link', { name: text('en', 'common:nav.feed') }).click();
    await main.getByRole('article').filter({ hasText: post.text }).waitFor();
    expect(await main.getByText(text('en', 'feed:empty')).count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { toastsSeen: string[] }).toastsSeen)).toEqual([]);

    await notice.getByRole('link', { name: text('en', 'common:session.login') }).click();
    await main.getByRole('heading', { name: text('en', 'auth:login.title') }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    await main.getByLabel(text('en', 'auth:login.identifier'), { exact: true }).fill(reader.username);
    await main.getByLabel(text('en', 'auth:login.password'), { exact: true }).fill(NEW_PASSWORD);
    await main.getByRole('button', { name: text('en', 'auth:login.submit'), exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/feed');
    await main.getByRole('article').filter({ hasText: post.text }).waitFor();
    await notice.waitFor({ state: 'detached' });
    await expect.poll(async () => (await api<Post>(server, 'GET', `/post/${post._id}`)).body.likes, { timeout: 15_000 }).toBe(1);
    expect(e2e.journey.log.pageErrors).toEqual([]);
  });
});
