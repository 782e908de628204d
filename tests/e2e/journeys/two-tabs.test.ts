import { describe, expect, it } from 'vitest';
import { awaitingAnswers, waitForServiceWorker } from '../support/browser';
import { JOURNEY_VIEWPORT, composePost } from '../support/journeys';
import { outboxBusy, outboxSize } from '../support/outbox';
import { type TestUser, api, createVerifiedUser } from '../support/server';
import { useE2eSuite } from '../support/suite';

/**
 * The app open in two tabs, both offline, each with writing queued in the one outbox they share:
 * when the connection returns both tabs (and the service worker) wake up, and still every item
 * reaches the server once.
 */
describe('journey: two tabs with a shared outbox', () => {
  const e2e = useE2eSuite();
  let kim: TestUser;

  /** Made inside the test, so a second try starts from fresh people and names. */
  async function setUp(): Promise<void> {
    kim = await createVerifiedUser(e2e.server);
  }

  it('sends what both tabs queued exactly once', async () => {
    await setUp();
    const { server } = e2e;
    const first = await e2e.visit('/feed', { as: kim, viewport: JOURNEY_VIEWPORT });
    await waitForServiceWorker(first);
    const second = await e2e.journey.context.newPage();
    await second.goto(`${server.baseUrl}/feed`);
    await second.getByRole('main').waitFor();

    const unanswered = awaitingAnswers(e2e.journey.context, 'POST', '/api/');
    await e2e.journey.context.setOffline(true);
    const written = ['From the first tab, one', 'From the second tab, one', 'From the first tab, two', 'From the second tab, two'];
    for (const [i, words] of written.entries()) await composePost(i % 2 === 0 ? first : second, server.baseUrl, words);
    expect(await outboxSize(first, kim.id)).toBe(written.length);

    await e2e.journey.context.setOffline(false);
    // Counted once nothing more can come: the outbox empty, no tab or worker sending (or about to),
    // and every post any of them sent answered.
    await expect
      .poll(async () => ({ waiting: await outboxSize(second, kim.id), busy: await outboxBusy(second), unanswered: unanswered.size }), { timeout: 30_000 })
      .toEqual({ waiting: 0, busy: false, unanswered: 0 });
    const stored = (await api<{ posts: Array<{ text: string }> }>(server, 'GET', `/profile/posts/${kim.username}`, { token: kim.token })).body.posts;
    expect(stored.map((p) => p.text).sort()).toEqual([...written].sort());
    expect(e2e.journey.log.pageErrors).toEqual([]);
  });
});
