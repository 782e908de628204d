import { describe, expect, it } from 'vitest';
import { DELETED, LIMITS } from '#core/limits';
import type { Database } from '../../src/db/schema';
import { newId } from '../../src/lib/ids';
import { getPostsForViewer } from '../../src/modules/posts/posts.service';
import { addMember, call, createGroup, createPost, createUser, type TestUser, useUsers } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';
import { expectError, expectInfo } from '../helpers/expect';

describe('posts', () => {
  const t = useTestApp();
  const { alice, bob, carol } = useUsers(t, 'alice', 'bob', 'carol');

  const create = (user: TestUser | null, payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
    call(t.app, user, { method: 'POST', url: '/api/post', payload, headers });
  const get = (user: TestUser | null, id: string) => call(t.app, user, { method: 'GET', url: `/api/post/${id}` });
  const like = (user: TestUser | null, id: string, payload?: Record<string, unknown>, headers: Record<string, string> = {}) =>
    call(t.app, user, { method: 'PATCH', url: `/api/post/${id}/like`, headers, ...(payload ? { payload } : {}) });
  const remove = (user: TestUser | null, id: string) => call(t.app, user, { method: 'DELETE', url: `/api/post/${id}` });
  const count = async (table: keyof Database, where?: [string, string]) => {
    let q = t.app.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n'));
    if (where) q = q.where(where[0] as never, '=', where[1] as never);
    return Number((await q.executeTakeFirstOrThrow()).n);
  };
  const ban = (groupId: string, user: TestUser) =>
    t.app.db.insertInto('group_bans').values({ group_id: groupId, user_id: user.id, created_at: Date.now() }).execute();

  describe('creating', () => {
    it('creates a post: 201, the view with a top-level _id, hashtags, search text and a notification job', async () => {
      const res = await create(alice, { text: '  Žluťoučký kůň #Hello #world #hello  ', mentions: [], groups: [] });
      expect(res.statusCode).toBe(201);
      const body = res.json();
      expect(body._id).toMatch(/^[0-9a-f]{24}$/);
      expect(body.post._id).toBe(body._id);
      expect(body).toMatchObject({
        text: 'Žluťoučký kůň #Hello #world #hello',
        author: { username: alice.username, pfp: alice.id },
        likes: 0,
        liked: false,
        comments: 0,
        replyingTo: null,
        groups: [],
        mentions: [],
        itsme: true,
        adminGroups: [],
        pinnedGroups: [],
        ownedGroups: [],
        bannedGroups: [],
        canReply: true,
        images: 0,
        media: [],
      });
      expect(Math.abs(body.createdAt - Date.now())).toBeLessThan(10_000);
      const tags = await t.app.db.selectFrom('post_hashtags').select('tag').where('post_id', '=', body._id).orderBy('tag').execute();
      expect(tags.map((r) => r.tag)).toEqual(['hello', 'world']);
      const row = await t.app.db.selectFrom('posts').select('search_text').where('id', '=', body._id).executeTakeFirstOrThrow();
      expect(row.search_text).toContain('zlutoucky kun');
      const jobs = await t.app.db.selectFrom('jobs').select('payload').execute();
      expect(jobs.map((j) => JSON.parse(j.payload))).toContainEqual({ kind: 'post_created', postId: body._id });
    });

    const tooLong = 'x'.repeat(LIMITS.textMaxLength + 1);
    const tooManyLines = Array.from({ length: LIMITS.textMaxLines + 1 }, () => 'line').join('\n');
    const many = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

    it.each([
      ['missing text', { mentions: [], groups: [] }, 400, 'blank_post'],
      ['blank text', { text: '   \n  ', mentions: [], groups: [] }, 400, 'blank_post'],
      ['non-string text', { text: 42, mentions: [], groups: [] }, 400, 'blank_post'],
      ['too long', { text: tooLong, mentions: [], groups: [] }, 400, 'max_post_length'],
      ['too many lines', { text: tooManyLines, mentions: [], groups: [] }, 400, 'max_post_lines'],
      ['11 mentions', { text: 'hi', mentions: many('someone', 11), groups: [] }, 400, 'mentions_up_to'],
      ['11 groups', { text: 'hi', mentions: [], groups: many('somegroup', 11) }, 400, 'groups_up_to'],
      ['a mention too long to be a name', { text: 'hi', mentions: ['m'.repeat(101)], groups: [] }, 400, 'mentions_up_to'],
      ['malformed replyingTo', { text: 'hi', replyingTo: 'nope' }, 400, 'invalid_post'],
      ['unknown replyingTo', { text: 'hi', replyingTo: newId() }, 404, 'invalid_post'],
    ])('refuses %s with nothing stored', async (_name, payload, status, key) => {
      const before = await count('posts');
      const res = await create(alice, payload);
      expect(res.statusCode).toBe(status);
      expect(res.json()).toEqual({ message: `error/${key}` });
      expect(await count('posts')).toBe(before);
    });

    it('exactly 512 characters and 32 lines are accepted', async () => {
      const lines = Array.from({ length: LIMITS.textMaxLines }, () => 'a').join('\n');
      expect((await create(alice, { text: 'y'.repeat(LIMITS.textMaxLength) })).statusCode).toBe(201);
      expect((await create(alice, { text: lines })).statusCode).toBe(201);
    });

    it('needs a token', async () => {
      const before = await count('posts');
      const res = await create(null, { text: 'hi' });
      expectError(res, 401, 'no_token');
      expect(await count('posts')).toBe(before);
    });

    it('resolves mentions and groups by id or name, keeps the rest as plain text, drops duplicates', async () => {
      const group = await createGroup(t.app, alice);
      const res = await create(alice, {
        text: 'tagging',
        mentions: [bob.id, bob.username.toUpperCase(), carol.username, 'nobody_here', 'NOBODY_HERE'],
        groups: [group.name.toUpperCase(), group.id, 'no such group'],
      });
      expect(res.statusCode).toBe(201);
      const body = res.json();
      expect(body.mentions).toEqual([
        { _id: bob.id, username: bob.username },
        { _id: carol.id, username: carol.username },
        { _id: null, username: 'nobody_here' },
      ]);
      expect(body.groups).toEqual([
        { _id: group.id, name: group.name },
        { _id: null, name: 'no such group' },
      ]);
      expect(body.ownedGroups).toEqual([0]);
      expect(body.adminGroups).toEqual([0]);
      expect(await count('post_mentions', ['post_id', body._id])).toBe(3);
      expect(await count('post_groups', ['post_id', body._id])).toBe(2);
    });

    it('twelve entries that de-duplicate to ten are accepted', async () => {
      const mentions = [...many('person', 10), 'PERSON0', 'person1'];
      const res = await create(alice, { text: 'ten', mentions });
      expect(res.statusCode).toBe(201);
      expect(res.json().mentions).toHaveLength(10);
    });

    it('posting into a group needs membership, no ban, and posting rights', async () => {
      const open = await createGroup(t.app, bob);
      const adminsOnly = await createGroup(t.app, bob, { everyoneCanPost: false });
      await addMember(t.app, adminsOnly.id, carol);
      const banning = await createGroup(t.app, bob);
      await ban(banning.id, carol);
      const before = await count('posts');
      for (const [groups, key] of [
        [[open.name], 'not_member'],
        [[adminsOnly.id], 'need_admin'],
        [[banning.name], 'banned'],
      ] as const) {
        const res = await create(carol, { text: 'let me in', groups });
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ message: `error/${key}` });
      }
      expect(await count('posts')).toBe(before);
      await addMember(t.app, open.id, carol);
      expect((await create(carol, { text: 'member now', groups: [open.name] })).statusCode).toBe(201);
      expect((await create(bob, { text: 'owner may', groups: [adminsOnly.name] })).statusCode).toBe(201);
      const admin = await createUser(t.app);
      await addMember(t.app, adminsOnly.id, admin, 'admin');
      expect((await create(admin, { text: 'admin may', groups: [adminsOnly.name] })).statusCode).toBe(201);
    });

    it('a reply points at a visible original; a hidden original is refused', async () => {
      const original = await createPost(t.app, bob);
      const res = await create(alice, { text: 'reply', replyingTo: original.id });
      expect(res.statusCode).toBe(201);
      expect(res.json().replyingTo).toBe(original.id);

      const secret = await createGroup(t.app, bob, { isPrivate: true });
      const hidden = await createPost(t.app, bob, { groupIds: [secret.id] });
      const before = await count('posts');
      const refused = await create(alice, { text: 'reply', replyingTo: hidden.id });
      expectError(refused, 404, 'invalid_post');
      expect(await count('posts')).toBe(before);
    });
  });

  describe('idempotent creation', () => {
    it('a retry with the same Idempotency-Key answers the first post and creates nothing', async () => {
      const headers = { 'idempotency-key': `retry-${newId()}` };
      const before = await count('posts');
      const first = await create(alice, { text: 'once' }, headers);
      const second = await create(alice, { text: 'once' }, headers);
      expect(first.statusCode).toBe(201);
      expect(second.statusCode).toBe(201);
      expect(second.json()._id).toBe(first.json()._id);
      expect(await count('posts')).toBe(before + 1);
      const third = await create(alice, { text: 'once' }, { 'idempotency-key': `other-${newId()}` });
      expect(third.json()._id).not.toBe(first.json()._id);
      expect(await count('posts')).toBe(before + 2);
    });

    it('two concurrent calls with one key create one post', async () => {
      const headers = { 'idempotency-key': `race-${newId()}` };
      const before = await count('posts');
      const [a, b] = await Promise.all([create(alice, { text: 'race' }, headers), create(alice, { text: 'race' }, headers)]);
      expect(a.statusCode).toBe(201);
      expect(b.statusCode).toBe(201);
      expect(a.json()._id).toBe(b.json()._id);
      expect(await count('posts')).toBe(before + 1);
    });

    it('a refused call keeps nothing, so a corrected retry with the same key goes through', async () => {
      const headers = { 'idempotency-key': `fix-${newId()}` };
      expect((await create(alice, { text: ' ' }, headers)).statusCode).toBe(400);
      const res = await create(alice, { text: 'fixed' }, headers);
      expect(res.statusCode).toBe(201);
      expect(res.json().text).toBe('fixed');
    });
  });

  describe('reading', () => {
    it('GET /post/{id}: invalid id, missing post', async () => {
      const bad = await get(null, 'not-an-id');
      expectError(bad, 400, 'invalid_post');
      const missing = await get(null, newId());
      expectError(missing, 404, 'didnt_find_post');
    });

    it('a private-group post is a 404 for visitors and non-members, visible to members', async () => {
      const secret = await createGroup(t.app, bob, { isPrivate: true });
      await addMember(t.app, secret.id, carol);
      const post = await createPost(t.app, bob, { groupIds: [secret.id] });
      for (const viewer of [null, alice]) {
        const res = await get(viewer, post.id);
        expectError(res, 404, 'didnt_find_post');
        expect((await call(t.app, viewer, { method: 'GET', url: `/api/post/${post.id}/groups` })).statusCode).toBe(404);
      }
      expect((await get(carol, post.id)).statusCode).toBe(200);
      const groups = await call(t.app, carol, { method: 'GET', url: `/api/post/${post.id}/groups` });
      expect(groups.json()).toEqual([secret.name]);
    });

    it('GET /post/{id}/groups lists the names in tag order', async () => {
      const g1 = await createGroup(t.app, alice);
      const g2 = await createGroup(t.app, alice);
      const post = await createPost(t.app, alice, { groupIds: [g2.id, g1.id] });
      const res = await call(t.app, null, { method: 'GET', url: `/api/post/${post.id}/groups` });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual([g2.name, g1.name]);
      expect((await call(t.app, null, { method: 'GET', url: `/api/post/${newId()}/groups` })).statusCode).toBe(404);
    });

    it('group flags are indexes into groups, seen from the caller', async () => {
      const owned = await createGroup(t.app, alice);
      const administered = await createGroup(t.app, bob);
      await addMember(t.app, administered.id, alice, 'admin');
      await addMember(t.app, administered.id, carol);
      const plain = await createGroup(t.app, bob, { everyoneCanPost: false });
      await addMember(t.app, plain.id, carol);
      await addMember(t.app, owned.id, carol);
      const post = await createPost(t.app, carol, { groupIds: [plain.id, owned.id, administered.id] });
      await t.app.db.updateTable('groups').set({ pinned_post_id: post.id }).where('id', '=', administered.id).execute();
      await ban(owned.id, carol);

      const asAlice = (await get(alice, post.id)).json();
      expect(asAlice.groups.map((g: { _id: string }) => g._id)).toEqual([plain.id, owned.id, administered.id]);
      expect(asAlice.adminGroups).toEqual([1, 2]);
      expect(asAlice.ownedGroups).toEqual([1]);
      expect(asAlice.pinnedGroups).toEqual([2]);
      expect(asAlice.bannedGroups).toEqual([1]);
      expect(asAlice.itsme).toBe(false);
      // Alice is not a member of `plain`, so she may not reply into all of the post's groups.
      expect(asAlice.canReply).toBe(false);

      const asBob = (await get(bob, post.id)).json();
      expect(asBob.adminGroups).toEqual([0, 2]);
      expect(asBob.ownedGroups).toEqual([0, 2]);
      expect(asBob.canReply).toBe(false);

      const asCarol = (await get(carol, post.id)).json();
      expect(asCarol.itsme).toBe(true);
      expect(asCarol.adminGroups).toEqual([]);
      expect(asCarol.canReply).toBe(false);

      const visitor = (await get(null, post.id)).json();
      expect(visitor).toMatchObject({ adminGroups: [], ownedGroups: [], pinnedGroups: [2], bannedGroups: [1], canReply: false, liked: false });

      // The owner's post in a group: its admins are told, so no ban is offered on it.
      const byOwner = await createPost(t.app, bob, { groupIds: [plain.id, owned.id] });
      expect((await get(alice, byOwner.id)).json().authorOwnedGroups).toEqual([0]);
      expect((await get(alice, post.id)).json().authorOwnedGroups).toEqual([]);

      const free = await createPost(t.app, carol, { groupIds: [administered.id] });
      expect((await get(bob, free.id)).json().canReply).toBe(true);
      expect((await get(alice, free.id)).json().canReply).toBe(true);
    });

    it("the reader's own ban in one of the post's groups takes their reply away, and only theirs", async () => {
      const open = await createGroup(t.app, bob);
      const other = await createGroup(t.app, bob);
      for (const user of [alice, carol]) {
        await addMember(t.app, open.id, user);
        await addMember(t.app, other.id, user);
      }
      const post = await createPost(t.app, bob, { groupIds: [open.id, other.id] });
      await ban(other.id, alice);
      expect((await get(alice, post.id)).json()).toMatchObject({ canReply: false, bannedGroups: [] });
      expect((await get(carol, post.id)).json()).toMatchObject({ canReply: true, bannedGroups: [] });
      // On a page of several posts the ban counts only where the banned one reads or wrote.
      const own = await createPost(t.app, alice, { groupIds: [other.id, open.id] });
      const [asCarol, asCarolToo] = await getPostsForViewer(t.app.db, [own.id, post.id], carol.id);
      expect(asCarol).toMatchObject({ bannedGroups: [0], canReply: true });
      expect(asCarolToo).toMatchObject({ bannedGroups: [], canReply: true });
    });

    it('a deleted author shows as <deleted>; a reply to a removed post says so', async () => {
      const ghost = await createUser(t.app);
      const post = await createPost(t.app, ghost);
      const reply = await createPost(t.app, alice, { replyTo: post.id });
      await t.app.db.deleteFrom('users').where('id', '=', ghost.id).execute();
      const res = (await get(null, post.id)).json();
      expect(res.author).toEqual({ username: DELETED, pfp: 'default', pfpUrl: '/media/pfp/default.jpeg' });
      expect((await get(null, reply.id)).json().replyingTo).toBe(post.id);
      await t.app.db.deleteFrom('posts').where('id', '=', post.id).execute();
      expect((await get(null, reply.id)).json().replyingTo).toBe(DELETED);
    });

    it('a reply to a post hidden from the reader (a block, a suspended author) names no original for them', async () => {
      const writer = await createUser(t.app);
      const original = await createPost(t.app, writer);
      const reply = await createPost(t.app, alice, { replyTo: original.id });
      await t.app.db.insertInto('user_blocks').values({ blocker_id: writer.id, blocked_id: bob.id, created_at: Date.now() }).execute();
      expect((await get(bob, reply.id)).json().replyingTo).toBe(DELETED);
      expect((await get(carol, reply.id)).json().replyingTo).toBe(original.id);
      await t.app.db.updateTable('users').set({ suspended_at: Date.now() }).where('id', '=', writer.id).execute();
      expect((await get(carol, reply.id)).json().replyingTo).toBe(DELETED);
      expect((await get(null, reply.id)).json().replyingTo).toBe(DELETED);
    });

    it('media lists one URL per image; images of private posts are signed', async () => {
      const post = await createPost(t.app, alice);
      await t.app.db.updateTable('posts').set({ images: 2 }).where('id', '=', post.id).execute();
      const res = (await get(null, post.id)).json();
      expect(res.images).toBe(2);
      expect(res.media).toEqual([`/media/${post.id}0.webp`, `/media/${post.id}1.webp`]);

      const secret = await createGroup(t.app, alice, { isPrivate: true });
      const hidden = await createPost(t.app, alice, { groupIds: [secret.id] });
      await t.app.db.updateTable('posts').set({ images: 1 }).where('id', '=', hidden.id).execute();
      const signed = (await get(alice, hidden.id)).json();
      expect(signed.media).toHaveLength(1);
      expect(signed.media[0]).toMatch(new RegExp(`^/media/${hidden.id}0\\.webp\\?exp=\\d+&sig=`));
    });

    it('getPostsForViewer keeps the given order and drops missing and hidden posts', async () => {
      const secret = await createGroup(t.app, bob, { isPrivate: true });
      const a = await createPost(t.app, alice);
      const b = await createPost(t.app, bob, { groupIds: [secret.id] });
      const c = await createPost(t.app, carol);
      const views = await getPostsForViewer(t.app.db, [c.id, newId(), b.id, a.id], alice.id);
      expect(views.map((v) => v._id)).toEqual([c.id, a.id]);
      const asBob = await getPostsForViewer(t.app.db, [b.id, a.id], bob.id);
      expect(asBob.map((v) => v._id)).toEqual([b.id, a.id]);
    });
  });

  describe('likes', () => {
    it('toggles, keeping the counter in step', async () => {
      const post = await createPost(t.app, alice);
      const on = await like(bob, post.id);
      expect(on.statusCode).toBe(200);
      expect(on.json()).toEqual({ likes: 1, liked: true });
      expect((await like(carol, post.id)).json()).toEqual({ likes: 2, liked: true });
      expect((await get(bob, post.id)).json()).toMatchObject({ likes: 2, liked: true });
      expect((await like(bob, post.id)).json()).toEqual({ likes: 1, liked: false });
      expect(await count('post_likes', ['post_id', post.id])).toBe(1);
    });

    it('{liked} sets the state, so repeating it changes nothing', async () => {
      const post = await createPost(t.app, alice);
      expect((await like(bob, post.id, { liked: true })).json()).toEqual({ likes: 1, liked: true });
      expect((await like(bob, post.id, { liked: true })).json()).toEqual({ likes: 1, liked: true });
      expect((await like(bob, post.id, { liked: false })).json()).toEqual({ likes: 0, liked: false });
      expect((await like(bob, post.id, { liked: false })).json()).toEqual({ likes: 0, liked: false });
      const bad = await like(bob, post.id, { liked: 'yes' });
      expect(bad.statusCode).toBe(400);
      expect(await count('post_likes', ['post_id', post.id])).toBe(0);
    });

    it('a retried toggle with the same Idempotency-Key toggles once', async () => {
      const post = await createPost(t.app, alice);
      const headers = { 'idempotency-key': `like-${newId()}` };
      expect((await like(bob, post.id, undefined, headers)).json()).toEqual({ likes: 1, liked: true });
      expect((await like(bob, post.id, undefined, headers)).json()).toEqual({ likes: 1, liked: true });
      const [a, b] = await Promise.all([
        like(carol, post.id, undefined, { 'idempotency-key': `race-${post.id}` }),
        like(carol, post.id, undefined, { 'idempotency-key': `race-${post.id}` }),
      ]);
      expect(a.json()).toEqual(b.json());
      expect((await get(null, post.id)).json().likes).toBe(2);
    });

    it('needs a token and a visible post', async () => {
      const post = await createPost(t.app, alice);
      const anonymous = await like(null, post.id);
      expectError(anonymous, 401, 'no_token');
      const missing = await like(bob, newId());
      expectError(missing, 404, 'didnt_find_post');
      const secret = await createGroup(t.app, alice, { isPrivate: true });
      const hidden = await createPost(t.app, alice, { groupIds: [secret.id] });
      expect((await like(bob, hidden.id)).statusCode).toBe(404);
      expect(await count('post_likes', ['post_id', hidden.id])).toBe(0);
    });
  });

  describe('deleting', () => {
    it('only the author may delete; others get not_author or 404', async () => {
      const post = await createPost(t.app, alice);
      const anonymous = await remove(null, post.id);
      expectError(anonymous, 401, 'no_token');
      const other = await remove(bob, post.id);
      expectError(other, 403, 'not_author');
      const missing = await remove(alice, newId());
      expectError(missing, 404, 'didnt_find_post');
      expect(await count('posts', ['id', post.id])).toBe(1);
    });

    it('removes the post with its likes, comments, tags and media, and clears a pin', async () => {
      const group = await createGroup(t.app, alice);
      const created = await create(alice, { text: 'bye #gone', mentions: [bob.username], groups: [group.name] });
      const id = created.json()._id as string;
      await like(bob, id);
      await t.app.db.updateTable('groups').set({ pinned_post_id: id }).where('id', '=', group.id).execute();
      const commentId = newId();
      const now = Date.now();
      await t.app.db
        .insertInto('comments')
        .values({ id: commentId, post_id: id, parent_comment_id: null, author_id: bob.id, text: 'c', images: 1, search_text: 'c', created_at: now })
        .execute();
      await t.app.db
        .insertInto('comments')
        .values({ id: newId(), post_id: id, parent_comment_id: commentId, author_id: carol.id, text: 'r', search_text: 'r', created_at: now })
        .execute();
      await t.app.db.insertInto('comment_likes').values({ comment_id: commentId, user_id: alice.id, created_at: now }).execute();
      await t.app.db.updateTable('posts').set({ images: 2 }).where('id', '=', id).execute();
      for (const key of [`${id}0.webp`, `${id}1.webp`, `${commentId}0.webp`]) await t.app.storage.put(key, Buffer.from('img'));
      const reply = await createPost(t.app, carol, { replyTo: id });

      const res = await remove(alice, id);
      expectInfo(res, 'post_deleted');

      expect(await count('posts', ['id', id])).toBe(0);
      for (const table of ['post_likes', 'post_mentions', 'post_groups', 'post_hashtags', 'comments'] as const) {
        expect(await count(table, ['post_id', id])).toBe(0);
      }
      expect(await count('comment_likes', ['comment_id', commentId])).toBe(0);
      const pinned = await t.app.db.selectFrom('groups').select('pinned_post_id').where('id', '=', group.id).executeTakeFirstOrThrow();
      expect(pinned.pinned_post_id).toBeNull();
      for (const key of [`${id}0.webp`, `${id}1.webp`, `${commentId}0.webp`]) expect(await t.app.storage.get(key)).toBeNull();
      expect((await get(null, id)).statusCode).toBe(404);
      expect((await get(null, reply.id)).json().replyingTo).toBe(DELETED);
    });
  });
});
