import { DELETED, LIMITS } from '#core/limits';
import { describe, expect, it } from 'vitest';
import { addMember, call, createGroup, createPost, createUser, deleteOwnAccount } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';
import { countRows, createPasswordUser, expectError, expectInfo } from '../auth/support';

describe('account deletion', () => {
  const t = useTestApp();

  it('deletes the account: content stays without an author, the rest goes, counters follow', async () => {
    const leaving = await createUser(t.app, { username: 'Leaving' });
    const other = await createUser(t.app);
    const db = t.app.db;

    const post = await createPost(t.app, leaving, { text: 'my words stay' });
    const othersPost = await createPost(t.app, other, { likes: 1 });
    await db.insertInto('post_likes').values({ post_id: othersPost.id, user_id: leaving.id, created_at: Date.now() }).execute();
    const commentId = 'aaaaaaaaaaaaaaaaaaaaaaa1';
    await db
      .insertInto('comments')
      .values({ id: commentId, post_id: othersPost.id, parent_comment_id: null, author_id: leaving.id, text: 'hi', search_text: 'hi', created_at: Date.now() })
      .execute();
    const othersComment = 'aaaaaaaaaaaaaaaaaaaaaaa2';
    await db
      .insertInto('comments')
      .values({ id: othersComment, post_id: post.id, parent_comment_id: null, author_id: other.id, text: 'yo', likes: 1, search_text: 'yo', created_at: Date.now() })
      .execute();
    await db.insertInto('comment_likes').values({ comment_id: othersComment, user_id: leaving.id, created_at: Date.now() }).execute();
    await db.insertInto('follows').values({ follower_id: leaving.id, following_id: other.id, created_at: Date.now() }).execute();

    const joined = await createGroup(t.app, other);
    await addMember(t.app, joined.id, leaving);
    const bannedFrom = await createGroup(t.app, other);
    await db.insertInto('group_bans').values({ group_id: bannedFrom.id, user_id: leaving.id, created_at: Date.now() }).execute();
    await db.updateTable('groups').set({ bans: 1 }).where('id', '=', bannedFrom.id).execute();
    const owned = await createGroup(t.app, leaving);

    await t.app.storage.put(`pfp/${leaving.id}.jpeg`, Buffer.from('avatar'));
    await t.app.storage.put(`gp/${owned.id}.jpeg`, Buffer.from('group avatar'));
    await t.app.storage.put(`pfp/${other.id}.jpeg`, Buffer.from('other avatar'));

    const res = await deleteOwnAccount(t.app, leaving);
    expectInfo(res, 'account_deleted');

    expect(await db.selectFrom('users').select('id').where('id', '=', leaving.id).executeTakeFirst()).toBeUndefined();
    const kept = await db.selectFrom('posts').selectAll().where('id', '=', post.id).executeTakeFirstOrThrow();
    expect(kept).toMatchObject({ author_id: null, text: 'my words stay' });
    const keptComment = await db.selectFrom('comments').selectAll().where('id', '=', commentId).executeTakeFirstOrThrow();
    expect(keptComment.author_id).toBeNull();

    expect((await db.selectFrom('posts').select('likes').where('id', '=', othersPost.id).executeTakeFirstOrThrow()).likes).toBe(0);
    expect((await db.selectFrom('comments').select('likes').where('id', '=', othersComment).executeTakeFirstOrThrow()).likes).toBe(0);
    expect((await db.selectFrom('groups').select('members').where('id', '=', joined.id).executeTakeFirstOrThrow()).members).toBe(1);
    expect((await db.selectFrom('groups').select('bans').where('id', '=', bannedFrom.id).executeTakeFirstOrThrow()).bans).toBe(0);
    expect(await db.selectFrom('groups').select('id').where('id', '=', owned.id).executeTakeFirst()).toBeUndefined();
    expect(await countRows(t.app, 'follows')).toBe(0);
    expect(await countRows(t.app, 'post_likes')).toBe(0);

    expect(await t.app.storage.get(`pfp/${leaving.id}.jpeg`)).toBeNull();
    expect(await t.app.storage.get(`gp/${owned.id}.jpeg`)).toBeNull();
    expect(await t.app.storage.get(`pfp/${other.id}.jpeg`)).not.toBeNull();

    // The old token no longer works.
    expectError(await call(t.app, leaving, { method: 'POST', url: '/api/auth/test' }), 401, 'invalid_token');
    expectError(await deleteOwnAccount(t.app, leaving), 401, 'invalid_token');
    // The name is free again.
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { username: 'leaving', email: 'leaving-again@example.test', password: 'secret12' },
    });
    expect(again.statusCode).toBe(201);
  });

  it('shows the deleted marker as the author of the remaining post', async () => {
    const author = await createUser(t.app);
    const post = await createPost(t.app, author);
    await deleteOwnAccount(t.app, author);
    const res = await t.app.inject({ method: 'GET', url: `/api/post/${post.id}` });
    expect(res.statusCode).toBe(200);
    expect(res.json().author.username).toBe(DELETED);
  });

  describe('asks the caller to prove they mean it', () => {
    const deleteWith = (user: { auth: { authorization: string } }, payload?: object) =>
      t.app.inject({ method: 'DELETE', url: '/api/account/delete', headers: user.auth, ...(payload ? { payload } : {}) });
    const stillThere = async (id: string) => (await t.app.db.selectFrom('users').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;

    it('refuses an account with a password unless the right one comes with the call', async () => {
      const user = await createPasswordUser(t.app, 'right!pass');
      expectError(await deleteWith(user), 400, 'wrong_password');
      expectError(await deleteWith(user, { password: 'wrong!pass' }), 400, 'wrong_password');
      // The username is no proof for an account that has a password.
      expectError(await deleteWith(user, { username: user.username }), 400, 'wrong_password');
      expect(await stillThere(user.id)).toBe(true);
      expectInfo(await deleteWith(user, { password: 'right!pass' }), 'account_deleted');
      expect(await stillThere(user.id)).toBe(false);
    });

    it("locks out guessing: after the lockout's failures even the right password waits", async () => {
      const user = await createPasswordUser(t.app, 'right!pass');
      for (let i = 0; i < LIMITS.loginMaxFailures - 1; i++) expectError(await deleteWith(user, { password: `guess-${i}` }), 400, 'wrong_password');
      expectError(await deleteWith(user, { password: 'last-guess' }), 429, 'login_timeout');
      expectError(await deleteWith(user, { password: 'right!pass' }), 429, 'login_timeout');
      expect(await stillThere(user.id)).toBe(true);
      // Changing the password counts on the same account: it is locked there too.
      const change = await t.app.inject({ method: 'PATCH', url: '/api/account/changepassword', headers: user.auth, payload: { oldPassword: 'right!pass', newPassword: 'other!pass1' } });
      expectError(change, 429, 'login_timeout');
    });

    it('asks an account signed up with Google for its username, in any case', async () => {
      const user = await createUser(t.app, { username: 'GoogleLeaver', googleSub: `sub-${Date.now()}` });
      expectError(await deleteWith(user), 400, 'wrong_username');
      expectError(await deleteWith(user, { username: 'GoogleLeave' }), 400, 'wrong_username');
      expectError(await deleteWith(user, { password: 'anything' }), 400, 'wrong_username');
      expect(await stillThere(user.id)).toBe(true);
      expectInfo(await deleteWith(user, { username: ' googleleaver ' }), 'account_deleted');
      expect(await stillThere(user.id)).toBe(false);
    });
  });
});
