import { describe, expect, it } from 'vitest';
import { expectError } from '../helpers/expect';
import { call, createFollow, createPost, createUser, type TestUser } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';

/** Abuse limits on writing, with small settings so each boundary is reached in a few calls. */
describe('content limits', () => {
  const t = useTestApp({ RATE_POSTS_PER_HOUR: '3', RATE_STRANGER_MENTIONS_PER_HOUR: '2', RATE_COMMENTS_PER_30_MIN: '3' });

  const post = (user: TestUser, payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
    call(t.app, user, { method: 'POST', url: '/api/post', payload, headers });
  const comment = (user: TestUser, payload: Record<string, unknown>) => call(t.app, user, { method: 'POST', url: '/api/comment/', payload });
  const count = async (table: 'posts' | 'comments', authorId: string) =>
    Number(
      (await t.app.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).where('author_id', '=', authorId).executeTakeFirstOrThrow()).n,
    );

  describe('posts per hour', () => {
    it('lets the Nth post through and refuses the next with post_limit; others are unaffected', async () => {
      const [writer, other] = [await createUser(t.app), await createUser(t.app)];
      for (let i = 1; i <= 3; i++) expect((await post(writer, { text: `post ${i}` })).statusCode).toBe(201);
      expectError(await post(writer, { text: 'one too many' }), 429, 'post_limit');
      expect(await count('posts', writer.id)).toBe(3);
      expect((await post(other, { text: 'mine is fine' })).statusCode).toBe(201);
    });

    it('counts posts created: deleting them frees no room, a replayed retry takes none', async () => {
      const writer = await createUser(t.app);
      const headers = { 'idempotency-key': `limit-${writer.id}` };
      const first = await post(writer, { text: 'kept' }, headers);
      expect((await post(writer, { text: 'kept' }, headers)).json()._id).toBe(first.json()._id);
      const second = await post(writer, { text: 'to delete' });
      expect((await call(t.app, writer, { method: 'DELETE', url: `/api/post/${second.json()._id}` })).statusCode).toBe(200);
      expect((await post(writer, { text: 'third' })).statusCode).toBe(201);
      expectError(await post(writer, { text: 'fourth' }), 429, 'post_limit');
    });
  });

  describe('mentions of strangers', () => {
    it('limits mentions of one stranger per author, across posts and comments', async () => {
      const [author, stranger, other] = [await createUser(t.app), await createUser(t.app), await createUser(t.app)];
      expect((await post(author, { text: 'hi', mentions: [stranger.username] })).statusCode).toBe(201);
      const target = await createPost(t.app, other);
      expect((await comment(author, { text: 'hi again', parent: target.id, mentions: [stranger.username] })).statusCode).toBe(201);
      const posts = await count('posts', author.id);
      expectError(await post(author, { text: 'and again', mentions: [stranger.id] }), 429, 'mention_limit');
      expectError(await comment(author, { text: 'still', parent: target.id, mentions: [stranger.username] }), 429, 'mention_limit');
      expect(await count('posts', author.id)).toBe(posts);
      // The refused post gave its post slot back: the author still has two posts left this hour.
      for (let i = 2; i <= 3; i++) expect((await post(author, { text: `no mention ${i}` })).statusCode).toBe(201);
      // Another author may still mention the same person, and this author someone else.
      expect((await post(other, { text: 'hello', mentions: [stranger.username] })).statusCode).toBe(201);
      expect((await comment(author, { text: 'hello', parent: target.id, mentions: [other.username] })).statusCode).toBe(201);
    });

    it('does not limit mentions of people who follow the author', async () => {
      const [author, fan] = [await createUser(t.app), await createUser(t.app)];
      await createFollow(t.app, fan, author);
      const target = await createPost(t.app, fan);
      for (let i = 1; i <= 3; i++) {
        expect((await comment(author, { text: `thanks ${i}`, parent: target.id, mentions: [fan.username] })).statusCode).toBe(201);
      }
    });
  });

  describe('comments per 30 minutes', () => {
    it('counts comments created, so deleting them frees no room; others are unaffected', async () => {
      const [writer, other] = [await createUser(t.app), await createUser(t.app)];
      const target = await createPost(t.app, other);
      for (let i = 1; i <= 3; i++) {
        const made = await comment(writer, { text: `comment ${i}`, parent: target.id });
        expect(made.statusCode).toBe(201);
        expect((await call(t.app, writer, { method: 'DELETE', url: `/api/comment/${made.json()._id}` })).statusCode).toBe(200);
      }
      expect(await count('comments', writer.id)).toBe(0);
      expectError(await comment(writer, { text: 'one too many', parent: target.id }), 429, 'comment_limit');
      expect((await comment(other, { text: 'mine is fine', parent: target.id })).statusCode).toBe(201);
    });
  });
});
