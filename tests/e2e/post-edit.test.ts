import { beforeAll, describe, expect, it } from 'vitest';
import type { Post } from '#core/api/posts';
import { type TestUser, api, createPost, createVerifiedUser } from './support/server';
import { useE2eSuite } from './support/suite';

/** An author changes a post from its card menu; the card says "edited" and shows what it said before. */
describe('editing a post', () => {
  const e2e = useE2eSuite();
  let author: TestUser;
  let seed: Post;

  beforeAll(async () => {
    author = await createVerifiedUser(e2e.server);
    seed = await createPost(e2e.server, author, { text: `First words of ${author.username}` });
  });

  it('edits through the menu, shows "edited", and lists the earlier version', async () => {
    const page = await e2e.visit('/feed', { as: author });
    const main = page.getByRole('main');
    const card = main.getByRole('article').filter({ hasText: seed.text });
    await card.waitFor();

    await card.getByRole('button', { name: 'More actions' }).click();
    await card.getByRole('menuitem', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit post' });
    const box = dialog.getByLabel('Text of the post');
    await expect.poll(() => box.inputValue()).toBe(seed.text);
    const text = `Better words of ${author.username}`;
    await box.fill(text);
    await dialog.getByRole('button', { name: 'Save' }).click();

    const edited = main.getByRole('article').filter({ hasText: text });
    await edited.getByRole('button', { name: 'Edited: show earlier versions' }).waitFor();
    await expect
      .poll(async () => (await api<Post>(e2e.server, 'GET', `/post/${seed._id}`, { token: author.token })).body.text)
      .toBe(text);

    await edited.getByRole('button', { name: 'Edited: show earlier versions' }).click();
    const history = page.getByRole('dialog', { name: 'Earlier versions' });
    await history.getByText(seed.text).waitFor();
    await history.getByRole('button', { name: 'Close' }).click();
    await history.waitFor({ state: 'detached' });
  });
});
