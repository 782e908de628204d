import { describe, expect, it } from 'vitest';
import { addMember, call, createGroup, createPost, createUser, deleteOwnAccount, type TestUser } from '../helpers/fixtures';
import { expectError, expectInfo } from '../helpers/expect';
import { useTestApp } from '../helpers/test-app';

/** The rules of a block: who may block, what it ends, what it refuses, and that lifting it restores. */

const t = useTestApp();

async function runJobs(): Promise<void> {
  const { runDueJobs } = await import('../../src/lib/jobs/worker');
  await runDueJobs(t.app);
}

const block = (by: TestUser, whom: string) => call(t.app, by, { method: 'PUT', url: `/api/block/${whom}` });
const unblock = (by: TestUser, whom: string) => call(t.app, by, { method: 'DELETE', url: `/api/block/${whom}` });
const blockRows = async () => t.app.db.selectFrom('user_blocks').selectAll().orderBy('blocker_id').execute();
const followsBetween = async (a: TestUser, b: TestUser) =>
  (await t.app.db.selectFrom('follows').select(['follower_id', 'following_id']).where((eb) => eb.or([
    eb.and([eb('follower_id', '=', a.id), eb('following_id', '=', b.id)]),
    eb.and([eb('follower_id', '=', b.id), eb('following_id', '=', a.id)]),
  ])).execute()).length;

describe('blocking: who and how often', () => {
  it('blocks a user once however often asked, and lifts it once however often asked', async () => {
    const a = await createUser(t.app);
    const b = await createUser(t.app);
    expectInfo(await block(a, b.id), 'user_blocked');
    expectInfo(await block(a, b.id), 'user_blocked');
    expect((await blockRows()).filter((r) => r.blocker_id === a.id)).toEqual([expect.objectContaining({ blocker_id: a.id, blocked_id: b.id })]);
    const state = await call(t.app, a, { method: 'GET', url: `/api/block/${b.id}` });
    expect(state.json()).toEqual({ blocking: true, blockedBy: false, muting: false });
    const theirs = await call(t.app, b, { method: 'GET', url: `/api/block/${a.id}` });
    expect(theirs.json()).toEqual({ blocking: false, blockedBy: true, muting: false });
    expectInfo(await unblock(a, b.id), 'user_unblocked');
    expectInfo(await unblock(a, b.id), 'user_unblocked');
    expect((await blockRows()).filter((r) => r.blocker_id === a.id)).toEqual([]);
  });

  it('refuses blocking oneself, an unknown user, a malformed id and a visitor, storing nothing', async () => {
    const a = await createUser(t.app);
    const before = await blockRows();
    expectError(await block(a, a.id), 400, 'block_yourself');
    expectError(await unblock(a, a.id), 400, 'block_yourself');
    expectError(await block(a, '0123456789abcdef01234567'), 404, 'user_not_found');
    expectError(await call(t.app, a, { method: 'GET', url: '/api/block/0123456789abcdef01234567' }), 404, 'user_not_found');
    expectError(await block(a, 'nope'), 400, 'invalid_id');
    expectError(await call(t.app, null, { method: 'PUT', url: `/api/block/${a.id}` }), 401, 'no_token');
    expect(await blockRows()).toEqual(before);
  });

  it('lists the blocked users, latest first, as user list items; the blocked see nothing of it', async () => {
    const a = await createUser(t.app);
    const b = await createUser(t.app);
    const c = await createUser(t.app);
    await block(a, b.id);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await block(a, c.id);
    const list = await call(t.app, a, { method: 'GET', url: '/api/block' });
    expect(list.json()).toEqual({
      userList: [c, b].map((u) => ({ _id: u.id, pfp: u.id, pfpUrl: `/media/pfp/${u.id}.jpeg`, username: u.username, follows: false, notify: false })),
      logged: true,
      hasMore: false,
      group: null,
    });
    const paged = await call(t.app, a, { method: 'GET', url: '/api/block?limit=1&page=2' });
    expect(paged.json().userList.map((u: { _id: string }) => u._id)).toEqual([b.id]);
    expect((await call(t.app, b, { method: 'GET', url: '/api/block' })).json().userList).toEqual([]);
    expectError(await call(t.app, null, { method: 'GET', url: '/api/block' }), 401, 'no_token');
  });
});

describe('what a block ends and refuses', () => {
  it('ends the follows both ways', async () => {
    const a = await createUser(t.app);
    const b = await createUser(t.app);
    for (const [x, y] of [[a, b], [b, a]] as const) await call(t.app, x, { method: 'POST', url: '/api/follow', payload: { following: y.id } });
    expect(await followsBetween(a, b)).toBe(2);
    await block(b, a.id);
    expect(await followsBetween(a, b)).toBe(0);
  });

  it('refuses follows, comments, replies, reply posts and likes either way, changing nothing', async () => {
    const a = await createUser(t.app);
    const b = await createUser(t.app);
    const c = await createUser(t.app);
    const postOf = { a: await createPost(t.app, a), b: await createPost(t.app, b) };
    const thirdPost = await createPost(t.app, c);
    const commentOf = {
      a: (await call(t.app, a, { method: 'POST', url: '/api/comment/', payload: { text: 'by a', parent: thirdPost.id } })).json()._id as string,
      b: (await call(t.app, b, { method: 'POST', url: '/api/comment/', payload: { text: 'by b', parent: thirdPost.id } })).json()._id as string,
    };
    await block(a, b.id);
    const snapshot = async () => ({
      posts: await t.app.db.selectFrom('posts').select(['id', 'likes', 'comments']).orderBy('id').execute(),
      comments: await t.app.db.selectFrom('comments').select(['id', 'likes', 'replies']).orderBy('id').execute(),
      follows: await followsBetween(a, b),
    });
    const before = await snapshot();
    for (const [actor, other] of [[a, 'b'], [b, 'a']] as const) {
      const target = other === 'a' ? a : b;
      expectError(await call(t.app, actor, { method: 'POST', url: '/api/follow', payload: { following: target.id } }), 403, 'blocked');
      expectError(await call(t.app, actor, { method: 'POST', url: '/api/comment/', payload: { text: 'hi', parent: postOf[other].id } }), 403, 'blocked');
      expectError(await call(t.app, actor, { method: 'POST', url: '/api/comment/', payload: { text: 'hi', parent: commentOf[other] } }), 403, 'blocked');
      expectError(await call(t.app, actor, { method: 'POST', url: '/api/post', payload: { text: 'hi', replyingTo: postOf[other].id } }), 403, 'blocked');
      expectError(await call(t.app, actor, { method: 'PATCH', url: `/api/post/${postOf[other].id}/like` }), 403, 'blocked');
      expectError(await call(t.app, actor, { method: 'PATCH', url: `/api/comment/${commentOf[other]}/like` }), 403, 'blocked');
    }
    expect(await snapshot()).toEqual(before);
    // A third user's post stays open to both.
    expect((await call(t.app, a, { method: 'POST', url: '/api/comment/', payload: { text: 'still fine', parent: thirdPost.id } })).statusCode).toBe(201);
  });

  it('a mention across a block notifies nobody, while the same mention of a third user does', async () => {
    const a = await createUser(t.app);
    const b = await createUser(t.app);
    const c = await createUser(t.app);
    await block(b, a.id);
    const post = await call(t.app, a, { method: 'POST', url: '/api/post', payload: { text: `hey @${b.username} @${c.username}`, mentions: [b.username, c.username] } });
    expect(post.statusCode).toBe(201);
    // On the third user's own post, so its comment reaches them as a reply.
    const own = await createPost(t.app, c);
    await call(t.app, a, { method: 'POST', url: '/api/comment/', payload: { text: `hey @${b.username} @${c.username}`, parent: own.id, mentions: [b.username, c.username] } });
    await runJobs();
    const notes = async (user: TestUser) => t.app.db.selectFrom('notifications').select(['type', 'actor_id']).where('user_id', '=', user.id).execute();
    expect(await notes(b)).toEqual([]);
    expect((await notes(c)).map((n) => n.type).sort()).toEqual(['MENTION', 'NEW_REPLY']);
  });

  it("a post's groups answer 404 exactly when the post does: a private group's name never reaches a blocked reader", async () => {
    const owner = await createUser(t.app);
    const a = await createUser(t.app);
    const b = await createUser(t.app);
    const club = await createGroup(t.app, owner, { name: 'BlockedClubName', isPrivate: true });
    await addMember(t.app, club.id, a);
    await addMember(t.app, club.id, b);
    const post = await createPost(t.app, b, { text: 'club words', groupIds: [club.id] });
    const statuses = async () => {
      const read = await call(t.app, a, { method: 'GET', url: `/api/post/${post.id}` });
      const groups = await call(t.app, a, { method: 'GET', url: `/api/post/${post.id}/groups` });
      return { post: read.statusCode, groups: groups.statusCode, named: groups.body.includes('BlockedClubName') };
    };
    expect(await statuses()).toEqual({ post: 200, groups: 200, named: true });
    expectInfo(await block(b, a.id), 'user_blocked');
    expect(await statuses()).toEqual({ post: 404, groups: 404, named: false });
    expectInfo(await unblock(b, a.id), 'user_unblocked');
    expectInfo(await block(a, b.id), 'user_blocked');
    expect(await statuses()).toEqual({ post: 404, groups: 404, named: false });
    expectInfo(await unblock(a, b.id), 'user_unblocked');
    await t.app.db.updateTable('users').set({ suspended_at: Date.now() }).where('id', '=', b.id).execute();
    expect(await statuses()).toEqual({ post: 404, groups: 404, named: false });
  });

  it('lifting the block shows the content again and lets them follow', async () => {
    const a = await createUser(t.app);
    const b = await createUser(t.app);
    const post = await createPost(t.app, b);
    await block(a, b.id);
    expectError(await call(t.app, a, { method: 'GET', url: `/api/post/${post.id}` }), 404, 'didnt_find_post');
    await unblock(a, b.id);
    expect((await call(t.app, a, { method: 'GET', url: `/api/post/${post.id}` })).statusCode).toBe(200);
    expect((await call(t.app, a, { method: 'POST', url: '/api/follow', payload: { following: b.id } })).statusCode).toBe(201);
  });

  it('a block by either side is enough: only the blocker may lift it', async () => {
    const a = await createUser(t.app);
    const b = await createUser(t.app);
    const post = await createPost(t.app, a);
    await block(a, b.id);
    expectInfo(await unblock(b, a.id), 'user_unblocked');
    expectError(await call(t.app, b, { method: 'GET', url: `/api/post/${post.id}` }), 404, 'didnt_find_post');
  });

  it("a deleted account's blocks and mutes, made or received, go with it", async () => {
    const a = await createUser(t.app);
    const b = await createUser(t.app);
    await block(a, b.id);
    await block(b, a.id);
    await call(t.app, a, { method: 'PUT', url: `/api/mute/${b.id}` });
    await call(t.app, b, { method: 'PUT', url: `/api/mute/${a.id}` });
    await call(t.app, a, { method: 'PUT', url: '/api/mute/tag/gone' });
    expectInfo(await deleteOwnAccount(t.app, a), 'account_deleted');
    const naming = async (table: 'user_blocks' | 'user_mutes') =>
      (await t.app.db.selectFrom(table).selectAll().execute()).filter((row) => Object.values(row).includes(a.id));
    expect(await naming('user_blocks')).toEqual([]);
    expect(await naming('user_mutes')).toEqual([]);
    expect(await t.app.db.selectFrom('tag_mutes').selectAll().where('user_id', '=', a.id).execute()).toEqual([]);
    expect((await call(t.app, b, { method: 'GET', url: '/api/block' })).json().userList).toEqual([]);
  });
});
