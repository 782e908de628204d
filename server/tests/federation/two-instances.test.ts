import { randomUUID } from 'node:crypto';
import type { RouteOptions } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AS_CONTEXT, type FakeFediverse, PUBLIC, deliverToInbox, startFakeFediverse } from '../helpers/fake-fediverse';
import { type PostView, okJson as ok } from '../helpers/expect';
import { type TestUser, call, createGroup, createUser, deleteOwnAccount } from '../helpers/fixtures';
import { type KruhInstance, settle, startInstance } from '../helpers/kruh-instance';
import { multipartBody } from '../helpers/multipart';

/**
 * Two whole Kruh instances on this machine talking to each other: each user acts through their own
 * instance's API, and everything between the two travels as signed deliveries over real HTTP,
 * run by each instance's job queue. Nothing is faked on either side. The steps build on each other
 * (a follow, then a post, then answers to it), so they run in order and share what they made.
 */

const png = () => sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 20, g: 120, b: 60 } } }).png().toBuffer();

describe('two Kruh instances federating', () => {
  let a: KruhInstance;
  let b: KruhInstance;
  /** POSTs B's ActivityPub paths (its inboxes) have been sent, counted as they arrive. */
  let postsToB = 0;

  // A's people.
  let alice: TestUser;
  // B's people.
  let bob: TestUser;
  let carol: TestUser;
  let dan: TestUser;
  let erin: TestUser;

  /** The post bob writes on B, and its copy on A. */
  let bobPost: string;
  let copyOnA: string;

  beforeAll(async () => {
    a = await startInstance();
    b = await startInstance(
      {},
      {
        onRoute(route: RouteOptions) {
          const methods = Array.isArray(route.method) ? route.method : [route.method];
          if (!methods.includes('POST') || !route.url.startsWith('/ap/')) return;
          const counting = async () => {
            postsToB++;
          };
          route.onRequest = [...(route.onRequest ? [route.onRequest].flat() : []), counting];
        },
      },
    );
    alice = await createUser(a.app, { username: 'alice' });
    bob = await createUser(b.app, { username: 'bob' });
    carol = await createUser(b.app, { username: 'carol' });
    dan = await createUser(b.app, { username: 'dan' });
    erin = await createUser(b.app, { username: 'erin' });
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  /** What a user of `on` finds searching for a handle: the account's id there, or undefined. */
  async function find(on: KruhInstance, user: TestUser, handle: string): Promise<string | undefined> {
    const res = await call(on.app, user, { method: 'GET', url: `/api/search/for/users?query=${encodeURIComponent(handle)}` });
    const list = ok<{ userList: Array<{ _id: string; username: string }> }>(res).userList;
    return list.find((u) => u.username === handle.replace(/^@/, ''))?._id;
  }

  const follow = async (on: KruhInstance, user: TestUser, accountId: string) =>
    ok(await call(on.app, user, { method: 'POST', url: '/api/follow', payload: { following: accountId } }), 201);

  const apId = (on: KruhInstance, postId: string) => `${on.origin}/ap/posts/${postId}`;
  const actorOf = (on: KruhInstance, id: string) => `${on.origin}/ap/actors/${id}`;

  /** The posts B keeps that came from A. */
  const postsFromA = () => b.app.db.selectFrom('posts').select(['id', 'author_id', 'text', 'ap_id']).where('ap_id', 'like', `${a.origin}/%`).execute();

  it("alice on A finds bob on B by his handle and follows him; B lists her as his follower", async () => {
    const bobOnA = await find(a, alice, `@bob@${b.host}`);
    expect(bobOnA).toBeDefined();
    await follow(a, alice, bobOnA!);
    await settle(a, b);

    const follows = await b.app.db.selectFrom('remote_follows').select('remote_actor_id').where('local_id', '=', bob.id).execute();
    expect(follows).toEqual([{ remote_actor_id: actorOf(a, alice.id) }]);
    const followers = await b.app.inject({ method: 'GET', url: `/ap/actors/${bob.id}/followers`, headers: { accept: 'application/activity+json' } });
    expect(ok<{ totalItems: number }>(followers).totalItems).toBe(1);
    expect(followers.body).toContain(actorOf(a, alice.id));
  });

  it("bob's public post with a picture, a mention and a hashtag reaches alice's following feed on A", async () => {
    const created = await call(b.app, bob, {
      method: 'POST',
      url: '/api/post',
      payload: { text: `Fresh beans, ask @carol #beans`, mentions: [carol.username] },
    });
    bobPost = ok<{ _id: string }>(created, 201)._id;
    // The app uploads a post's pictures after writing it, and B's worker may well have sent the
    // post by then: the pictures must follow it.
    await settle(a, b);
    for (const [index, alt] of ['A green square', 'Another one'].entries()) {
      const body = multipartBody({ id: bobPost, index: String(index), alt }, [{ field: 'image', filename: 'beans.png', contentType: 'image/png', data: await png() }]);
      ok(await call(b.app, bob, { method: 'POST', url: '/api/upload/image', payload: body.payload, headers: body.headers }), 201);
      await settle(a, b);
    }

    const stored = await a.app.db.selectFrom('posts').select(['id', 'remote_media']).where('ap_id', '=', apId(b, bobPost)).executeTakeFirstOrThrow();
    copyOnA = stored.id;
    const feed = ok<{ posts: PostView[] }>(await call(a.app, alice, { method: 'GET', url: '/api/feed/following' }));
    const shown = feed.posts.find((p) => p._id === copyOnA);
    expect(shown).toMatchObject({ author: { username: `bob@${b.host}` }, remote: { host: b.host } });
    expect(shown!.text).toContain('Fresh beans');
    expect(shown!.text).toContain(`@carol@${b.host}`);
    expect(shown!.text).toContain('#beans');
    // The hashtag is one of A's hashtags now: its page lists the post.
    const tagged = ok<{ posts: PostView[] }>(await call(a.app, alice, { method: 'GET', url: '/api/feed/hash/beans' }));
    expect(tagged.posts.map((p) => p._id)).toContain(copyOnA);
    // The picture stays on B: A keeps its address and its description.
    const media = JSON.parse(stored.remote_media ?? '[]') as Array<{ url: string; alt: string }>;
    expect(media.map((m) => m.alt)).toEqual(['A green square', 'Another one']);
    expect(media[0]!.url.startsWith(`${b.origin}/media/${bobPost}0.webp`)).toBe(true);
    expect(media[1]!.url.startsWith(`${b.origin}/media/${bobPost}1.webp`)).toBe(true);
    // Pictures are no edit of the words: the copy shows none, nor keeps a version of its text.
    expect(shown!.editedAt ?? null).toBeNull();
    expect(ok<{ versions: unknown[] }>(await call(a.app, alice, { method: 'GET', url: `/api/post/${copyOnA}/history` })).versions).toEqual([]);
  });

  it("A's API shows the remote post's pictures through A, fetched from B once and kept", async () => {
    const view = ok<PostView & { images: number; media: string[]; alts: string[] }>(await call(a.app, alice, { method: 'GET', url: `/api/post/${copyOnA}` }));
    expect(view.images).toBe(2);
    expect(view.alts).toEqual(['A green square', 'Another one']);
    // Same-origin addresses: the page's policy never has to allow another server's pictures.
    expect(view.media.every((url) => url.startsWith('/media/remote/'))).toBe(true);
    const picture = await fetch(`${a.origin}${view.media[0]}`);
    expect(picture.status).toBe(200);
    expect(picture.headers.get('content-type')).toMatch(/^image\//);
    expect((await sharp(Buffer.from(await picture.arrayBuffer())).metadata()).width).toBe(40);
    // A real picture's address under a signature that is not its own is not fetched for anyone.
    const [path] = view.media[0]!.split('?');
    const [, otherAddress] = view.media[1]!.split('?');
    const forged = `${path!.slice(0, -1)}${path!.endsWith('0') ? '1' : '0'}?${otherAddress}`;
    expect((await fetch(`${a.origin}${forged}`)).status).toBe(404);
  });

  it("alice's comment on A becomes a comment on bob's post on B, and bob is told", async () => {
    ok(await call(a.app, alice, { method: 'POST', url: '/api/comment/', payload: { text: 'Looks tasty', parent: copyOnA } }), 201);
    await settle(a, b);

    const thread = ok<{ comments: unknown[] }>(await call(b.app, bob, { method: 'GET', url: `/api/post/${bobPost}/comments` }));
    expect(thread.comments).toEqual([expect.objectContaining({ text: 'Looks tasty', author: expect.objectContaining({ username: `alice@${a.host}` }), remote: expect.objectContaining({ host: a.host }) })]);
    const notifications = ok<{ notifications: Array<{ type: string; username: string; context: { post: string | null } }> }>(
      await call(b.app, bob, { method: 'GET', url: '/api/notification/' }),
    );
    expect(notifications.notifications).toContainEqual(expect.objectContaining({ username: `alice@${a.host}`, context: expect.objectContaining({ post: bobPost }) }));
  });

  it("bob's answer on B to alice's comment reaches A under her comment, and she is told", async () => {
    const onB = await b.app.db.selectFrom('comments').select('id').where('post_id', '=', bobPost).executeTakeFirstOrThrow();
    ok(await call(b.app, bob, { method: 'POST', url: '/api/comment/', payload: { text: 'Thank you!', parent: onB.id } }), 201);
    await settle(a, b);

    const hers = await a.app.db.selectFrom('comments').select('id').where('post_id', '=', copyOnA).where('ap_id', 'is', null).executeTakeFirstOrThrow();
    const tree = ok<{ pinnedTree: { children: unknown[] } }>(await call(a.app, alice, { method: 'GET', url: `/api/comment/${hers.id}/tree` }));
    expect(tree.pinnedTree.children).toEqual([expect.objectContaining({ text: 'Thank you!', author: expect.objectContaining({ username: `bob@${b.host}` }) })]);
    const notifications = ok<{ notifications: Array<{ username: string; context: { post: string | null } }> }>(
      await call(a.app, alice, { method: 'GET', url: '/api/notification/' }),
    );
    expect(notifications.notifications).toContainEqual(expect.objectContaining({ username: `bob@${b.host}`, context: expect.objectContaining({ post: copyOnA }) }));
  });

  it("alice's like on A counts on B, and taking it back uncounts it", async () => {
    const likesOnB = async () => ok<PostView>(await call(b.app, bob, { method: 'GET', url: `/api/post/${bobPost}` })).likes;
    ok(await call(a.app, alice, { method: 'PATCH', url: `/api/post/${copyOnA}/like`, payload: { liked: true } }));
    await settle(a, b);
    expect(await likesOnB()).toBe(1);
    ok(await call(a.app, alice, { method: 'PATCH', url: `/api/post/${copyOnA}/like`, payload: { liked: false } }));
    await settle(a, b);
    expect(await likesOnB()).toBe(0);
  });

  it("alice's deletion of her comment on A deletes it on B (kept as a marker, since bob answered it)", async () => {
    const hers = await a.app.db.selectFrom('comments').select('id').where('post_id', '=', copyOnA).where('ap_id', 'is', null).executeTakeFirstOrThrow();
    ok(await call(a.app, alice, { method: 'DELETE', url: `/api/comment/${hers.id}` }));
    await settle(a, b);
    const onB = await b.app.db.selectFrom('comments').select(['text', 'deleted']).where('ap_id', '=', `${a.origin}/ap/comments/${hers.id}`).execute();
    expect(onB).toEqual([{ text: '', deleted: 1 }]);
    const thread = ok<{ comments: unknown[] }>(await call(b.app, bob, { method: 'GET', url: `/api/post/${bobPost}/comments` }));
    expect(thread.comments).toEqual([expect.objectContaining({ deleted: true, comments: 1 })]);
  });

  it("alice's comment on A naming @carol of B reaches B with carol mentioned in it, and she is told", async () => {
    const text = `@carol@${b.host} grows them too`;
    ok(await call(a.app, alice, { method: 'POST', url: '/api/comment/', payload: { text, parent: copyOnA } }), 201);
    await settle(a, b);

    const onB = await b.app.db.selectFrom('comments').select('id').where('post_id', '=', bobPost).where('text', 'like', '%grows them too').executeTakeFirstOrThrow();
    const mentions = await b.app.db.selectFrom('comment_mentions').select('user_id').where('comment_id', '=', onB.id).execute();
    // Bob is named too, as the author the reply answers (he is told of it as its post's author).
    expect(mentions.map((m) => m.user_id).sort()).toEqual([bob.id, carol.id].sort());
    const notifications = ok<{ notifications: Array<{ type: string; username: string }> }>(await call(b.app, carol, { method: 'GET', url: '/api/notification/' }));
    expect(notifications.notifications).toContainEqual(expect.objectContaining({ type: 'COMMENT_MENTION', username: `alice@${a.host}` }));
  });

  it("alice's comment on her own post on A, which B does not hold, naming @carol of B brings the post to B and tells carol", async () => {
    const own = ok<{ _id: string }>(await call(a.app, alice, { method: 'POST', url: '/api/post', payload: { text: 'Our first pumpkins' } }), 201)._id;
    await settle(a, b);
    expect(await b.app.db.selectFrom('posts').select('id').where('ap_id', '=', apId(a, own)).execute()).toEqual([]);

    ok(await call(a.app, alice, { method: 'POST', url: '/api/comment/', payload: { text: `@carol@${b.host} come and see`, parent: own } }), 201);
    await settle(a, b);

    const post = await b.app.db.selectFrom('posts').select(['id', 'text']).where('ap_id', '=', apId(a, own)).executeTakeFirstOrThrow();
    expect(post.text).toBe('Our first pumpkins');
    const comment = await b.app.db.selectFrom('comments').select(['id', 'post_id']).where('text', 'like', '%come and see').executeTakeFirstOrThrow();
    expect(comment.post_id).toBe(post.id);
    const notifications = ok<{ notifications: Array<{ type: string; username: string; context: { post: string | null } }> }>(
      await call(b.app, carol, { method: 'GET', url: '/api/notification/' }),
    );
    expect(notifications.notifications).toContainEqual(expect.objectContaining({ type: 'COMMENT_MENTION', username: `alice@${a.host}`, context: expect.objectContaining({ post: post.id }) }));
  });

  it("bob's post on B naming @alice of A tells her she is mentioned", async () => {
    const text = `Thanks for the visit @alice@${a.host}`;
    ok(await call(b.app, bob, { method: 'POST', url: '/api/post', payload: { text } }), 201);
    await settle(a, b);
    const notifications = ok<{ notifications: Array<{ type: string; username: string }> }>(await call(a.app, alice, { method: 'GET', url: '/api/notification/' }));
    expect(notifications.notifications).toContainEqual(expect.objectContaining({ type: 'MENTION', username: `bob@${b.host}` }));
  });

  it("bob's edit on B changes A's copy, and his deletion removes it", async () => {
    ok(await call(b.app, bob, { method: 'PATCH', url: `/api/post/${bobPost}`, payload: { text: 'Roasted beans now #beans' } }));
    await settle(a, b);
    expect(ok<PostView>(await call(a.app, alice, { method: 'GET', url: `/api/post/${copyOnA}` })).text).toBe('Roasted beans now #beans');

    ok(await call(b.app, bob, { method: 'DELETE', url: `/api/post/${bobPost}` }));
    await settle(a, b);
    expect((await call(a.app, alice, { method: 'GET', url: `/api/post/${copyOnA}` })).statusCode).toBe(404);
    expect(await a.app.db.selectFrom('posts').select('id').where('ap_id', '=', apId(b, bobPost)).execute()).toEqual([]);
  });

  it("dan on B follows a public group of A; the group announces its members' posts to B", async () => {
    const group = await createGroup(a.app, alice, { name: 'beangrowers' });
    // The handle search finds a group's actor as it finds a person's.
    const groupOnB = await find(b, dan, `@${group.name}@${a.host}`);
    expect(groupOnB).toBeDefined();
    await follow(b, dan, groupOnB!);
    await settle(a, b);
    const follows = await a.app.db.selectFrom('remote_follows').select('remote_actor_id').where('local_id', '=', group.id).execute();
    expect(follows).toEqual([{ remote_actor_id: actorOf(b, dan.id) }]);

    const before = await postsFromA();
    const created = ok<{ _id: string }>(await call(a.app, alice, { method: 'POST', url: '/api/post', payload: { text: 'Sowing day in the group', groups: [group.name] } }), 201);
    await settle(a, b);
    const after = await postsFromA();
    expect(after.length).toBe(before.length + 1);
    const stored = after.find((p) => p.ap_id === apId(a, created._id));
    expect(stored).toMatchObject({ text: 'Sowing day in the group' });
    // Kept as alice's post (the group only passed it on), the account B keeps for her.
    const author = await b.app.db.selectFrom('users').select('username').where('id', '=', stored!.author_id).executeTakeFirstOrThrow();
    expect(author.username).toBe(`alice@${a.host}`);
    // B knows the group only as an account dan follows; the post is read where everyone's is.
    const everyone = ok<{ posts: PostView[] }>(await call(b.app, dan, { method: 'GET', url: '/api/feed' }));
    expect(everyone.posts.find((p) => p._id === stored!.id)).toMatchObject({ author: { username: `alice@${a.host}` }, remote: { host: a.host } });

    // Her edit and her deletion are announced by the group as well (B has no follower of hers).
    ok(await call(a.app, alice, { method: 'PATCH', url: `/api/post/${created._id}`, payload: { text: 'Sowing day moved to Sunday' } }));
    await settle(a, b);
    expect((await postsFromA()).find((p) => p.ap_id === apId(a, created._id))?.text).toBe('Sowing day moved to Sunday');
    ok(await call(a.app, alice, { method: 'DELETE', url: `/api/post/${created._id}` }));
    await settle(a, b);
    expect((await postsFromA()).find((p) => p.ap_id === apId(a, created._id))).toBeUndefined();
  });

  it("comments under a group's post travel through the group: dan's from B is kept on A, and alice's on A reaches B", async () => {
    const created = ok<{ _id: string }>(await call(a.app, alice, { method: 'POST', url: '/api/post', payload: { text: 'Which beans climb best?', groups: ['beangrowers'] } }), 201);
    await settle(a, b);
    const copy = (await postsFromA()).find((p) => p.ap_id === apId(a, created._id));
    expect(copy).toBeDefined();
    const threadOn = async (on: KruhInstance, user: TestUser, postId: string) =>
      ok<{ comments: Array<{ text: string; author: { username: string } }> }>(await call(on.app, user, { method: 'GET', url: `/api/post/${postId}/comments` })).comments;

    ok(await call(b.app, dan, { method: 'POST', url: '/api/comment/', payload: { text: 'Runner beans', parent: copy!.id } }), 201);
    await settle(a, b);
    expect(await threadOn(a, alice, created._id)).toEqual([expect.objectContaining({ text: 'Runner beans', author: expect.objectContaining({ username: `dan@${b.host}` }) })]);
    // The group passes dan's comment on to its followers, B among them: B keeps it once, as dan's own.
    expect(await threadOn(b, dan, copy!.id)).toEqual([expect.objectContaining({ text: 'Runner beans', author: expect.objectContaining({ username: 'dan' }) })]);
    expect(await b.app.db.selectFrom('users').select('id').where('username', '=', `dan@${b.host}`).execute()).toEqual([]);

    // Alice has no follower on B and answers nobody there: her comment reaches B through the group alone.
    ok(await call(a.app, alice, { method: 'POST', url: '/api/comment/', payload: { text: 'Runners it is', parent: created._id } }), 201);
    await settle(a, b);
    expect((await threadOn(b, dan, copy!.id)).map((c) => [c.text, c.author.username])).toEqual(
      expect.arrayContaining([
        ['Runner beans', 'dan'],
        ['Runners it is', `alice@${a.host}`],
      ]),
    );
    expect(await threadOn(b, dan, copy!.id)).toHaveLength(2);
  });

  /**
   * A member of a third (fake) server: she follows A's group from there, which makes her a member
   * who may post into it, and her Note into the group is served by her server. Answers what sends
   * her activities to A, her Note, and what B keeps of it.
   */
  async function thirdServerMember(fedi: FakeFediverse, name: string, content: string) {
    const member = await fedi.actor(name);
    const group = await a.app.db.selectFrom('groups').select('id').where('name', '=', 'beangrowers').executeTakeFirstOrThrow();
    const toA = async (type: string, object: unknown) =>
      (await deliverToInbox(a.app, '/ap/inbox', { id: fedi.url(`/users/${name}/activities/${randomUUID()}`), type, actor: member.id, to: [PUBLIC], object }, member)).statusCode;
    expect(await toA('Follow', actorOf(a, group.id))).toBe(202);
    await settle(a, b);
    const note = {
      id: fedi.url(`/users/${name}/notes/1`),
      type: 'Note',
      attributedTo: member.id,
      to: [PUBLIC, actorOf(a, group.id)],
      cc: [member.followers],
      content,
      published: '2026-11-25T09:00:00Z',
    };
    const path = new URL(note.id).pathname;
    fedi.serve(path, { '@context': AS_CONTEXT, ...note });
    const onB = () => b.app.db.selectFrom('posts').select('text').where('ap_id', '=', note.id).executeTakeFirst();
    return { member, toA, note, path, onB };
  }

  it("a member of a third server posts into A's group: her edit and deletion reach B through the group, as her server shows them", async () => {
    const fedi = await startFakeFediverse();
    try {
      const { toA, note, path, onB } = await thirdServerMember(fedi, 'mia', '<p>Pole beans from seed</p>');
      expect(await toA('Create', note)).toBe(202);
      await settle(a, b);
      expect(await onB()).toEqual({ text: 'Pole beans from seed' });

      const edited = { ...note, content: '<p>Pole beans from seed, sown in May</p>', updated: '2026-11-25T10:00:00Z' };
      fedi.serve(path, { '@context': AS_CONTEXT, ...edited });
      expect(await toA('Update', edited)).toBe(202);
      await settle(a, b);
      expect(await onB()).toEqual({ text: 'Pole beans from seed, sown in May' });

      fedi.fail(path, 410);
      expect(await toA('Delete', { id: note.id, type: 'Tombstone' })).toBe(202);
      await settle(a, b);
      expect(await onB()).toBeUndefined();
    } finally {
      await fedi.close();
    }
  });

  it("a member of a third server deletes her account: what A's group passed on of hers goes from B too, though B never followed her", async () => {
    const fedi = await startFakeFediverse();
    try {
      const { member: nina, toA, note, path, onB } = await thirdServerMember(fedi, 'nina', '<p>Runner beans climb anything</p>');
      expect(await toA('Create', note)).toBe(202);
      await settle(a, b);
      expect(await onB()).toEqual({ text: 'Runner beans climb anything' });

      // Her server deletes her and all she wrote, and tells those who follow her: A, not B.
      fedi.fail(path, 410);
      fedi.fail(new URL(nina.id).pathname, 410);
      expect(await toA('Delete', nina.id)).toBe(202);
      await settle(a, b);
      expect(await a.app.db.selectFrom('posts').select('id').where('ap_id', '=', note.id).executeTakeFirst()).toBeUndefined();
      expect(await onB()).toBeUndefined();
    } finally {
      await fedi.close();
    }
  });

  it("the group's announced posts show in dan's following feed on B, as their author's, while he follows the group", async () => {
    const groupOnB = await find(b, dan, `@beangrowers@${a.host}`);
    expect(groupOnB).toBeDefined();
    const followingOnB = async () => ok<{ posts: PostView[] }>(await call(b.app, dan, { method: 'GET', url: '/api/feed/following' })).posts;
    const created = ok<{ _id: string }>(await call(a.app, alice, { method: 'POST', url: '/api/post', payload: { text: 'Seedlings are up', groups: ['beangrowers'] } }), 201);
    await settle(a, b);
    const stored = (await postsFromA()).find((p) => p.ap_id === apId(a, created._id));
    expect(stored).toBeDefined();
    // dan follows the group, not alice: the post is hers, and is in his feed once.
    expect((await followingOnB()).filter((p) => p._id === stored!.id)).toEqual([
      expect.objectContaining({ text: 'Seedlings are up', author: expect.objectContaining({ username: `alice@${a.host}` }) }),
    ]);
    ok(await call(b.app, dan, { method: 'DELETE', url: '/api/follow/delete', payload: { following: groupOnB } }));
    expect((await followingOnB()).map((p) => p._id)).not.toContain(stored!.id);
  });

  it('a post in a private group of A sends B nothing, though its author has a follower there', async () => {
    const aliceOnB = await find(b, erin, `@alice@${a.host}`);
    expect(aliceOnB).toBeDefined();
    await follow(b, erin, aliceOnB!);
    await settle(a, b);
    expect(await a.app.db.selectFrom('remote_follows').select('remote_actor_id').where('local_id', '=', alice.id).execute()).toContainEqual({
      remote_actor_id: actorOf(b, erin.id),
    });
    // A public post of hers does reach B, so the silence below is the private group's.
    const arrivals = postsToB;
    ok(await call(a.app, alice, { method: 'POST', url: '/api/post', payload: { text: 'Out in the open' } }), 201);
    await settle(a, b);
    expect(postsToB).toBeGreaterThan(arrivals);
    expect((await postsFromA()).map((p) => p.text)).toContain('Out in the open');

    const hideout = await createGroup(a.app, alice, { name: 'hideout', isPrivate: true });
    const before = await postsFromA();
    const quiet = postsToB;
    ok(await call(a.app, alice, { method: 'POST', url: '/api/post', payload: { text: 'Members only', groups: [hideout.name] } }), 201);
    await settle(a, b);
    expect(postsToB).toBe(quiet);
    expect(await postsFromA()).toEqual(before);
  });

  it('alice stops following bob on A: B forgets her as his follower', async () => {
    const bobOnA = await find(a, alice, `@bob@${b.host}`);
    ok(await call(a.app, alice, { method: 'DELETE', url: '/api/follow/delete', payload: { following: bobOnA } }));
    await settle(a, b);
    expect(await b.app.db.selectFrom('remote_follows').select('remote_actor_id').where('local_id', '=', bob.id).execute()).toEqual([]);
  });

  it("erin's comment on B reaches gina's post on A; gina's account deletion on A removes her account and posts on B", async () => {
    const gina = await createUser(a.app, { username: 'gina' });
    const ginaOnB = await find(b, erin, `@gina@${a.host}`);
    expect(ginaOnB).toBeDefined();
    await follow(b, erin, ginaOnB!);
    await settle(a, b);
    const written = ok<{ _id: string }>(await call(a.app, gina, { method: 'POST', url: '/api/post', payload: { text: 'Seeds to give away', contentWarning: 'long list' } }), 201);
    await settle(a, b);
    const copy = await b.app.db.selectFrom('posts').select(['id', 'text', 'content_warning']).where('ap_id', '=', apId(a, written._id)).executeTakeFirstOrThrow();
    expect(copy).toMatchObject({ text: 'Seeds to give away', content_warning: 'long list' });

    ok(await call(b.app, erin, { method: 'POST', url: '/api/comment/', payload: { text: 'I would love some', parent: copy.id } }), 201);
    await settle(a, b);
    const thread = ok<{ comments: unknown[] }>(await call(a.app, gina, { method: 'GET', url: `/api/post/${written._id}/comments` }));
    expect(thread.comments).toEqual([expect.objectContaining({ text: 'I would love some', author: expect.objectContaining({ username: `erin@${b.host}` }) })]);
    const told = ok<{ notifications: Array<{ username: string }> }>(await call(a.app, gina, { method: 'GET', url: '/api/notification/' }));
    expect(told.notifications.map((n) => n.username)).toContain(`erin@${b.host}`);

    ok(await deleteOwnAccount(a.app, gina));
    await settle(a, b);
    expect(await b.app.db.selectFrom('users').select('id').where('id', '=', ginaOnB!).execute()).toEqual([]);
    expect(await b.app.db.selectFrom('posts').select('id').where('id', '=', copy.id).execute()).toEqual([]);
  });

  describe("a public group of B that alice follows from A", () => {
    /** A third server whose member ola posts into B's group, and which follows it: it hears what the group passes on. */
    let fedi: FakeFediverse;
    let seedswap: { id: string; name: string };
    /** Ola's post in the group, on B and as A keeps it. */
    let olaPostOnB: string;
    let olaPostOnA: string;

    afterAll(async () => {
      await fedi?.close();
    });

    /** The Announces by B's group the third server received since `since`, each with what it passes on. */
    const announcedToThird = (since: number) =>
      fedi.received
        .slice(since)
        .map((delivery) => JSON.parse(delivery.body) as { type: string; actor: string; object: { type: string; actor: string; object: { id: string } } })
        .filter((activity) => activity.type === 'Announce' && activity.actor === actorOf(b, seedswap.id));

    it("alice's comment on A under a post B's group passed on reaches B under that post, and the group passes it on", async () => {
      fedi = await startFakeFediverse();
      seedswap = await createGroup(b.app, carol, { name: 'seedswap' });
      const ola = await fedi.actor('ola');
      const toB = async (type: string, object: unknown) =>
        (await deliverToInbox(b.app, '/ap/inbox', { id: fedi.url(`/users/ola/activities/${randomUUID()}`), type, actor: ola.id, to: [PUBLIC], object }, ola)).statusCode;
      expect(await toB('Follow', actorOf(b, seedswap.id))).toBe(202);
      const groupOnA = await find(a, alice, `@seedswap@${b.host}`);
      expect(groupOnA).toBeDefined();
      await follow(a, alice, groupOnA!);
      await settle(a, b);
      expect(await b.app.db.selectFrom('remote_follows').select('remote_actor_id').where('local_id', '=', seedswap.id).orderBy('remote_actor_id').execute()).toEqual(
        [{ remote_actor_id: actorOf(a, alice.id) }, { remote_actor_id: ola.id }].sort((x, y) => x.remote_actor_id.localeCompare(y.remote_actor_id)),
      );

      // Ola, of the third server, posts into the group; B's group passes it on to A.
      const note = { id: fedi.url('/users/ola/notes/1'), type: 'Note', attributedTo: ola.id, to: [PUBLIC, actorOf(b, seedswap.id)], cc: [ola.followers], content: '<p>Swap you runner beans for peas</p>', published: '2026-11-29T09:00:00Z' };
      fedi.serve(new URL(note.id).pathname, { '@context': AS_CONTEXT, ...note });
      expect(await toB('Create', note)).toBe(202);
      await settle(a, b);
      olaPostOnB = (await b.app.db.selectFrom('posts').select('id').where('ap_id', '=', note.id).executeTakeFirstOrThrow()).id;
      olaPostOnA = (await a.app.db.selectFrom('posts').select('id').where('ap_id', '=', note.id).executeTakeFirstOrThrow()).id;

      const since = fedi.received.length;
      const written = ok<{ _id: string }>(await call(a.app, alice, { method: 'POST', url: '/api/comment/', payload: { text: 'Deal, I have peas', parent: olaPostOnA } }), 201);
      await settle(a, b);
      const thread = ok<{ comments: Array<{ text: string; author: { username: string } }> }>(await call(b.app, carol, { method: 'GET', url: `/api/post/${olaPostOnB}/comments` }));
      expect(thread.comments).toEqual([expect.objectContaining({ text: 'Deal, I have peas', author: expect.objectContaining({ username: `alice@${a.host}` }) })]);
      // The group passes her comment on to its members elsewhere, as it does its posts.
      expect(announcedToThird(since).map((announce) => announce.object.object.id)).toContain(`${a.origin}/ap/comments/${written._id}`);
    });

    it("alice posts into B's group from A: B keeps it as her post in the group, and the group passes it on", async () => {
      const since = fedi.received.length;
      const created = ok<{ _id: string; groups: unknown[] }>(
        await call(a.app, alice, { method: 'POST', url: '/api/post', payload: { text: 'Who wants squash seeds?', groups: [`seedswap@${b.host}`] } }),
        201,
      );
      expect(created.groups).toEqual([{ _id: null, name: `seedswap@${b.host}` }]);
      await settle(a, b);

      const onB = await b.app.db.selectFrom('posts').select(['id', 'text']).where('ap_id', '=', apId(a, created._id)).executeTakeFirstOrThrow();
      expect(onB.text).toBe('Who wants squash seeds?');
      const inGroup = ok<{ posts: PostView[] }>(await call(b.app, carol, { method: 'GET', url: `/api/group/${seedswap.name}/posts` }));
      expect(inGroup.posts.find((p) => p._id === onB.id)).toMatchObject({ author: { username: `alice@${a.host}` }, remote: { host: a.host } });
      expect(announcedToThird(since).map((announce) => announce.object.object.id)).toContain(apId(a, created._id));
    });

    it("another follower of the group on A reads alice's post in it in her following feed, as the group passed it on", async () => {
      const fern = await createUser(a.app, { username: 'fern' });
      await follow(a, fern, (await find(a, fern, `@seedswap@${b.host}`))!);
      const written = ok<{ _id: string }>(
        await call(a.app, alice, { method: 'POST', url: '/api/post', payload: { text: 'Pea sticks, anyone?', groups: [`seedswap@${b.host}`] } }),
        201,
      );
      await settle(a, b);
      const feed = ok<{ posts: PostView[] }>(await call(a.app, fern, { method: 'GET', url: '/api/feed/following' }));
      expect(feed.posts.find((p) => p._id === written._id)).toMatchObject({ text: 'Pea sticks, anyone?', author: { username: 'alice' } });
    });
  });
});
