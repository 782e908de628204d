import { describe, expect, it } from 'vitest';
import { LIMITS } from '#core/limits';
import { newId } from '../../src/lib/ids';
import { addMember, call, createGroup, createPost, createUser, type TestUser, useUsers } from '../helpers/fixtures';
import { expectError } from '../helpers/expect';
import { useTestApp } from '../helpers/test-app';
import { createComment, drain } from '../notifications/support';

/**
 * Editing a post: only its author changes the text, under the rules of writing a post; the groups
 * stay; hashtags, search and mentions follow the new text; a newly mentioned person is told once.
 */
describe('editing a post', () => {
  // Many posts and mentions by the same few people: the hourly abuse limits are not what is tested here.
  const t = useTestApp({ RATE_POSTS_PER_HOUR: '1000', RATE_STRANGER_MENTIONS_PER_HOUR: '1000' });
  const { alice, bob, carol, dave } = useUsers(t, 'alice', 'bob', 'carol', 'dave');

  const publish = async (user: TestUser, payload: Record<string, unknown>) => {
    const res = await call(t.app, user, { method: 'POST', url: '/api/post', payload });
    expect(res.statusCode).toBe(201);
    return res.json()._id as string;
  };
  const edit = (user: TestUser | null, id: string, payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
    call(t.app, user, { method: 'PATCH', url: `/api/post/${id}`, payload, headers });
  const get = (user: TestUser | null, id: string) => call(t.app, user, { method: 'GET', url: `/api/post/${id}` });
  const listIds = async (user: TestUser | null, url: string) => {
    const res = await call(t.app, user, { method: 'GET', url });
    expect(res.statusCode).toBe(200);
    return (res.json().posts as { _id: string }[]).map((p) => p._id);
  };
  /** Everything an edit may change, to show that a refusal changed none of it. */
  const snapshot = async (id: string) => ({
    post: await t.app.db.selectFrom('posts').select(['text', 'search_text', 'content_warning', 'edited_at']).where('id', '=', id).executeTakeFirst(),
    versions: await t.app.db.selectFrom('post_edits').select('text').where('post_id', '=', id).execute(),
    tags: await t.app.db.selectFrom('post_hashtags').select('tag').where('post_id', '=', id).orderBy('tag').execute(),
    mentions: await t.app.db.selectFrom('post_mentions').select(['user_id', 'username']).where('post_id', '=', id).orderBy('position').execute(),
    jobs: await t.app.db.selectFrom('jobs').select('payload').execute(),
  });
  const mentionItems = (user: TestUser, postId: string) =>
    t.app.db.selectFrom('notifications').select(['type', 'actor_id']).where('user_id', '=', user.id).where('post_id', '=', postId).execute();

  it('the author changes the text: 200 with the new card, editedAt set, createdAt kept', async () => {
    const id = await publish(alice, { text: 'first words' });
    const before = (await get(alice, id)).json();
    expect(before.editedAt).toBeNull();

    const res = await edit(alice, id, { text: '  second words  ' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ _id: id, text: 'second words', createdAt: before.createdAt, itsme: true });
    expect(Math.abs(body.editedAt - Date.now())).toBeLessThan(10_000);
    expect(body.editedAt).toBeGreaterThanOrEqual(before.createdAt);
    // Anyone reading the post sees the new text and that it was edited.
    const seen = (await get(bob, id)).json();
    expect(seen).toMatchObject({ text: 'second words', editedAt: body.editedAt });
  });

  describe('refusals change nothing', () => {
    const tooLong = 'x'.repeat(LIMITS.textMaxLength + 1);
    const tooManyLines = Array.from({ length: LIMITS.textMaxLines + 1 }, () => 'line').join('\n');

    it.each([
      ['missing text', {}, 400, 'blank_post'],
      ['blank text', { text: '  \n ' }, 400, 'blank_post'],
      ['non-string text', { text: 7 }, 400, 'blank_post'],
      ['a text over the length limit', { text: tooLong }, 400, 'max_post_length'],
      ['a text over the line limit', { text: tooManyLines }, 400, 'max_post_lines'],
      ['eleven mentions', { text: 'hi', mentions: Array.from({ length: 11 }, (_, i) => `someone${i}`) }, 400, 'mentions_up_to'],
      ['a content warning over its limit', { text: 'hi', contentWarning: 'w'.repeat(LIMITS.contentWarningMaxLength + 1) }, 400, 'max_content_warning_length'],
    ])('refuses %s', async (_name, payload, status, key) => {
      const id = await publish(alice, { text: 'kept #kept', mentions: [bob.username] });
      const before = await snapshot(id);
      expectError(await edit(alice, id, payload), status, key);
      expect(await snapshot(id)).toEqual(before);
    });

    it('the edit at the length limit is accepted (the limit is the one of a new post)', async () => {
      const id = await publish(alice, { text: 'short' });
      expect((await edit(alice, id, { text: 'y'.repeat(LIMITS.textMaxLength) })).statusCode).toBe(200);
    });

    it('someone else than the author gets 403 not_author; a visitor 401 no_token', async () => {
      const id = await publish(alice, { text: 'mine #mine' });
      const before = await snapshot(id);
      expectError(await edit(bob, id, { text: 'yours now' }), 403, 'not_author');
      expectError(await edit(null, id, { text: 'anyone' }), 401, 'no_token');
      expect(await snapshot(id)).toEqual(before);
    });

    it('an unknown id is 404 didnt_find_post, a malformed one 400 invalid_post', async () => {
      expectError(await edit(alice, newId(), { text: 'nothing there' }), 404, 'didnt_find_post');
      expectError(await edit(alice, 'nope', { text: 'nothing there' }), 400, 'invalid_post');
    });

    it('a post of a private group is 404 to an outsider, as if it did not exist', async () => {
      const secret = await createGroup(t.app, alice, { isPrivate: true });
      const post = await createPost(t.app, alice, { text: 'members only', groupIds: [secret.id] });
      const before = await snapshot(post.id);
      expectError(await edit(bob, post.id, { text: 'leaked' }), 404, 'didnt_find_post');
      await addMember(t.app, secret.id, bob);
      expectError(await edit(bob, post.id, { text: 'still not mine' }), 403, 'not_author');
      expect(await snapshot(post.id)).toEqual(before);
    });

    it('an author banned from, no longer in, or not allowed to post in the post\'s group cannot edit', async () => {
      const banning = await createGroup(t.app, bob);
      const left = await createGroup(t.app, bob);
      const adminsOnly = await createGroup(t.app, bob);
      const author = await createUser(t.app);
      for (const group of [banning, left, adminsOnly]) await addMember(t.app, group.id, author);
      const posts = {
        banned: await createPost(t.app, author, { groupIds: [banning.id] }),
        not_member: await createPost(t.app, author, { groupIds: [left.id] }),
        need_admin: await createPost(t.app, author, { groupIds: [adminsOnly.id] }),
      };
      await t.app.db.insertInto('group_bans').values({ group_id: banning.id, user_id: author.id, created_at: Date.now() }).execute();
      await t.app.db.deleteFrom('group_members').where('group_id', '=', left.id).where('user_id', '=', author.id).execute();
      await t.app.db.updateTable('groups').set({ everyone_can_post: 0 }).where('id', '=', adminsOnly.id).execute();
      for (const [key, post] of Object.entries(posts)) {
        const before = await snapshot(post.id);
        expectError(await edit(author, post.id, { text: 'new words' }), 403, key);
        expect(await snapshot(post.id)).toEqual(before);
      }
    });

    it('a key reused with another text is 422 idempotency_mismatch and changes nothing more', async () => {
      const id = await publish(alice, { text: 'one' });
      const headers = { 'idempotency-key': `edit-${newId()}` };
      expect((await edit(alice, id, { text: 'two' }, headers)).statusCode).toBe(200);
      const before = await snapshot(id);
      expectError(await edit(alice, id, { text: 'three' }, headers), 422, 'idempotency_mismatch');
      expect(await snapshot(id)).toEqual(before);
    });
  });

  it('hashtag feeds and search follow the new text', async () => {
    const id = await publish(alice, { text: 'about #Oldtag and pomeranče' });
    expect(await listIds(null, '/api/feed/hash/oldtag')).toContain(id);
    expect(await listIds(null, '/api/search/for/posts?query=pomerance')).toContain(id);

    expect((await edit(alice, id, { text: 'about #Newtag and švestky' })).statusCode).toBe(200);
    expect(await listIds(null, '/api/feed/hash/oldtag')).not.toContain(id);
    expect(await listIds(null, '/api/feed/hash/newtag')).toContain(id);
    expect(await listIds(null, '/api/search/for/posts?query=pomerance')).not.toContain(id);
    expect(await listIds(null, '/api/search/for/posts?query=svestky')).toContain(id);
  });

  it('mentions are replaced when sent and kept when left out; groups never change', async () => {
    const group = await createGroup(t.app, alice);
    const id = await publish(alice, { text: 'hi', mentions: [bob.username], groups: [group.name] });
    const kept = (await edit(alice, id, { text: 'hi again', groups: [] })).json();
    expect(kept.mentions).toEqual([{ _id: bob.id, username: bob.username }]);
    expect(kept.groups).toEqual([{ _id: group.id, name: group.name }]);
    const replaced = (await edit(alice, id, { text: 'hi all', mentions: [carol.id, 'nobody_here'] })).json();
    expect(replaced.mentions).toEqual([{ _id: carol.id, username: carol.username }, { _id: null, username: 'nobody_here' }]);
    expect(replaced.groups).toEqual([{ _id: group.id, name: group.name }]);
  });

  it('changing only the mentions keeps the text and adds no version', async () => {
    const id = await publish(alice, { text: 'same text' });
    const res = await edit(alice, id, { text: 'same text', mentions: [bob.username] });
    expect(res.statusCode).toBe(200);
    expect(res.json().editedAt).toBeNull();
    expect((await snapshot(id)).versions).toEqual([]);
  });

  describe('notifications', () => {
    it('a newly mentioned person is told once, even when the edit is resent; earlier mentions, likers and repliers are not', async () => {
      const erin = await createUser(t.app);
      const id = await publish(alice, { text: 'hello', mentions: [bob.username] });
      // Dave likes it and Erin answers it; all of it delivered before the edit.
      expect((await call(t.app, dave, { method: 'PATCH', url: `/api/post/${id}/like`, payload: { liked: true } })).statusCode).toBe(200);
      await createComment(t.app, erin, id);
      await drain(t.app);
      expect(await mentionItems(bob, id)).toEqual([{ type: 'MENTION', actor_id: alice.id }]);
      const beforeAll = await t.app.db.selectFrom('notifications').select('id').execute();

      const headers = { 'idempotency-key': `edit-${newId()}` };
      const payload = { text: 'hello both', mentions: [bob.username, carol.username] };
      const first = await edit(alice, id, payload, headers);
      const retry = await edit(alice, id, payload, headers);
      expect(first.statusCode).toBe(200);
      expect(retry.statusCode).toBe(200);
      expect(retry.json()).toEqual(first.json());
      expect((await snapshot(id)).versions).toHaveLength(1);
      await drain(t.app);

      expect(await mentionItems(carol, id)).toEqual([{ type: 'MENTION', actor_id: alice.id }]);
      expect(await mentionItems(bob, id)).toHaveLength(1);
      for (const user of [dave, erin, alice]) expect(await mentionItems(user, id)).toEqual([]);
      const after = await t.app.db.selectFrom('notifications').select('id').execute();
      expect(after.length).toBe(beforeAll.length + 1);

      // Another edit that keeps Carol tells her nothing more.
      expect((await edit(alice, id, { text: 'hello both again', mentions: [carol.username, bob.username] })).statusCode).toBe(200);
      await drain(t.app);
      expect(await mentionItems(carol, id)).toHaveLength(1);
    });

    it('editing a reply does not tell the original\'s author again', async () => {
      const original = await publish(bob, { text: 'original' });
      const reply = await publish(carol, { text: 'a reply', replyingTo: original });
      await drain(t.app);
      expect(await mentionItems(bob, reply)).toEqual([{ type: 'NEW_REPLY', actor_id: carol.id }]);
      expect((await edit(carol, reply, { text: 'a better reply', mentions: [bob.username] })).statusCode).toBe(200);
      await drain(t.app);
      expect(await mentionItems(bob, reply)).toEqual([{ type: 'NEW_REPLY', actor_id: carol.id }]);
    });

    it('a person newly mentioned in a private group post they cannot see is not told', async () => {
      const secret = await createGroup(t.app, alice, { isPrivate: true });
      const post = await createPost(t.app, alice, { text: 'members only', groupIds: [secret.id] });
      expect((await edit(alice, post.id, { text: 'members only, hi', mentions: [dave.username] })).statusCode).toBe(200);
      await drain(t.app);
      expect(await mentionItems(dave, post.id)).toEqual([]);
    });
  });
});

describe('mentioning strangers in an edit', () => {
  // One mention of a stranger per hour: an edit counts the people it newly mentions, as a post does.
  const t = useTestApp({ RATE_STRANGER_MENTIONS_PER_HOUR: '1' });
  const { alice, bob, carol } = useUsers(t, 'alice', 'bob', 'carol');

  it('takes the same hourly limit as a new post, for newly mentioned people only, and a refusal changes nothing', async () => {
    const post = await createPost(t.app, alice, { text: 'plain' });
    const edit = (payload: Record<string, unknown>) => call(t.app, alice, { method: 'PATCH', url: `/api/post/${post.id}`, payload });
    expect((await edit({ text: 'hi bob', mentions: [bob.username] })).statusCode).toBe(200);
    // Bob is mentioned already: keeping him costs nothing.
    expect((await edit({ text: 'hi again bob', mentions: [bob.username] })).statusCode).toBe(200);
    const before = await t.app.db.selectFrom('posts').select(['text', 'edited_at']).where('id', '=', post.id).executeTakeFirstOrThrow();
    const carolOnce = await call(t.app, alice, { method: 'POST', url: '/api/post', payload: { text: 'hi carol', mentions: [carol.username] } });
    expect(carolOnce.statusCode).toBe(201);
    expectError(await edit({ text: 'hi carol too', mentions: [bob.username, carol.username] }), 429, 'mention_limit');
    expect(await t.app.db.selectFrom('posts').select(['text', 'edited_at']).where('id', '=', post.id).executeTakeFirstOrThrow()).toEqual(before);
    const versions = await t.app.db.selectFrom('post_edits').select('text').where('post_id', '=', post.id).execute();
    expect(versions).toHaveLength(2);
  });
});

describe('edits are limited per hour', () => {
  const t = useTestApp({ RATE_EDITS_PER_HOUR: '2' });

  it('refuses the third change within the hour, changing nothing; an edit that changes nothing is not counted', async () => {
    const author = await createUser(t.app);
    const post = await createPost(t.app, author, { text: 'first words' });
    const edit = (text: string) => call(t.app, author, { method: 'PATCH', url: `/api/post/${post.id}`, payload: { text } });
    expect((await edit('second words')).statusCode).toBe(200);
    expect((await edit('second words')).statusCode).toBe(200);
    expect((await edit('third words')).statusCode).toBe(200);
    expectError(await edit('fourth words'), 429, 'edit_limit');
    expect((await t.app.db.selectFrom('posts').select('text').where('id', '=', post.id).executeTakeFirstOrThrow()).text).toBe('third words');
    expect(await t.app.db.selectFrom('post_edits').select('text').where('post_id', '=', post.id).orderBy('replaced_at').execute()).toEqual([
      { text: 'first words' },
      { text: 'second words' },
    ]);
  });
});
