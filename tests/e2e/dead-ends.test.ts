import type { Locator } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { JOURNEY_VIEWPORT, text } from './support/journeys';
import { followRequests } from './support/requests-settling';
import { type TestServer, type TestUser, api, createPost, createVerifiedUser } from './support/server';
import { blockingViolations } from './support/accessibility';
import { useE2eSuite } from './support/suite';

const en = (id: string, values?: Record<string, string | number>) => text('en', id, values);
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

/**
 * Whether the whole of the element is inside the window (not scrolled away, not cut off) and on
 * top where it is (nothing drawn over it).
 */
const shown = (locator: Locator) =>
  locator.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const inside = box.top >= 0 && box.left >= 0 && box.bottom <= window.innerHeight && box.right <= window.innerWidth;
    // Across its middle (a rounded button's corners are not its own).
    const middle = box.top + box.height / 2;
    const points = [box.left + box.width / 4, box.left + box.width / 2, box.right - box.width / 4];
    return inside && points.every((x) => el.contains(document.elementFromPoint(x, middle)));
  });

/**
 * Screens that used to lead nowhere: a visitor's reply to a comment, a refused account delete on
 * a phone, and the notifications of a session the server no longer takes.
 */
/** An author's post with one comment on it. */
async function seedThread(server: TestServer): Promise<{ author: TestUser; postId: string }> {
  const author = await createVerifiedUser(server);
  const { _id: postId } = await createPost(server, author, { text: `A post to talk about ${Date.now()}` });
  const comment = await api(server, 'POST', '/comment/', { token: author.token, body: { text: 'The first comment', parent: postId } });
  expect(comment.status).toBe(201);
  return { author, postId };
}

describe('no dead ends', () => {
  const e2e = useE2eSuite();
  let thread: { author: TestUser; postId: string };
  beforeAll(async () => {
    thread = await seedThread(e2e.server);
  });

  it("takes a visitor's Reply on a comment to the login, with one login prompt on the page", async () => {
    const page = await e2e.visit(`/p/${thread.postId}`, { viewport: JOURNEY_VIEWPORT });
    const main = page.getByRole('main');
    const comment = main.getByRole('article').filter({ hasText: 'The first comment' });
    await comment.waitFor();
    const prompt = main.getByRole('link', { name: en('comments:box.login'), exact: true });
    await prompt.waitFor();
    expect(await prompt.count()).toBe(1);

    await comment.getByRole('link', { name: en('comments:item.reply'), exact: true }).click();
    await main.getByRole('heading', { name: en('auth:login.title') }).waitFor();
    const login = new URL(page.url());
    expect(login.pathname).toBe('/login');
    expect(login.searchParams.get('next')).toBe(`/p/${thread.postId}`);
    expect(e2e.journey.log.pageErrors).toEqual([]);
  });

  it('keeps the refusal of an account delete and its buttons in view together on a phone', async () => {
    const leaving = await createVerifiedUser(e2e.server);
    const page = await e2e.visit('/account', { as: leaving, ...PHONE });
    await page.getByRole('main').getByRole('button', { name: en('account:delete.button'), exact: true }).click();
    const dialog = page.getByRole('alertdialog');
    // The data first, as the dialog offers: its line makes the dialog taller than the phone.
    const saving = page.waitForEvent('download');
    await dialog.getByRole('button', { name: en('account:export.button'), exact: true }).click();
    await saving;
    const confirm = dialog.getByRole('button', { name: en('account:delete.confirm'), exact: true });
    const cancel = dialog.getByRole('button', { name: en('common:conf.cancel'), exact: true });
    await dialog.getByLabel(en('account:delete.password'), { exact: true }).fill('not my password');
    await confirm.click();
    const refusal = dialog.getByText(en('error:wrong_password'));
    await refusal.waitFor();
    await expect.poll(() => shown(refusal)).toBe(true);
    expect(await shown(confirm)).toBe(true);
    expect(await shown(cancel)).toBe(true);
    expect(await blockingViolations(page, 'delete-account-refused')).toEqual([]);
    expect((await api(e2e.server, 'POST', '/auth/test', { token: leaving.token })).status).toBe(200);
    expect(e2e.journey.log.pageErrors).toEqual([]);
  });

  it('shows the stored notifications of an expired session without actions, asking the server nothing it would refuse', async () => {
    const { server } = e2e;
    const reader = await createVerifiedUser(server);
    expect((await api(server, 'POST', '/follow', { token: thread.author.token, body: { following: reader.id } })).status).toBe(201);
    const page = await e2e.visit('/notifications', { as: reader, viewport: JOURNEY_VIEWPORT });
    const main = page.getByRole('main');
    const item = main.getByRole('article').filter({ hasText: thread.author.username });
    await item.waitFor();

    // Another device changes the password: this browser's token is refused from now on.
    const changed = await api(server, 'PATCH', '/account/changepassword', {
      token: reader.token,
      body: { oldPassword: reader.password, newPassword: 'An0ther!pass' },
    });
    expect(changed.status).toBe(200);
    await page.reload();
    const notice = page.getByRole('status').filter({ hasText: en('common:session.expired') });
    await notice.waitFor();

    // Known to be refused, the session asks for nothing more, here or on coming back.
    const refused: string[] = [];
    page.on('response', (response) => {
      if (response.status() === 401) refused.push(`${response.request().method()} ${new URL(response.url()).pathname}`);
    });
    const requests = followRequests(page);
    await page.reload();
    await item.waitFor();
    await notice.waitFor();
    await requests.settled();
    expect(refused).toEqual([]);
    expect(await main.getByRole('button', { name: en('notifications:clearAll'), exact: true }).count()).toBe(0);
    expect(await item.getByRole('button', { name: en('notifications:delete'), exact: true }).count()).toBe(0);
    expect(await blockingViolations(page, 'notifications-expired')).toEqual([]);
    expect(e2e.journey.log.pageErrors).toEqual([]);
  });
});
