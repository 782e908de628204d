import { beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '#core/limits';
import { newId } from '../../src/lib/ids';
import { addMember, call, createGroup, createPost, createUser, type TestUser, useUsers } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';

describe('comments', () => {
  const t = useTestApp();
  const { alice, bob, carol } = useUsers(t, 'alice', 'bob', 'carol');
  let post: { id: string };

  beforeAll(async () => {
    post = await createPost(t.app, alice);
  });

  const comment = (user: TestUser | null, payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
    call(t.app, user, { method: 'POST', url: '/api/comment/', payload, headers });
  const countRows = async () =>
    Number((await t.app.db.selectFrom('comments').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const postCounter = async (id: string) =>
    (await t.app.db.selectFrom('posts').select('comments').where('id', '=', id).executeTakeFirstOrThrow()).comments;
  const replies = async (id: string) =>
    (await t.app.db.selectFrom('comments').select('replies').where('id', '=', id).executeTakeFirstOrThrow()).replies;

  describe('creating', () => {
    it('creates a top-level comment with the documented shape and bumps the post counter', async () => {
      const p = await createPost(t.app, alice);
      const res = await comment(bob, { text: '  hello there  ', parent: p.id });
      expect(res.statusCode).toBe(201);
      const c = res.json();
      expect(c).toMatchObject({
        postId: p.id,
        text: 'hello there',
        parent: { _id: p.id, author: { username: alice.username }, directParent: true },
        author: { username: bob.username, pfp: bob.id },
        liked: false,
        likes: 0,
        comments: 0,
        mentions: [],
        itsme: true,
        images: 0,
        media: [],
        deleted: false,
      });
      expect(c._id).toMatch(/^[0-9a-f]{24}$/);
      expect(Math.abs(c.createdAt - Date.now())).toBeLessThan(10_000);
      expect(await postCounter(p.id)).toBe(1);
      const jobs = await t.app.db.selectFrom('jobs').select('payload').execute();
      expect(jobs.map((j) => JSON.parse(j.payload))).toContainEqual({ kind: 'comment_created', commentId: c._id });
    });

    it.each([
      [{ text: '   ', parent: 'P' }, 400, 'blank_comment'],
      [{ parent: 'P' }, 400, 'blank_comment'],
      [{ text: 'x'.repeat(LIMITS.textMaxLength + 1), parent: 'P' }, 400, 'max_comment_length'],
      [{ text: Array(LIMITS.textMaxLines + 1).fill('l').join('\n'), parent: 'P' }, 400, 'max_comment_lines'],
      [{ text: 'hi', parent: 'P', mentions: Array.from({ length: 11 }, (_, i) => `name${i}`) }, 400, 'mentions_up_to'],
      [{ text: 'hi', parent: 'not-an-id' }, 400, 'invalid_parent'],
      [{ text: 'hi' }, 400, 'invalid_parent'],
      [{ text: 'hi', parent: 'UNKNOWN' }, 404, 'invalid_parent'],
    ])('refuses %j with %i and stores nothing', async (payload, status, key) => {
      const body = { ...payload } as Record<string, unknown>;
      if (body.parent === 'P') body.parent = post.id;
      if (body.parent === 'UNKNOWN') body.parent = newId();
      const before = await countRows();
      const res = await comment(bob, body);
      expect(res.statusCode).toBe(status);
      expect(res.json()).toEqual({ message: `error/${key}` });
      expect(await countRows()).toBe(before);
    });

    it('needs a token', async () => {
      const res = await comment(null, { text: 'hi', parent: post.id });
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toBe('error/no_token');
    });

    it('treats a private group post as missing for non-members and accepts members', async () => {
      const group = await createGroup(t.app, alice, { isPrivate: true });
      const hidden = await createPost(t.app, alice, { groupIds: [group.id] });
      const refused = await comment(bob, { text: 'let me in', parent: hidden.id });
      expect(refused.statusCode).toBe(404);
      expect(refused.json().message).toBe('error/invalid_parent');
      await addMember(t.app, group.id, carol);
      const ok = await comment(carol, { text: 'member here', parent: hidden.id });
      expect(ok.statusCode).toBe(201);
      const reply = await comment(bob, { text: 'reply to hidden', parent: ok.json()._id });
      expect(reply.statusCode).toBe(404);
      expect(reply.json().message).toBe('error/invalid_parent');
    });

    it('refuses a user banned in a group of the post', async () => {
      const group = await createGroup(t.app, alice);
      const p = await createPost(t.app, alice, { groupIds: [group.id] });
      await t.app.db.insertInto('group_bans').values({ group_id: group.id, user_id: bob.id, created_at: Date.now() }).execute();
      const before = await countRows();
      const res = await comment(bob, { text: 'banned voice', parent: p.id });
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe('error/banned');
      expect(await countRows()).toBe(before);
      expect((await comment(carol, { text: 'fine', parent: p.id })).statusCode).toBe(201);
    });

    it('resolves mentions by id or name, keeps unknown names without an id, drops duplicates', async () => {
      const res = await comment(bob, {
        text: 'hey',
        parent: post.id,
        mentions: [alice.id, carol.username.toUpperCase(), 'nobody_here', `@${alice.username}`],
      });
      expect(res.statusCode).toBe(201);
      expect(res.json().mentions).toEqual([
        { _id: alice.id, username: alice.username },
        { _id: carol.id, username: carol.username },
        { _id: null, username: 'nobody_here' },
      ]);
      const stored = await t.app.db.selectFrom('comment_mentions').selectAll().where('comment_id', '=', res.json()._id).execute();
      expect(stored).toHaveLength(3);
    });

    it('runs a retried create with the same Idempotency-Key once', async () => {
      const p = await createPost(t.app, alice);
      const headers = { 'idempotency-key': `retry-${newId()}` };
      const first = await comment(bob, { text: 'once', parent: p.id }, headers);
      const second = await comment(bob, { text: 'once', parent: p.id }, headers);
      expect(first.statusCode).toBe(201);
      expect(second.statusCode).toBe(201);
      expect(second.json()._id).toBe(first.json()._id);
      const rows = await t.app.db.selectFrom('comments').select('id').where('post_id', '=', p.id).execute();
      expect(rows).toHaveLength(1);
      expect(await postCounter(p.id)).toBe(1);
    });

    it('limits a user to 60 comments per 30 minutes, counted in the database', async () => {
      const spammer = await createUser(t.app);
      for (let i = 1; i < LIMITS.commentsPerWindow; i++) {
        expect((await comment(spammer, { text: `c${i}`, parent: post.id })).statusCode).toBe(201);
      }
      expect((await comment(spammer, { text: 'sixtieth', parent: post.id })).statusCode).toBe(201);
      const before = await countRows();
      const res = await comment(spammer, { text: 'sixty-first', parent: post.id });
      expect(res.statusCode).toBe(429);
      expect(res.json().message).toBe('error/comment_limit');
      expect(await countRows()).toBe(before);
    });
  });

  describe('threads', () => {
    let p: { id: string };
    let c1: string;
    let c2: string;
    let c3: string;

    beforeAll(async () => {
      p = await createPost(t.app, alice);
      c1 = (await comment(bob, { text: 'level one', parent: p.id })).json()._id;
      c2 = (await comment(carol, { text: 'level two', parent: c1 })).json()._id;
      const third = await comment(alice, { text: 'level three', parent: c2 });
      expect(third.json().parent).toEqual({ _id: c2, author: { username: carol.username }, directParent: false });
      expect(third.json().postId).toBe(p.id);
      c3 = third.json()._id;
    });

    it('counts every depth on the post and direct replies on each comment', async () => {
      expect(await postCounter(p.id)).toBe(3);
      expect(await replies(c1)).toBe(1);
      expect(await replies(c2)).toBe(1);
      expect(await replies(c3)).toBe(0);
    });

    it('lists top-level comments of a post and direct replies of a comment', async () => {
      const top = await call(t.app, null, { method: 'GET', url: `/api/post/${p.id}/comments` });
      expect(top.statusCode).toBe(200);
      expect(top.json().comments.map((c: { _id: string }) => c._id)).toEqual([c1]);
      expect(top.json().comments[0].comments).toBe(1);
      expect(top.json().comments[0].itsme).toBe(false);
      const level2 = await call(t.app, bob, { method: 'GET', url: `/api/post/${c1}/comments` });
      expect(level2.json()).toMatchObject({ comments: [{ _id: c2, parent: { _id: c1, directParent: false } }], hasMore: false });
      const level3 = await call(t.app, alice, { method: 'GET', url: `/api/post/${c2}/comments` });
      expect(level3.json().comments[0]).toMatchObject({ _id: c3, itsme: true });
    });

    it('answers the pinned tree from the root-most ancestor down to the comment and its replies', async () => {
      const leaf = (await comment(bob, { text: 'level four', parent: c3 })).json()._id;
      const res = await call(t.app, null, { method: 'GET', url: `/api/comment/${c3}/tree` });
      expect(res.statusCode).toBe(200);
      const root = res.json().pinnedTree;
      expect(root).toMatchObject({ _id: c1, pinned: false, text: 'level one' });
      expect(root.children).toHaveLength(1);
      expect(root.children[0]).toMatchObject({ _id: c2, pinned: false });
      const pinned = root.children[0].children[0];
      expect(pinned).toMatchObject({ _id: c3, pinned: true, hasMore: false });
      expect(pinned.children.map((c: { _id: string }) => c._id)).toEqual([leaf]);
      const top = await call(t.app, null, { method: 'GET', url: `/api/comment/${c1}/tree` });
      expect(top.json().pinnedTree).toMatchObject({ _id: c1, pinned: true, children: [{ _id: c2 }] });
    });

    it('answers 400 with the key of the id kind for malformed ids', async () => {
      const cases: [string, string, string][] = [
        ['GET', '/api/comment/nope/tree', 'invalid_comment'],
        ['PATCH', '/api/comment/nope/like', 'invalid_comment'],
        ['DELETE', '/api/comment/nope', 'invalid_comment'],
        ['GET', '/api/post/nope/comments', 'invalid_post'],
      ];
      for (const [method, url, key] of cases) {
        const res = await call(t.app, alice, { method: method as 'GET', url });
        expect({ url, status: res.statusCode, body: res.json() }).toEqual({ url, status: 400, body: { message: `error/${key}` } });
      }
    });

    it('answers 404 comment_not_found for an unknown tree and didnt_find_post for an unknown parent', async () => {
      const tree = await call(t.app, null, { method: 'GET', url: `/api/comment/${newId()}/tree` });
      expect(tree.statusCode).toBe(404);
      expect(tree.json().message).toBe('error/comment_not_found');
      const list = await call(t.app, null, { method: 'GET', url: `/api/post/${newId()}/comments` });
      expect(list.statusCode).toBe(404);
      expect(list.json().message).toBe('error/didnt_find_post');
    });
  });

  describe('listing', () => {
    it('pages 5 at a time, sorts popular by default, newest on request, and leaves out the pinned one', async () => {
      const p = await createPost(t.app, alice);
      const ids: string[] = [];
      for (let i = 0; i < 7; i++) ids.push((await comment(bob, { text: `n${i}`, parent: p.id })).json()._id);
      await t.app.db.updateTable('comments').set({ likes: 5 }).where('id', '=', ids[2]!).execute();
      const page1 = await call(t.app, null, { method: 'GET', url: `/api/post/${p.id}/comments` });
      expect(page1.json().comments).toHaveLength(5);
      expect(page1.json().hasMore).toBe(true);
      expect(page1.json().comments[0]._id).toBe(ids[2]);
      const page2 = await call(t.app, null, { method: 'GET', url: `/api/post/${p.id}/comments?page=2` });
      expect(page2.json()).toMatchObject({ hasMore: false });
      expect(page2.json().comments).toHaveLength(2);
      const newest = await call(t.app, null, { method: 'GET', url: `/api/post/${p.id}/comments?sort=newest&limit=3` });
      expect(newest.json().comments.map((c: { _id: string }) => c._id)).toEqual([ids[6], ids[5], ids[4]]);
      const pinned = await call(t.app, null, {
        method: 'GET',
        url: `/api/post/${p.id}/comments?sort=newest&limit=3&pinned=${ids[6]}&link=true`,
      });
      expect(pinned.json().comments.map((c: { _id: string }) => c._id)).toEqual([ids[5], ids[4], ids[3]]);
    });

    it('hides a private group post and its comments from outsiders', async () => {
      const group = await createGroup(t.app, alice, { isPrivate: true });
      const hidden = await createPost(t.app, alice, { groupIds: [group.id] });
      const c = (await comment(alice, { text: 'secret findable', parent: hidden.id })).json()._id;
      for (const viewer of [null, bob]) {
        const res = await call(t.app, viewer, { method: 'GET', url: `/api/post/${hidden.id}/comments` });
        expect(res.statusCode).toBe(404);
        expect(res.json().message).toBe('error/didnt_find_post');
        const tree = await call(t.app, viewer, { method: 'GET', url: `/api/comment/${c}/tree` });
        expect(tree.statusCode).toBe(404);
        const profile = await call(t.app, viewer, { method: 'GET', url: `/api/profile/comments/${alice.id}?time=all` });
        expect(profile.json().comments.map((x: { _id: string }) => x._id)).not.toContain(c);
        const search = await call(t.app, viewer, { method: 'GET', url: '/api/search/for/replies?query=FINDABLE&time=all' });
        expect(search.json().comments).toEqual([]);
      }
      const member = await call(t.app, alice, { method: 'GET', url: `/api/post/${hidden.id}/comments` });
      expect(member.json().comments[0]._id).toBe(c);
      const profile = await call(t.app, alice, { method: 'GET', url: `/api/profile/comments/${alice.id}?time=all` });
      expect(profile.json().comments.map((x: { _id: string }) => x._id)).toContain(c);
      const search = await call(t.app, alice, { method: 'GET', url: '/api/search/for/replies?query=findable&time=all' });
      expect(search.json().comments.map((x: { _id: string }) => x._id)).toEqual([c]);
    });

    it("lists a user's comments newest first within the time window", async () => {
      const dave = await createUser(t.app);
      const p = await createPost(t.app, alice);
      const a = (await comment(dave, { text: 'first by dave', parent: p.id })).json()._id;
      const b = (await comment(dave, { text: 'second by dave', parent: a })).json()._id;
      await t.app.db.insertInto('comments').values({
        id: newId(), post_id: p.id, parent_comment_id: null, author_id: dave.id, text: 'ancient', search_text: 'ancient',
        created_at: Date.now() - 30 * 24 * 3600 * 1000,
      }).execute();
      // Newest runs back to the first comment; an explicit time (or the popular sort) narrows it.
      const res = await call(t.app, null, { method: 'GET', url: `/api/profile/comments/${dave.id}?time=week` });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ comments: [expect.objectContaining({ _id: b }), expect.objectContaining({ _id: a })], hasMore: false });
      const popular = await call(t.app, null, { method: 'GET', url: `/api/profile/comments/${dave.id}?sort=popular` });
      expect(popular.json().comments).toHaveLength(2);
      const all = await call(t.app, null, { method: 'GET', url: `/api/profile/comments/${dave.id}?limit=2` });
      expect(all.json().hasMore).toBe(true);
      const bad = await call(t.app, null, { method: 'GET', url: '/api/profile/comments/nope' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toBe('error/invalid_id');
    });

    it('finds replies by folded text', async () => {
      const p = await createPost(t.app, alice);
      const c = (await comment(bob, { text: 'Žluťoučký kůň', parent: p.id })).json()._id;
      const res = await call(t.app, null, { method: 'GET', url: '/api/search/for/replies?query=zlutoucky' });
      expect(res.json().comments.map((x: { _id: string }) => x._id)).toEqual([c]);
      const empty = await call(t.app, null, { method: 'GET', url: '/api/search/for/replies?query=%20' });
      expect(empty.json()).toEqual({ comments: [], hasMore: false });
    });
  });

  describe('likes', () => {
    it('toggles, sets an explicit state, and shows liked in lists', async () => {
      const p = await createPost(t.app, alice);
      const c = (await comment(bob, { text: 'like me', parent: p.id })).json()._id;
      const like = (user: TestUser, payload?: Record<string, unknown>, headers: Record<string, string> = {}) =>
        call(t.app, user, { method: 'PATCH', url: `/api/comment/${c}/like`, ...(payload === undefined ? {} : { payload }), headers });
      expect((await like(alice)).json()).toEqual({ likes: 1, liked: true });
      expect((await like(carol)).json()).toEqual({ likes: 2, liked: true });
      expect((await like(alice)).json()).toEqual({ likes: 1, liked: false });
      expect((await like(carol, { liked: true })).json()).toEqual({ likes: 1, liked: true });
      expect((await like(alice, { liked: false })).json()).toEqual({ likes: 1, liked: false });
      const list = await call(t.app, carol, { method: 'GET', url: `/api/post/${p.id}/comments` });
      expect(list.json().comments[0]).toMatchObject({ likes: 1, liked: true });
      const headers = { 'idempotency-key': `like-${newId()}` };
      expect((await like(alice, undefined, headers)).json()).toEqual({ likes: 2, liked: true });
      expect((await like(alice, undefined, headers)).json()).toEqual({ likes: 2, liked: true });
      const missing = await call(t.app, alice, { method: 'PATCH', url: `/api/comment/${newId()}/like` });
      expect(missing.statusCode).toBe(404);
      expect(missing.json().message).toBe('error/comment_not_found');
      const anon = await call(t.app, null, { method: 'PATCH', url: `/api/comment/${c}/like` });
      expect(anon.statusCode).toBe(401);
    });
  });

  describe('deleting', () => {
    it('lets only the author delete', async () => {
      const p = await createPost(t.app, alice);
      const c = (await comment(bob, { text: 'mine', parent: p.id })).json()._id;
      const res = await call(t.app, alice, { method: 'DELETE', url: `/api/comment/${c}` });
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe('error/not_author');
      expect(await replies(c)).toBe(0);
      const missing = await call(t.app, bob, { method: 'DELETE', url: `/api/comment/${newId()}` });
      expect(missing.statusCode).toBe(404);
      expect(missing.json().message).toBe('error/comment_not_found');
    });

    it('removes a comment without replies and its counters', async () => {
      const p = await createPost(t.app, alice);
      const parent = (await comment(bob, { text: 'parent', parent: p.id })).json()._id;
      const child = (await comment(carol, { text: 'child', parent })).json()._id;
      expect(await postCounter(p.id)).toBe(2);
      const res = await call(t.app, carol, { method: 'DELETE', url: `/api/comment/${child}` });
      expect(res.json()).toEqual({ message: 'info/comment_deleted' });
      expect(await t.app.db.selectFrom('comments').select('id').where('id', '=', child).executeTakeFirst()).toBeUndefined();
      expect(await postCounter(p.id)).toBe(1);
      expect(await replies(parent)).toBe(0);
    });

    it('keeps a comment with replies as a marker, so its replies stay readable', async () => {
      const p = await createPost(t.app, alice);
      const parent = (await comment(bob, { text: 'soon gone', parent: p.id, mentions: [alice.username] })).json()._id;
      const child = (await comment(carol, { text: 'still here', parent })).json()._id;
      await call(t.app, alice, { method: 'PATCH', url: `/api/comment/${parent}/like` });
      const res = await call(t.app, bob, { method: 'DELETE', url: `/api/comment/${parent}` });
      expect(res.statusCode).toBe(200);
      const list = await call(t.app, bob, { method: 'GET', url: `/api/post/${p.id}/comments` });
      expect(list.json().comments).toEqual([
        expect.objectContaining({
          _id: parent, deleted: true, text: '', author: { username: '<deleted>', pfp: null, pfpUrl: '/media/pfp/default.jpeg' },
          mentions: [], likes: 0, itsme: false, comments: 1,
        }),
      ]);
      const childList = await call(t.app, null, { method: 'GET', url: `/api/post/${parent}/comments` });
      expect(childList.json().comments[0]).toMatchObject({ _id: child, text: 'still here', parent: { _id: parent, author: { username: '<deleted>' } } });
      expect(await postCounter(p.id)).toBe(1);
      // A marker is not a parent for new replies and cannot be deleted or liked again.
      const reply = await comment(carol, { text: 'to a marker', parent });
      expect(reply.statusCode).toBe(404);
      expect(reply.json().message).toBe('error/invalid_parent');
      expect((await call(t.app, bob, { method: 'DELETE', url: `/api/comment/${parent}` })).statusCode).toBe(404);
      expect((await call(t.app, bob, { method: 'PATCH', url: `/api/comment/${parent}/like` })).statusCode).toBe(404);
      // Hidden from the author's profile and search.
      const profile = await call(t.app, null, { method: 'GET', url: `/api/profile/comments/${bob.id}?time=all&limit=50` });
      expect(profile.json().comments.map((x: { _id: string }) => x._id)).not.toContain(parent);
      // The last reply gone, the marker has nothing left to hold and goes too.
      await call(t.app, carol, { method: 'DELETE', url: `/api/comment/${child}` });
      expect(await t.app.db.selectFrom('comments').select('id').where('post_id', '=', p.id).execute()).toEqual([]);
      expect(await postCounter(p.id)).toBe(0);
    });
  });
});
