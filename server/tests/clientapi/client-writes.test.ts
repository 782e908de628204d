import type { TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import { Relationship, Status } from '#core/api/client-entities';
import { LIMITS } from '#core/limits';
import { DeletedStatus, StatusSource, StatusVersion } from '#core/api/client-writes';
import en from '../../../locales/en/error.json' with { type: 'json' };
import { localNamesIn } from '../../src/modules/clientapi/statuses-write.service';
import { addMember, createGroup, createPost, createUser, type TestUser } from '../helpers/fixtures';
import { runJobs } from '../helpers/steps';
import { useTestApp } from '../helpers/test-app';
import { appToken, form } from './oauth-helpers';

/** The client API's writes: statuses, likes, follows, blocks, mutes and groups' accounts, as apps call them. */

const t = useTestApp({ RATE_POSTS_PER_HOUR: '3' });

function expectShape(schema: TSchema, value: unknown) {
  const errors = [...Value.Errors(schema, value)].slice(0, 3).map((e) => `${e.path}: ${e.message}`);
  expect(errors).toEqual([]);
}

/** A person with an app's token granting `scope`, and a call as that app. */
async function appUser(scope = 'read write') {
  const user = await createUser(t.app);
  const token = await appToken(t.app, user, scope);
  const send = (method: 'POST' | 'DELETE' | 'GET' | 'PUT', url: string, payload?: Record<string, unknown>, headers: Record<string, string> = {}) =>
    t.app.inject({ method, url, headers: { authorization: `Bearer ${token}`, ...headers }, ...(payload ? { payload } : {}) });
  return { user, token, send };
}

const refusal = (key: keyof typeof en) => ({ error: en[key], message: `error/${key}` });
const answer = (res: { statusCode: number; json(): unknown }) => ({ status: res.statusCode, body: res.json() });

describe('client API: writing statuses', () => {
  it('posts a status with a content warning, answered as the status and readable by anyone', async () => {
    const { user, send } = await appUser();
    const res = await send('POST', '/api/v1/statuses', { status: 'Hello from an app #kruhapps', spoiler_text: 'greetings', visibility: 'public', language: 'en' });
    expect(res.statusCode, res.body).toBe(200);
    const status = res.json();
    expectShape(Status, status);
    expect(status).toMatchObject({ account: { id: user.id }, spoiler_text: 'greetings', sensitive: true, visibility: 'public', tags: [{ name: 'kruhapps' }] });
    expect(status.content).toContain('Hello from an app');
    const row = await t.app.db.selectFrom('posts').select(['author_id', 'text']).where('id', '=', status.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ author_id: user.id, text: 'Hello from an app #kruhapps' });
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/statuses/${status.id}` })).json().id).toBe(status.id);
  });

  it('takes a form, as many apps send it', async () => {
    const { user, token } = await appUser();
    const { headers, payload } = form({ status: 'sent as a form', sensitive: 'true' });
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/statuses', headers: { ...headers, authorization: `Bearer ${token}` }, payload });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ account: { id: user.id }, spoiler_text: 'Sensitive', sensitive: true });
  });

  it('a reply to a post that fits a comment is a comment; one with a warning is a reply-with-post; a reply to a comment a comment under it', async () => {
    const author = await createUser(t.app);
    const post = await createPost(t.app, author);
    const { user, send } = await appUser();
    const comment = (await send('POST', '/api/v1/statuses', { status: 'nice one', in_reply_to_id: post.id })).json();
    expect(comment).toMatchObject({ id: expect.stringMatching(/^c[0-9a-f]{24}$/), in_reply_to_id: post.id, account: { id: user.id } });
    const stored = await t.app.db.selectFrom('comments').select(['post_id', 'parent_comment_id']).where('id', '=', comment.id.slice(1)).executeTakeFirstOrThrow();
    expect(stored).toEqual({ post_id: post.id, parent_comment_id: null });
    const answerToComment = (await send('POST', '/api/v1/statuses', { status: 'and to you', in_reply_to_id: comment.id })).json();
    expect(answerToComment).toMatchObject({ in_reply_to_id: comment.id });
    const warned = (await send('POST', '/api/v1/statuses', { status: 'spoilers ahead', spoiler_text: 'plot', in_reply_to_id: post.id })).json();
    expect(warned.id).toMatch(/^[0-9a-f]{24}$/);
    const replyRow = await t.app.db.selectFrom('posts').select(['reply_to', 'content_warning']).where('id', '=', warned.id).executeTakeFirstOrThrow();
    expect(replyRow).toEqual({ reply_to: post.id, content_warning: 'plot' });
    expect(answer(await send('POST', '/api/v1/statuses', { status: 'x', in_reply_to_id: 'c000000000000000000000000' }))).toMatchObject({ status: 404 });
  });

  it("refuses with Kruh's own keys: an empty status, a text over the limit, a status for followers or named people only", async () => {
    const { send } = await appUser();
    expect(answer(await send('POST', '/api/v1/statuses', { status: '   ' }))).toEqual({ status: 400, body: refusal('blank_post') });
    expect(answer(await send('POST', '/api/v1/statuses', { status: 'x'.repeat(LIMITS.textMaxLength + 1) }))).toMatchObject({ status: 400, body: { message: 'error/max_post_length' } });
    expect(answer(await send('POST', '/api/v1/statuses', { status: 'with a picture', media_ids: ['123'] }))).toEqual({ status: 422, body: refusal('unknown_media') });
    for (const visibility of ['direct', 'private']) {
      expect(answer(await send('POST', '/api/v1/statuses', { status: 'just for you', visibility }))).toEqual({ status: 422, body: refusal('visibility_unsupported') });
    }
  });

  it('a status mentioning a group posts into it, and a private one only as private; a person mentioned is mentioned', async () => {
    const { user, send } = await appUser();
    const owner = await createUser(t.app);
    const open = await createGroup(t.app, owner);
    const hidden = await createGroup(t.app, owner, { isPrivate: true });
    await addMember(t.app, open.id, user);
    await addMember(t.app, hidden.id, user);
    const friend = await createUser(t.app);
    const res = await send('POST', '/api/v1/statuses', { status: `@${open.name} hello all, @${friend.username} look`, visibility: 'public' });
    expect(res.statusCode, res.body).toBe(200);
    const status = res.json();
    const groups = await t.app.db.selectFrom('post_groups').select('group_id').where('post_id', '=', status.id).execute();
    expect(groups.map((g) => g.group_id)).toEqual([open.id]);
    expect(status.mentions.map((m: { id: string }) => m.id)).toEqual([friend.id]);
    const secret = (await send('POST', '/api/v1/statuses', { status: `@${hidden.name} between us`, visibility: 'private' })).json();
    expect(secret).toMatchObject({ visibility: 'private' });
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/statuses/${secret.id}` })).statusCode).toBe(404);
    // Not a member: the group's rules refuse, as on the web.
    const outsider = await appUser();
    expect(answer(await outsider.send('POST', '/api/v1/statuses', { status: `@${hidden.name} let me in`, visibility: 'private' }))).toEqual({ status: 403, body: refusal('not_member') });
  });

  it('an Idempotency-Key sent again answers the same status without writing it twice', async () => {
    const { user, send } = await appUser();
    const headers = { 'idempotency-key': `status-${user.id}` };
    const first = (await send('POST', '/api/v1/statuses', { status: 'only once' }, headers)).json();
    const again = (await send('POST', '/api/v1/statuses', { status: 'only once' }, headers)).json();
    expect(again.id).toBe(first.id);
    const rows = await t.app.db.selectFrom('posts').select('id').where('author_id', '=', user.id).execute();
    expect(rows).toHaveLength(1);
    expect(answer(await send('POST', '/api/v1/statuses', { status: 'something else' }, headers))).toMatchObject({ status: 422, body: { message: 'error/idempotency_mismatch' } });
  });

  it('the abuse limits hold as on the web: the fourth post of the hour is refused', async () => {
    const { send } = await appUser();
    for (let i = 0; i < 3; i++) expect((await send('POST', '/api/v1/statuses', { status: `post ${i}` })).statusCode).toBe(200);
    expect(answer(await send('POST', '/api/v1/statuses', { status: 'one too many' }))).toEqual({ status: 429, body: refusal('post_limit') });
  });

  it('deletes a post and a comment, answering each with its text; another\'s is refused', async () => {
    const { send } = await appUser();
    const post = (await send('POST', '/api/v1/statuses', { status: 'short-lived' })).json();
    const comment = (await send('POST', '/api/v1/statuses', { status: 'me too', in_reply_to_id: post.id })).json();
    const stranger = await appUser();
    expect(answer(await stranger.send('DELETE', `/api/v1/statuses/${post.id}`))).toEqual({ status: 403, body: refusal('not_author') });
    const gone = await send('DELETE', `/api/v1/statuses/${comment.id}`);
    expect(gone.statusCode).toBe(200);
    expectShape(DeletedStatus, gone.json());
    expect(gone.json()).toMatchObject({ id: comment.id, text: 'me too' });
    expect((await send('DELETE', `/api/v1/statuses/${post.id}`)).json()).toMatchObject({ id: post.id, text: 'short-lived' });
    expect(await t.app.db.selectFrom('posts').select('id').where('id', '=', post.id).executeTakeFirst()).toBeUndefined();
    expect((await send('GET', `/api/v1/statuses/${post.id}`)).statusCode).toBe(404);
  });

  it('edits a post, keeping its earlier version in the history, and reads its source; a comment is not edited', async () => {
    const { send } = await appUser();
    const post = (await send('POST', '/api/v1/statuses', { status: 'first words', spoiler_text: 'cw' })).json();
    const source = await send('GET', `/api/v1/statuses/${post.id}/source`);
    expectShape(StatusSource, source.json());
    expect(source.json()).toEqual({ id: post.id, text: 'first words', spoiler_text: 'cw' });
    const edited = await send('PUT', `/api/v1/statuses/${post.id}`, { status: 'second words', spoiler_text: '' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ id: post.id, spoiler_text: '', sensitive: false, edited_at: expect.any(String) });
    expect(edited.json().content).toContain('second words');
    const history = (await t.app.inject({ method: 'GET', url: `/api/v1/statuses/${post.id}/history` })).json();
    for (const version of history) expectShape(StatusVersion, version);
    expect(history.map((v: { content: string; spoiler_text: string }) => [v.content.includes('first') ? 'first' : 'second', v.spoiler_text])).toEqual([['first', 'cw'], ['second', '']]);
    // Without a warning field the warning stays.
    await send('PUT', `/api/v1/statuses/${post.id}`, { status: 'third', spoiler_text: 'again' });
    expect((await send('PUT', `/api/v1/statuses/${post.id}`, { status: 'fourth' })).json()).toMatchObject({ spoiler_text: 'again' });
    const comment = (await send('POST', '/api/v1/statuses', { status: 'a comment', in_reply_to_id: post.id })).json();
    expect(answer(await send('PUT', `/api/v1/statuses/${comment.id}`, { status: 'changed' }))).toEqual({ status: 422, body: refusal('comment_not_editable') });
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/statuses/${comment.id}/history` })).json()).toHaveLength(1);
    const stranger = await appUser();
    expect(answer(await stranger.send('PUT', `/api/v1/statuses/${post.id}`, { status: 'mine now' }))).toEqual({ status: 403, body: refusal('not_author') });
  });

  it('likes and unlikes a post and a comment; a boost is refused with its own key', async () => {
    const author = await createUser(t.app);
    const post = await createPost(t.app, author);
    const { user, send } = await appUser();
    const liked = (await send('POST', `/api/v1/statuses/${post.id}/favourite`)).json();
    expect(liked).toMatchObject({ id: post.id, favourited: true, favourites_count: 1 });
    // Sent again it stays liked.
    expect((await send('POST', `/api/v1/statuses/${post.id}/favourite`)).json()).toMatchObject({ favourited: true, favourites_count: 1 });
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/statuses/${post.id}/favourited_by` })).json().map((a: { id: string }) => a.id)).toEqual([user.id]);
    expect((await send('POST', `/api/v1/statuses/${post.id}/unfavourite`)).json()).toMatchObject({ favourited: false, favourites_count: 0 });
    const comment = (await send('POST', '/api/v1/statuses', { status: 'a comment', in_reply_to_id: post.id })).json();
    expect((await send('POST', `/api/v1/statuses/${comment.id}/favourite`)).json()).toMatchObject({ id: comment.id, favourited: true, favourites_count: 1 });
    expect(answer(await send('POST', `/api/v1/statuses/${post.id}/reblog`))).toEqual({ status: 422, body: refusal('no_reblogs') });
  });

  it('a read-only token cannot write (403 insufficient_scope), and no token at all is no_token', async () => {
    const author = await createUser(t.app);
    const post = await createPost(t.app, author);
    const reader = await appUser('read');
    const calls: [string, string, Record<string, unknown>?][] = [
      ['POST', '/api/v1/statuses', { status: 'not allowed' }],
      ['DELETE', `/api/v1/statuses/${post.id}`],
      ['POST', `/api/v1/statuses/${post.id}/favourite`],
      ['POST', `/api/v1/accounts/${author.id}/follow`],
      ['POST', `/api/v1/accounts/${author.id}/block`],
      ['POST', `/api/v1/accounts/${author.id}/mute`],
    ];
    for (const [method, url, payload] of calls) {
      expect(answer(await reader.send(method as 'POST', url, payload)), `${method} ${url}`).toEqual({ status: 403, body: refusal('insufficient_scope') });
      expect((await t.app.inject({ method: method as 'POST', url, ...(payload ? { payload } : {}) })).statusCode, `${method} ${url}`).toBe(401);
    }
    expect(await t.app.db.selectFrom('posts').select('id').where('author_id', '=', reader.user.id).execute()).toEqual([]);
    // A token granted only statuses may post but not follow.
    const narrow = await appUser('read write:statuses');
    expect((await narrow.send('POST', '/api/v1/statuses', { status: 'allowed' })).statusCode).toBe(200);
    expect(answer(await narrow.send('POST', `/api/v1/accounts/${author.id}/follow`))).toEqual({ status: 403, body: refusal('insufficient_scope') });
  });
});

describe('client API: follows, blocks and mutes', () => {
  const relationshipOf = async (send: (m: 'POST', u: string) => Promise<{ statusCode: number; json(): unknown; body: string }>, path: string) => {
    const res = await send('POST', path);
    expect(res.statusCode, res.body).toBe(200);
    expectShape(Relationship, res.json());
    return res.json() as Relationship;
  };

  it('follows and unfollows a person, each answered as the relationship after, and sent twice alike', async () => {
    const { user, send } = await appUser();
    const other: TestUser = await createUser(t.app);
    expect(await relationshipOf(send, `/api/v1/accounts/${other.id}/follow`)).toMatchObject({ id: other.id, following: true });
    expect(await relationshipOf(send, `/api/v1/accounts/${other.id}/follow`)).toMatchObject({ following: true });
    const row = await t.app.db.selectFrom('follows').select('following_id').where('follower_id', '=', user.id).execute();
    expect(row.map((r) => r.following_id)).toEqual([other.id]);
    // Followed: the person is told, as on the web.
    await runJobs(t.app);
    const told = await t.app.db.selectFrom('notifications').select('type').where('user_id', '=', other.id).execute();
    expect(told.length).toBeGreaterThan(0);
    expect(await relationshipOf(send, `/api/v1/accounts/${other.id}/unfollow`)).toMatchObject({ following: false });
    expect(await relationshipOf(send, `/api/v1/accounts/${other.id}/unfollow`)).toMatchObject({ following: false });
    expect(answer(await send('POST', `/api/v1/accounts/${user.id}/follow`))).toMatchObject({ status: 400, body: { message: 'error/follow_yourself' } });
    expect(answer(await send('POST', '/api/v1/accounts/000000000000000000000000/follow'))).toEqual({ status: 404, body: refusal('user_not_found') });
  });

  it('blocks (ending the follow) and unblocks, mutes and unmutes a person', async () => {
    const { send } = await appUser();
    const other = await createUser(t.app);
    await relationshipOf(send, `/api/v1/accounts/${other.id}/follow`);
    expect(await relationshipOf(send, `/api/v1/accounts/${other.id}/block`)).toMatchObject({ blocking: true, following: false });
    expect(await relationshipOf(send, `/api/v1/accounts/${other.id}/unblock`)).toMatchObject({ blocking: false });
    expect(await relationshipOf(send, `/api/v1/accounts/${other.id}/mute`)).toMatchObject({ muting: true });
    expect(await relationshipOf(send, `/api/v1/accounts/${other.id}/unmute`)).toMatchObject({ muting: false });
  });

  it("following a group's account joins an open group, asks to join a request-only one; unfollowing leaves or withdraws", async () => {
    const { user, send } = await appUser();
    const owner = await createUser(t.app);
    const open = await createGroup(t.app, owner);
    const closed = await createGroup(t.app, owner, { requestJoin: true });
    expect(await relationshipOf(send, `/api/v1/accounts/g${open.id}/follow`)).toMatchObject({ id: `g${open.id}`, following: true, requested: false });
    const member = await t.app.db.selectFrom('group_members').select('role').where('group_id', '=', open.id).where('user_id', '=', user.id).executeTakeFirst();
    expect(member).toEqual({ role: 'member' });
    expect(await relationshipOf(send, `/api/v1/accounts/g${closed.id}/follow`)).toMatchObject({ following: false, requested: true });
    expect(await t.app.db.selectFrom('group_requests').select('user_id').where('group_id', '=', closed.id).execute()).toEqual([{ user_id: user.id }]);
    expect(await relationshipOf(send, `/api/v1/accounts/g${closed.id}/unfollow`)).toMatchObject({ requested: false });
    expect(await relationshipOf(send, `/api/v1/accounts/g${open.id}/unfollow`)).toMatchObject({ following: false });
    expect(await t.app.db.selectFrom('group_members').select('role').where('group_id', '=', open.id).where('user_id', '=', user.id).executeTakeFirst()).toBeUndefined();
    expect(answer(await send('POST', `/api/v1/accounts/g${open.id}/block`))).toEqual({ status: 422, body: refusal('group_account_action') });
  });
});

describe('the @names of a status', () => {
  it.each([
    ['@cats hello', ['cats']],
    ['hi @Ana and @ana, @bob.', ['Ana', 'bob']],
    ['@bob@other.example and mail me@home.example', []],
    ['https://x.example/@page no', []],
    ['nobody', []],
  ])('%s', (text, names) => {
    expect(localNamesIn(text)).toEqual(names);
  });
});
