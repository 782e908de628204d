import { describe, expect, it } from 'vitest';
import { LIMITS } from '#core/limits';
import { call, type TestUser, useUsers } from '../helpers/fixtures';
import { expectError } from '../helpers/expect';
import { useTestApp } from '../helpers/test-app';

/** A post's content warning: set when it is written, kept on one line, answered with the post. */
describe('content warnings', () => {
  const t = useTestApp();
  const { alice, bob } = useUsers(t, 'alice', 'bob');

  const publish = (user: TestUser, payload: Record<string, unknown>) => call(t.app, user, { method: 'POST', url: '/api/post', payload });
  const postsOf = async (user: TestUser) =>
    (await t.app.db.selectFrom('posts').select('id').where('author_id', '=', user.id).execute()).length;

  it('stores the warning on one line, trimmed, and answers it on the new post, the post and listings', async () => {
    const res = await publish(alice, { text: 'the garden at night', contentWarning: '  Spiders\n   ahead ' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ contentWarning: 'Spiders ahead', post: { contentWarning: 'Spiders ahead' } });
    const id = res.json()._id as string;
    expect((await call(t.app, bob, { method: 'GET', url: `/api/post/${id}` })).json()).toMatchObject({ text: 'the garden at night', contentWarning: 'Spiders ahead' });
    expect((await call(t.app, null, { method: 'GET', url: `/api/post/${id}` })).json().contentWarning).toBe('Spiders ahead');
    const feed = await call(t.app, bob, { method: 'GET', url: '/api/feed' });
    expect(feed.json().posts.find((p: { _id: string }) => p._id === id)?.contentWarning).toBe('Spiders ahead');
    const stored = await t.app.db.selectFrom('posts').select('content_warning').where('id', '=', id).executeTakeFirstOrThrow();
    expect(stored.content_warning).toBe('Spiders ahead');
  });

  it('a post without a warning, or with one showing nothing, has none', async () => {
    for (const contentWarning of [undefined, null, '', '  \n ']) {
      const res = await publish(alice, { text: 'plain', ...(contentWarning === undefined ? {} : { contentWarning }) });
      expect(res.statusCode).toBe(201);
      expect(res.json().contentWarning).toBeNull();
    }
  });

  it('takes a warning at the limit and refuses a longer one, creating nothing', async () => {
    const atLimit = 'w'.repeat(LIMITS.contentWarningMaxLength);
    expect((await publish(alice, { text: 'ok', contentWarning: atLimit })).json().contentWarning).toBe(atLimit);
    const before = await postsOf(bob);
    expectError(await publish(bob, { text: 'too much', contentWarning: 'w'.repeat(LIMITS.contentWarningMaxLength + 1) }), 400, 'max_content_warning_length');
    expectError(await publish(bob, { text: 'too much', contentWarning: '🕷'.repeat(LIMITS.contentWarningMaxLength + 1) }), 400, 'max_content_warning_length');
    expect(await postsOf(bob)).toBe(before);
  });

  it('the text is still checked first', async () => {
    expectError(await publish(bob, { text: '   ', contentWarning: 'w'.repeat(LIMITS.contentWarningMaxLength + 1) }), 400, 'blank_post');
  });
});
