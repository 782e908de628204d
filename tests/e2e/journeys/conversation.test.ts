import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { JOURNEY_VIEWPORT, text } from '../support/journeys';
import { type TestUser, api, createVerifiedUser, sessionStorageState } from '../support/server';
import { useE2eSuite } from '../support/suite';

interface Comment {
  _id: string;
  text: string;
  likes: number;
  comments: number;
  parent: { _id: string };
}

/**
 * A conversation under a post: a comment, a reply to it, a reply to the reply (three levels), a
 * like; then the person replied to opens the notification and lands on the reply, highlighted.
 */
describe('journey: a conversation three levels deep, and its notification', () => {
  const e2e = useE2eSuite();
  let ana: TestUser;
  let ben: TestUser;
  let postId: string;

  /** Made inside the test, so a second try starts from fresh people and names. */
  async function setUp(): Promise<void> {
    [ana, ben] = [await createVerifiedUser(e2e.server), await createVerifiedUser(e2e.server)];
    const post = await api<{ _id: string }>(e2e.server, 'POST', '/post', { token: ana.token, body: { text: 'Who wants seedlings this spring?' } });
    expect(post.status).toBe(201);
    postId = post.body._id;
  }

  const repliesOf = async (id: string) => (await api<{ comments: Comment[] }>(e2e.server, 'GET', `/post/${id}/comments`, { token: ana.token })).body.comments;
  const commentNamed = (scope: Locator, words: string) => scope.locator('article[data-comment-id]').filter({ hasText: words }).first();

  it('comments, replies twice, likes, and opens the reply from the notification', async () => {
    await setUp();
    const { server } = e2e;
    const page = await e2e.visit(`/p/${postId}`, { as: ben, viewport: JOURNEY_VIEWPORT });
    const main = page.getByRole('main');

    // Level one, from the post page.
    await main.getByRole('textbox', { name: text('en', 'comments:box.label') }).fill('Me! Two tomato plants, please.');
    await main.getByRole('button', { name: text('en', 'comments:box.submit'), exact: true }).first().click();
    await commentNamed(main, 'Two tomato plants').waitFor();
    await expect.poll(async () => (await repliesOf(postId)).map((c) => c.text)).toEqual(['Me! Two tomato plants, please.']);
    const [first] = await repliesOf(postId);

    // Level two, from the post's author.
    const answer = await api<{ _id: string }>(server, 'POST', '/comment/', { token: ana.token, body: { text: 'Sure, pick them up on Sunday.', parent: first!._id } });
    expect(answer.status).toBe(201);

    // Level three: open the replies, answer the answer, and like it.
    await page.reload();
    const firstCard = commentNamed(main, 'Two tomato plants');
    await firstCard.getByRole('button', { name: text('en', 'comments:item.show_replies') }).click();
    const answerCard = commentNamed(main, 'pick them up on Sunday');
    await answerCard.getByRole('button', { name: text('en', 'comments:item.reply'), exact: true }).click();
    await main.getByRole('textbox', { name: text('en', 'comments:box.reply_label') }).fill('Sunday works, thank you!');
    await main.getByRole('textbox', { name: text('en', 'comments:box.reply_label') }).press('Control+Enter');
    await commentNamed(main, 'Sunday works').waitFor();
    await answerCard.getByRole('button', { name: text('en', 'comments:item.like'), exact: true }).click();
    await answerCard.getByRole('button', { name: text('en', 'comments:item.unlike'), exact: true }).waitFor();

    await expect.poll(async () => (await repliesOf(answer.body._id)).map((c) => c.text)).toEqual(['Sunday works, thank you!']);
    await expect.poll(async () => (await repliesOf(first!._id)).map((c) => [c.text, c.likes, c.comments])).toEqual([['Sure, pick them up on Sunday.', 1, 1]]);
    const [third] = await repliesOf(answer.body._id);
    expect(third!.parent._id).toBe(answer.body._id);

    // Ana is told of the reply to her comment, and the notification opens it highlighted.
    const anaContext = await e2e.browser.newContext({ viewport: JOURNEY_VIEWPORT, storageState: sessionStorageState(server, ana) });
    try {
      const anaPage = await anaContext.newPage();
      await anaPage.goto(`${server.baseUrl}/notifications`);
      const item = anaPage.locator('article.notification').filter({ hasText: 'Sunday works, thank you!' });
      await expect.poll(() => item.count(), { timeout: 15_000 }).toBe(1);
      expect(await item.getAttribute('data-type')).toBe('NEW_REPLY');
      await item.getByRole('link', { name: 'Sunday works, thank you!' }).click();
      await anaPage.waitForURL((url) => `${url.pathname}${url.search}` === `/p/${postId}?c=${third!._id}`);
      const highlighted = anaPage.locator('li.comment-highlighted');
      await highlighted.first().waitFor();
      expect(await highlighted.locator(`article[data-comment-id="${third!._id}"]`).count()).toBe(1);
    } finally {
      await anaContext.close();
    }
    expect(e2e.journey.log.pageErrors).toEqual([]);
  });
});
