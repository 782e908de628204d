import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { waitForServiceWorker } from '../support/browser';
import { JOURNEY_VIEWPORT, composePost, text } from '../support/journeys';
import { outboxRows, outboxSize } from '../support/outbox';
import { DIST, type TestUser, api, createVerifiedUser, requireBuiltApp, uniqueName } from '../support/server';
import { useE2eSuite } from '../support/suite';

requireBuiltApp();
/** The release the server hands out: a copy of the build, so the test can publish a next one. */
const release = mkdtempSync(join(tmpdir(), 'kruh-release-'));
cpSync(DIST, release, { recursive: true });

/**
 * An update of the installed app: a new release is published while a post waits in the outbox;
 * the app offers the new version, reloads into it when asked, and the waiting post is still there
 * and is sent once the connection lets it.
 */
describe('journey: the app updates itself without losing what waits to be sent', () => {
  const e2e = useE2eSuite({ webDir: release });
  let ivy: TestUser;
  /** Marked per try: a second try must not meet the first try's post in the feed. */
  let written = '';

  /** Made inside the test, so a second try starts from fresh people and names. */
  async function setUp(): Promise<void> {
    ivy = await createVerifiedUser(e2e.server);
    written = `Written before the update (${uniqueName('try')})`;
  }
  afterAll(() => rmSync(release, { recursive: true, force: true }));

  it('shows the update prompt, reloads into the new release and keeps the outbox', async () => {
    await setUp();
    const { server } = e2e;
    const page = await e2e.visit('/feed', { as: ivy, viewport: JOURNEY_VIEWPORT });
    await waitForServiceWorker(page);
    const context = e2e.journey.context;

    // A post written offline, kept from the server afterwards (the API unreachable, the app's files not).
    await context.setOffline(true);
    await composePost(page, server.baseUrl, written);
    await context.route(/\/api\//, (route) => route.abort('internetdisconnected'));
    await context.setOffline(false);
    // Back online the app tries the post at once, finds the API unreachable and keeps it (a failed
    // try leaves its reason on the row, there while the next tries come).
    const tried = async () => (await outboxRows(page, ivy.id)).map(({ kind, attempts, error }) => ({ kind, tried: attempts > 0, error }));
    await expect.poll(tried, { timeout: 15_000 }).toEqual([{ kind: 'post', tried: true, error: 'loading_failed' }]);

    // The next release is published; the app finds it and offers it.
    appendFileSync(join(release, 'sw.js'), `\n// next release ${Date.now()}\n`);
    // The build's compressed copies would still be the old release: a new release writes its own.
    for (const copy of ['sw.js.br', 'sw.js.gz']) rmSync(join(release, copy), { force: true });
    await page.evaluate(() => {
      (window as unknown as { beforeUpdate: boolean }).beforeUpdate = true;
    });
    await page.evaluate(async () => {
      await (await navigator.serviceWorker.getRegistration())?.update();
    });
    const prompt = page.getByRole('alert').filter({ hasText: text('en', 'common:update.available') });
    await prompt.waitFor({ timeout: 30_000 });
    await prompt.getByRole('button', { name: text('en', 'common:update.reload'), exact: true }).click();

    // A fresh page of the new release: nothing waiting to install, the post still queued.
    await expect.poll(() => page.evaluate(() => 'beforeUpdate' in window).catch(() => true), { timeout: 30_000 }).toBe(false);
    await waitForServiceWorker(page);
    expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting ?? null)).toBeNull();
    await page.getByRole('main').getByText(written).waitFor();
    expect(await outboxSize(page, ivy.id)).toBe(1);

    // The connection comes back: the post is sent, once.
    await context.unroute(/\/api\//);
    await page.reload();
    await expect.poll(() => outboxSize(page, ivy.id), { timeout: 30_000 }).toBe(0);
    const posts = (await api<{ posts: Array<{ text: string }> }>(server, 'GET', `/profile/posts/${ivy.username}`, { token: ivy.token })).body.posts;
    expect(posts.map((p) => p.text)).toEqual([written]);
    expect(e2e.journey.log.pageErrors).toEqual([]);
  });
});
