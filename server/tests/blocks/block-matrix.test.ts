import { beforeAll, describe, expect, it } from 'vitest';
import { call, createUser, type TestUser } from '../helpers/fixtures';
import { ok, runJobs } from '../helpers/steps';
import { useTestApp } from '../helpers/test-app';

/**
 * The block guarantee: between two users a block stands between (either of them made it),
 * nothing of the one (posts, comments, replies, their place in someone's lists, search hits,
 * notifications) reaches the other through any read endpoint, while a third user sees both.
 * Content is made through the API before the block, so every module's real write path is covered.
 */

const t = useTestApp();
const TAG = 'blockmatrix';

interface Side {
  user: TestUser;
  /** A word only this side's content carries. */
  token: string;
  postId: string;
  commentId: string;
  replyId: string;
}

interface Scenario {
  alice: Side;
  bob: Side;
  carol: TestUser;
  group: string;
  carolPostId: string;
  carolCommentId: string;
}

let s: Scenario;


const follow = async (from: TestUser, to: TestUser) =>
  ok(await call(t.app, from, { method: 'POST', url: '/api/follow', payload: { following: to.id } }), 'follow');

async function side(user: TestUser, token: string, carol: TestUser, group: { id: string }, carolPostId: string, carolCommentId: string): Promise<Side> {
  const post = ok(
    await call(t.app, user, {
      method: 'POST',
      url: '/api/post',
      payload: { text: `${token} words #${TAG} for @${carol.username}`, groups: [group.id], mentions: [carol.username] },
    }),
    'post',
  ).json();
  // Edited once, so the post has a history to leak.
  ok(
    await call(t.app, user, {
      method: 'PATCH',
      url: `/api/post/${post._id}`,
      payload: { text: `${token} words, edited #${TAG} for @${carol.username}`, mentions: [carol.username] },
    }),
    'edit',
  );
  const comment = ok(await call(t.app, user, { method: 'POST', url: '/api/comment/', payload: { text: `${token} comment`, parent: carolPostId } }), 'comment').json();
  const reply = ok(await call(t.app, user, { method: 'POST', url: '/api/comment/', payload: { text: `${token} reply`, parent: carolCommentId } }), 'reply').json();
  return { user, token, postId: post._id, commentId: comment._id, replyId: reply._id };
}

async function buildScenario(): Promise<Scenario> {
  const alice = await createUser(t.app, { username: 'blkalice' });
  const bob = await createUser(t.app, { username: 'blkbob' });
  const carol = await createUser(t.app, { username: 'blkcarol' });
  const name = 'Block Square';
  const group = ok(await call(t.app, carol, { method: 'POST', url: '/api/group', payload: { name } }), 'group').json().group as { _id: string };
  for (const user of [alice, bob]) ok(await call(t.app, user, { method: 'PUT', url: `/api/group/${name}/join` }), 'join');
  // Carol follows both and both follow her; alice and bob follow each other until the block.
  for (const [a, b] of [[carol, alice], [carol, bob], [alice, carol], [bob, carol], [alice, bob], [bob, alice]] as const) await follow(a, b);

  const carolPost = ok(await call(t.app, carol, { method: 'POST', url: '/api/post', payload: { text: 'carol words' } }), 'carol post').json();
  const carolComment = ok(
    await call(t.app, carol, { method: 'POST', url: '/api/comment/', payload: { text: 'carol comment', parent: carolPost._id } }),
    'carol comment',
  ).json();
  const gid = { id: group._id };
  const a = await side(alice, 'alicetoken', carol, gid, carolPost._id, carolComment._id);
  const b = await side(bob, 'bobtoken', carol, gid, carolPost._id, carolComment._id);
  await runJobs(t.app);

  ok(await call(t.app, bob, { method: 'PUT', url: `/api/block/${alice.id}` }), 'block');
  // The block ended their follows (checked below); put them back behind its back, so the
  // following feed would show the other's post if only the missing follow hid it.
  const follows = await t.app.db.selectFrom('follows').select('follower_id').where((eb) => eb.or([
    eb.and([eb('follower_id', '=', alice.id), eb('following_id', '=', bob.id)]),
    eb.and([eb('follower_id', '=', bob.id), eb('following_id', '=', alice.id)]),
  ])).execute();
  if (follows.length !== 0) throw new Error('the block left a follow between the two');
  for (const [x, y] of [[alice, bob], [bob, alice]] as const) {
    await t.app.db.insertInto('follows').values({ follower_id: x.id, following_id: y.id, notify: 1, created_at: Date.now() }).execute();
  }
  return { alice: a, bob: b, carol, group: name, carolPostId: carolPost._id, carolCommentId: carolComment._id };
}

beforeAll(async () => {
  s = await buildScenario();
});

interface Probe {
  name: string;
  /** The URL as `viewer` asks it, about `other` (whose content a blocked viewer must not get). */
  url: (other: Side) => string;
  /** What the third user must find about `other` in the answer. */
  carolSees: (other: Side) => string;
  /** Also forbidden to a blocked viewer (a list of the other's that must be empty). */
  alsoHidden?: () => string[];
}

const probes: Probe[] = [
  { name: 'GET /feed', url: () => '/api/feed', carolSees: (o) => o.postId },
  { name: 'GET /feed popular', url: () => '/api/feed?sort=popular&time=all', carolSees: (o) => o.postId },
  { name: 'GET /feed/following', url: () => '/api/feed/following', carolSees: (o) => o.postId },
  { name: 'GET /feed/groups', url: () => '/api/feed/groups', carolSees: (o) => o.postId },
  { name: 'GET /feed/hash/{tag}', url: () => `/api/feed/hash/${TAG}`, carolSees: (o) => o.postId },
  { name: 'GET /feed/hash/{tag} popular', url: () => `/api/feed/hash/${TAG}?sort=popular&time=all`, carolSees: (o) => o.postId },
  { name: 'GET /group/{name}/posts', url: () => `/api/group/${s.group}/posts`, carolSees: (o) => o.postId },
  { name: 'GET /post/{id}', url: (o) => `/api/post/${o.postId}`, carolSees: (o) => o.token },
  { name: 'GET /post/{id}/history', url: (o) => `/api/post/${o.postId}/history`, carolSees: (o) => o.token },
  { name: 'GET /post/{id}/comments', url: () => `/api/post/${s.carolPostId}/comments`, carolSees: (o) => o.commentId },
  { name: 'GET /post/{commentId}/comments (replies)', url: () => `/api/post/${s.carolCommentId}/comments`, carolSees: (o) => o.replyId },
  { name: 'GET /comment/{id}/tree (theirs)', url: (o) => `/api/comment/${o.commentId}/tree`, carolSees: (o) => o.commentId },
  { name: 'GET /comment/{id}/tree (a third one)', url: () => `/api/comment/${s.carolCommentId}/tree`, carolSees: (o) => o.replyId },
  { name: 'GET /profile/posts/{username}', url: (o) => `/api/profile/posts/${o.user.username}`, carolSees: (o) => o.postId },
  { name: 'GET /profile/comments/{userId}', url: (o) => `/api/profile/comments/${o.user.id}?time=all`, carolSees: (o) => o.commentId },
  { name: "GET a third user's followers", url: () => `/api/profile/user/${s.carol.username}/followers`, carolSees: (o) => o.user.id },
  { name: "GET a third user's following", url: () => `/api/profile/user/${s.carol.username}/following`, carolSees: (o) => o.user.id },
  { name: 'GET their followers', url: (o) => `/api/profile/user/${o.user.username}/followers`, carolSees: () => s.carol.id, alsoHidden: () => [s.carol.id] },
  { name: 'GET their following', url: (o) => `/api/profile/user/${o.user.username}/following`, carolSees: () => s.carol.id, alsoHidden: () => [s.carol.id] },
  { name: 'GET /search/for/posts', url: (o) => `/api/search/for/posts?query=${o.token}&time=all`, carolSees: (o) => o.postId },
  { name: 'GET /search/for/replies', url: (o) => `/api/search/for/replies?query=${o.token}&time=all`, carolSees: (o) => o.commentId },
  { name: 'GET /search/for/users', url: (o) => `/api/search/for/users?query=${o.user.username}`, carolSees: (o) => o.user.id },
  { name: 'GET /search/users (suggestions)', url: (o) => `/api/search/users?query=${o.user.username}`, carolSees: (o) => o.user.id },
  { name: 'GET /notification/', url: () => '/api/notification/', carolSees: (o) => o.user.id },
];

const hiddenOf = (o: Side) => [o.user.id, o.user.username, o.token, o.postId, o.commentId, o.replyId];

describe('a block: neither side sees the other', () => {
  const pairs: [string, () => Side, () => Side][] = [
    ['the blocker reading the blocked', () => s.bob, () => s.alice],
    ['the blocked reading the blocker', () => s.alice, () => s.bob],
  ];
  it.each(pairs)('%s', async (_label, viewer, other) => {
    const leaks: string[] = [];
    for (const probe of probes) {
      const res = await call(t.app, viewer().user, { method: 'GET', url: probe.url(other()) });
      if (res.statusCode >= 500) leaks.push(`${probe.name}: ${res.statusCode}`);
      for (const word of [...hiddenOf(other()), ...(probe.alsoHidden?.() ?? [])]) {
        if (res.body.includes(word)) leaks.push(`${probe.name} shows ${word}`);
      }
    }
    expect(leaks).toEqual([]);
  });

  it('a third user sees both sides everywhere', async () => {
    const misses: string[] = [];
    for (const probe of probes) {
      for (const other of [s.alice, s.bob]) {
        const res = await call(t.app, s.carol, { method: 'GET', url: probe.url(other) });
        if (!res.body.includes(probe.carolSees(other))) misses.push(`${probe.name} about ${other.user.username} (${res.statusCode})`);
      }
    }
    expect(misses).toEqual([]);
  });

  it("each side still sees its own content where the other's is hidden", async () => {
    for (const self of [s.alice, s.bob]) {
      const feed = await call(t.app, self.user, { method: 'GET', url: '/api/feed' });
      expect(feed.body).toContain(self.postId);
      expect(feed.body).toContain(s.carolPostId);
      const thread = await call(t.app, self.user, { method: 'GET', url: `/api/post/${s.carolPostId}/comments` });
      expect(thread.body).toContain(self.commentId);
    }
  });

  it("a hidden post answers 404, and a hidden comment's tree too", async () => {
    const post = await call(t.app, s.alice.user, { method: 'GET', url: `/api/post/${s.bob.postId}` });
    expect({ status: post.statusCode, body: post.json() }).toEqual({ status: 404, body: { message: 'error/didnt_find_post' } });
    const tree = await call(t.app, s.bob.user, { method: 'GET', url: `/api/comment/${s.alice.commentId}/tree` });
    expect({ status: tree.statusCode, body: tree.json() }).toEqual({ status: 404, body: { message: 'error/comment_not_found' } });
  });

  it("a group's pinned post by the other is neither named nor shown", async () => {
    const pin = await call(t.app, s.carol, { method: 'PUT', url: `/api/group/${s.group}/pin/${s.alice.postId}` });
    expect(pin.statusCode).toBe(200);
    const group = await call(t.app, s.bob.user, { method: 'GET', url: `/api/group/${s.group}` });
    expect(group.json().group.pinnedPost).toBeNull();
    const pinned = await call(t.app, s.bob.user, { method: 'GET', url: `/api/group/${s.group}/pinned` });
    expect(pinned.statusCode).toBe(404);
    expect(pinned.body).not.toContain('alicetoken');
    expect((await call(t.app, s.carol, { method: 'GET', url: `/api/group/${s.group}` })).json().group.pinnedPost).toBe(s.alice.postId);
    expect((await call(t.app, s.carol, { method: 'GET', url: `/api/group/${s.group}/pinned` })).body).toContain('alicetoken');
  });

  it("the other's profile shows its header, with empty lists", async () => {
    for (const [viewer, other] of [[s.alice, s.bob], [s.bob, s.alice]] as const) {
      const profile = await call(t.app, viewer.user, { method: 'GET', url: `/api/profile/user/${other.user.username}` });
      expect(profile.statusCode).toBe(200);
      expect(profile.json().user.username ?? profile.json().username).toBe(other.user.username);
      const followers = await call(t.app, viewer.user, { method: 'GET', url: `/api/profile/user/${other.user.username}/followers` });
      expect(followers.json()).toMatchObject({ userList: [], hasMore: false });
    }
  });
});
