import { beforeAll, describe, expect, it } from 'vitest';
import { remoteAccountFor } from '../../server/src/modules/remote/remote-accounts';
import { createPost } from '../../server/tests/helpers/fixtures';
import { type TestUser, createVerifiedUser } from './support/server';
import { useE2eSuite } from './support/suite';

/**
 * A person on another fediverse server, as a reader here meets them: their profile at their
 * `name@host` path with their server and a link to their page there, and their posts' cards with
 * the server after the name and the original a new tab away. The account and its post are stored
 * as the federation stores them, straight in the database.
 */
describe('a remote account', () => {
  const e2e = useE2eSuite();
  const name = 'bob@other.example';
  let reader: TestUser;

  beforeAll(async () => {
    reader = await createVerifiedUser(e2e.server);
    const db = e2e.server.app.db;
    const id = await remoteAccountFor(
      db,
      { id: 'https://other.example/users/bob', inbox: 'https://other.example/users/bob/inbox', sharedInbox: null, handle: `@${name}`, url: 'https://other.example/@bob', bio: 'Birds and bread' },
      Date.now(),
    );
    const author = { id, username: name, email: '', token: '', auth: { authorization: '' } };
    const post = await createPost(e2e.server.app, author, { text: 'Hello from far away' });
    await db.updateTable('posts').set({ ap_id: 'https://other.example/users/bob/statuses/1', ap_url: 'https://other.example/@bob/1' }).where('id', '=', post.id).execute();
  });

  it('shows their server, their original page and their posts on their profile', async () => {
    const page = await e2e.visit(`/u/${encodeURIComponent(name)}`, { as: reader });
    const main = page.getByRole('main');
    await main.getByRole('heading', { name, level: 1 }).waitFor();
    await main.getByText('Birds and bread').waitFor();
    const profileOriginal = main.locator('.subject-header').getByRole('link', { name: 'Open the original on other.example (in a new tab)' });
    expect(await profileOriginal.getAttribute('href')).toBe('https://other.example/@bob');

    const card = main.getByRole('article').filter({ hasText: 'Hello from far away' });
    await card.getByRole('link', { name: 'bob on other.example' }).waitFor();
    const original = card.getByRole('link', { name: 'Open the original on other.example (in a new tab)' });
    expect(await original.getAttribute('href')).toBe('https://other.example/@bob/1');
    expect(await original.getAttribute('target')).toBe('_blank');
    expect(await original.getAttribute('rel')).toBe('noopener nofollow ugc');
  });
});
