import type { InjectOptions } from 'fastify';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { CredentialAccount } from '#core/api/client-account';
import { VerifiedApplication } from '#core/api/client';
import { Status } from '#core/api/client-entities';
import { LIMITS } from '#core/limits';
import { call, createFollow, createGroup, createGroupWith, createPost, createUser, type TestUser } from '../helpers/fixtures';
import { multipartBody } from '../helpers/multipart';
import { useTestApp } from '../helpers/test-app';
import { appGet, asApp, expectShape, linkOf } from './client-calls';
import { REDIRECT, codeIn, form, registerApp, appToken } from './oauth-helpers';

/**
 * The signed-in account through the client API: changing it, the app's own credentials, an
 * account's statuses with its comments as replies, its follow lists, the local and remote public
 * timelines, and signing in without PKCE with the app's secret.
 */

const t = useTestApp();

const get = (url: string, token?: string) => appGet(t.app, url, token);
const ids = (body: { id: string }[]) => body.map((s) => s.id);

/** A PATCH of update_credentials as an app sends it: JSON, a form or a multipart form. */
const update = (token: string | null, body: { payload: InjectOptions['payload']; headers?: Record<string, string> }) =>
  asApp(t.app, token, { method: 'PATCH', url: '/api/v1/accounts/update_credentials', ...body });

/** A refusal of the client API: its status, key, and the sentence apps show. */
function expectRefused(res: { statusCode: number; json(): unknown }, status: number, key: string) {
  expect({ status: res.statusCode, body: res.json() }).toEqual({ status, body: { error: expect.any(String), message: `error/${key}` } });
}

const png = () => sharp({ create: { width: 40, height: 40, channels: 3, background: '#3a7' } }).png().toBuffer();

describe('client API: update_credentials', () => {
  it('changes the name, the bio and discoverability from JSON, and answers the account with its source', async () => {
    const me = await createUser(t.app);
    const token = await appToken(t.app, me, 'read write');
    const name = `renamed${Date.now().toString(36)}`;
    const res = await update(token, { payload: { display_name: name, note: 'Tea & cake', discoverable: false, locked: true, bot: true } });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expectShape(CredentialAccount, body);
    expect(body).toMatchObject({ id: me.id, username: name, acct: name, display_name: name, note: '<p>Tea &#38; cake</p>', discoverable: false, locked: false, bot: false, source: { note: 'Tea & cake' } });
    const row = await t.app.db.selectFrom('users').select(['username', 'bio', 'discoverable', 'indexable']).where('id', '=', me.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ username: name, bio: 'Tea & cake', discoverable: 0, indexable: 1 });
    // The same values sent back, as apps send the whole form, change nothing and are no error.
    const again = await update(token, { payload: { display_name: name, note: 'Tea & cake' } });
    expect(again.statusCode).toBe(200);
    expect((await get('/api/v1/accounts/verify_credentials', token)).body).toMatchObject({ username: name, source: { note: 'Tea & cake' } });
  });

  it('reads a form, its switches as text, and leaves profile fields and the header alone', async () => {
    const me = await createUser(t.app);
    const token = await appToken(t.app, me, 'write:accounts profile');
    const fields = { note: 'From a form', discoverable: 'false', indexable: '0', 'fields_attributes[0][name]': 'Site', 'fields_attributes[0][value]': 'x', 'source[privacy]': 'public' };
    const res = await update(token, form(fields));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ username: me.username, discoverable: false, indexable: false, fields: [], source: { note: 'From a form', fields: [] } });
  });

  it('takes an avatar from a multipart form (a header beside it is ignored), and refuses a file that is no image', async () => {
    const me = await createUser(t.app);
    const token = await appToken(t.app, me, 'read write');
    const before = (await get('/api/v1/accounts/verify_credentials', token)).body.avatar as string;
    const picture = await png();
    const body = multipartBody({ note: 'With a picture', 'fields_attributes[0][name]': 'a' }, [
      { field: 'header', filename: 'h.txt', contentType: 'text/plain', data: Buffer.from('not a picture') },
      { field: 'avatar', filename: 'a.png', contentType: 'image/png', data: picture },
    ]);
    const res = await update(token, body);
    expect(res.statusCode, res.body).toBe(200);
    const account = res.json();
    expect(account).toMatchObject({ source: { note: 'With a picture' } });
    expect(account.avatar).not.toBe(before);
    expect((await t.app.db.selectFrom('users').select('pfp_version').where('id', '=', me.id).executeTakeFirstOrThrow()).pfp_version).toBeGreaterThan(0);

    const broken = multipartBody({ note: 'unchanged?' }, [{ field: 'avatar', filename: 'a.png', contentType: 'image/png', data: Buffer.from('not a picture') }]);
    expectRefused(await update(token, broken), 422, 'only_images');
    expect((await t.app.db.selectFrom('users').select('bio').where('id', '=', me.id).executeTakeFirstOrThrow()).bio).toBe('With a picture');
  });

  it("refuses with 422 a name Kruh's rules refuse or another account holds, and a bio past its limit, changing nothing", async () => {
    const me = await createUser(t.app);
    const other = await createUser(t.app);
    const token = await appToken(t.app, me, 'read write');
    expectRefused(await update(token, { payload: { display_name: 'me@there', note: 'kept?' } }), 422, 'username_at');
    expectRefused(await update(token, { payload: { display_name: 'ab' } }), 422, 'min_username_length');
    expectRefused(await update(token, { payload: { display_name: other.username.toUpperCase() } }), 422, 'username_taken');
    expectRefused(await update(token, { payload: { note: 'x'.repeat(LIMITS.bioMaxLength + 1) } }), 422, 'max_bio_length');
    const row = await t.app.db.selectFrom('users').select(['username', 'bio']).where('id', '=', me.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ username: me.username, bio: '' });
  });

  it('needs a token granting write:accounts', async () => {
    const me = await createUser(t.app);
    expectRefused(await update(null, { payload: { note: 'x' } }), 401, 'no_token');
    expectRefused(await update(await appToken(t.app, me, 'read write:statuses'), { payload: { note: 'x' } }), 403, 'insufficient_scope');
    expect((await update(await appToken(t.app, me, 'write:accounts'), { payload: { note: 'x' } })).statusCode).toBe(200);
  });
});

describe('client API: apps/verify_credentials', () => {
  it("answers the app of a person's token and of the app's own token, without its secret", async () => {
    const me = await createUser(t.app);
    const client = await registerApp(t.app, 'read write');
    const approval = await call(t.app, me, {
      method: 'POST',
      url: '/api/oauth/authorize',
      payload: { client_id: client.client_id, redirect_uri: REDIRECT, scope: 'read', response_type: 'code', approve: true },
    });
    const code = codeIn(approval.json().redirect).code!;
    const exchange = (fields: Record<string, string>) => t.app.inject({ method: 'POST', url: '/oauth/token', ...form({ client_id: client.client_id, client_secret: client.client_secret, ...fields }) });
    const personal = (await exchange({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT })).json().access_token as string;
    const own = (await exchange({ grant_type: 'client_credentials', scope: 'read' })).json().access_token as string;
    for (const token of [personal, own]) {
      const { status, body } = await get('/api/v1/apps/verify_credentials', token);
      expect(status).toBe(200);
      expectShape(VerifiedApplication, body);
      expect(body).toEqual({
        id: expect.any(String), name: 'Test app', website: 'https://app.example', scopes: ['read', 'write'],
        redirect_uri: `${REDIRECT}\nurn:ietf:wg:oauth:2.0:oob`, redirect_uris: [REDIRECT, 'urn:ietf:wg:oauth:2.0:oob'],
      });
    }
    expectRefused(await asApp(t.app, null, { method: 'GET', url: '/api/v1/apps/verify_credentials' }), 401, 'no_token');
    expectRefused(await asApp(t.app, 'no-such-token', { method: 'GET', url: '/api/v1/apps/verify_credentials' }), 401, 'invalid_token');
  });
});

describe('client API: signing in without PKCE', () => {
  const approveWithoutChallenge = async (user: TestUser, clientId: string) => {
    const res = await call(t.app, user, { method: 'POST', url: '/api/oauth/authorize', payload: { client_id: clientId, redirect_uri: REDIRECT, scope: 'read', response_type: 'code', approve: true } });
    return codeIn(res.json().redirect).code!;
  };
  const token = (fields: Record<string, string>) => t.app.inject({ method: 'POST', url: '/oauth/token', ...form({ grant_type: 'authorization_code', redirect_uri: REDIRECT, ...fields }) });

  it('exchanges a code issued without a challenge only with the secret', async () => {
    const me = await createUser(t.app);
    const client = await registerApp(t.app, 'read');
    const withoutSecret = await token({ client_id: client.client_id, code: await approveWithoutChallenge(me, client.client_id) });
    expect(withoutSecret.statusCode).toBe(401);
    // A made-up verifier does not stand for the secret: the code was bound to no challenge.
    const madeUp = await token({ client_id: client.client_id, code: await approveWithoutChallenge(me, client.client_id), code_verifier: 'v'.repeat(43) });
    expect(madeUp.statusCode).toBe(400);
    const withSecret = await token({ client_id: client.client_id, client_secret: client.client_secret, code: await approveWithoutChallenge(me, client.client_id) });
    expect(withSecret.statusCode, withSecret.body).toBe(200);
    expect((await get('/api/v1/accounts/verify_credentials', withSecret.json().access_token)).body.id).toBe(me.id);
  });
});

describe("client API: an account's statuses", () => {
  /** A person with two posts and two comments between them in time, one answering a comment of someone else. */
  async function writer() {
    const author = await createUser(t.app);
    const other = await createUser(t.app);
    const base = Date.now() + 10_000_000;
    const older = await createPost(t.app, author, { text: 'older #Walks', createdAt: base });
    await t.app.db.insertInto('post_hashtags').values({ post_id: older.id, tag: 'walks', created_at: base }).execute();
    const othersPost = await createPost(t.app, other, { text: 'a post of someone else', createdAt: base + 1 });
    const comment = (await call(t.app, author, { method: 'POST', url: '/api/comment/', payload: { text: 'a comment', parent: othersPost.id } })).json();
    const othersComment = (await call(t.app, other, { method: 'POST', url: '/api/comment/', payload: { text: 'their comment', parent: older.id } })).json();
    const reply = (await call(t.app, author, { method: 'POST', url: '/api/comment/', payload: { text: 'a reply', parent: othersComment._id } })).json();
    // The comments were written now; place them between the posts, as a day of writing would.
    await t.app.db.updateTable('comments').set({ created_at: base + 2 }).where('id', '=', comment._id).execute();
    await t.app.db.updateTable('comments').set({ created_at: base + 3 }).where('id', '=', reply._id).execute();
    const newer = await createPost(t.app, author, { text: 'newer', createdAt: base + 4 });
    return { author, other, older: older.id, newer: newer.id, othersPost: othersPost.id, comment: `c${comment._id as string}`, reply: `c${reply._id as string}`, othersComment: `c${othersComment._id as string}` };
  }

  it('lists posts and comments newest first, each comment a reply to its parent and its author', async () => {
    const w = await writer();
    const { status, body } = await get(`/api/v1/accounts/${w.author.id}/statuses`);
    expect(status).toBe(200);
    body.forEach((s: unknown) => expectShape(Status, s));
    expect(ids(body)).toEqual([w.newer, w.reply, w.comment, w.older]);
    const byId = new Map(body.map((s: { id: string }) => [s.id, s]));
    expect(byId.get(w.reply)).toMatchObject({ in_reply_to_id: w.othersComment, in_reply_to_account_id: w.other.id });
    expect(byId.get(w.comment)).toMatchObject({ in_reply_to_id: w.othersPost, in_reply_to_account_id: w.other.id });
    expect(byId.get(w.newer)).toMatchObject({ in_reply_to_id: null, in_reply_to_account_id: null });
    // A single comment read by its id carries its parent's author too.
    expect((await get(`/api/v1/statuses/${w.reply}`)).body.in_reply_to_account_id).toBe(w.other.id);
  });

  it('pages across posts and comments by the Link header, both ways', async () => {
    const w = await writer();
    const first = await get(`/api/v1/accounts/${w.author.id}/statuses?limit=2`);
    expect(ids(first.body)).toEqual([w.newer, w.reply]);
    const second = await get(linkOf(first.link, 'next')!);
    expect(ids(second.body)).toEqual([w.comment, w.older]);
    const third = await get(linkOf(second.link, 'next')!);
    expect(third.body).toEqual([]);
    const back = await get(linkOf(second.link, 'prev')!);
    expect(ids(back.body)).toEqual([w.newer, w.reply]);
    const since = await get(`/api/v1/accounts/${w.author.id}/statuses?since_id=${w.comment}`);
    expect(ids(since.body)).toEqual([w.newer, w.reply]);
  });

  it('leaves comments out with exclude_replies, lists by hashtag with tagged, and pins nothing of a person', async () => {
    const w = await writer();
    expect(ids((await get(`/api/v1/accounts/${w.author.id}/statuses?exclude_replies=true`)).body)).toEqual([w.newer, w.older]);
    expect(ids((await get(`/api/v1/accounts/${w.author.id}/statuses?tagged=walks`)).body)).toEqual([w.older]);
    expect(ids((await get(`/api/v1/accounts/${w.author.id}/statuses?tagged=%23Walks`)).body)).toEqual([w.older]);
    expect((await get(`/api/v1/accounts/${w.author.id}/statuses?pinned=true`)).body).toEqual([]);
  });

  it('lists only statuses with pictures with only_media', async () => {
    const w = await writer();
    await t.app.db.updateTable('posts').set({ images: 1 }).where('id', '=', w.older).execute();
    await t.app.db.updateTable('comments').set({ images: 1 }).where('id', '=', w.reply.slice(1)).execute();
    expect(ids((await get(`/api/v1/accounts/${w.author.id}/statuses?only_media=true`)).body)).toEqual([w.reply, w.older]);
  });

  it('hides the comments of a private group from outsiders', async () => {
    const { owner, group, members: [author] } = await createGroupWith(t.app, ['member'], { isPrivate: true });
    const outsider = await createUser(t.app);
    const inside = await createPost(t.app, owner, { groupIds: [group.id] });
    const comment = (await call(t.app, author, { method: 'POST', url: '/api/comment/', payload: { text: 'inside', parent: inside.id } })).json();
    expect(comment._id).toEqual(expect.any(String));
    const memberToken = await appToken(t.app, author, 'read');
    expect(ids((await get(`/api/v1/accounts/${author.id}/statuses`, memberToken)).body)).toEqual([`c${comment._id as string}`]);
    expect((await get(`/api/v1/accounts/${author.id}/statuses`)).body).toEqual([]);
    expect((await get(`/api/v1/accounts/${author.id}/statuses`, await appToken(t.app, outsider, 'read'))).body).toEqual([]);
  });
});

describe('client API: follow lists', () => {
  it('reads empty across a block either way, as the profile does', async () => {
    const star = await createUser(t.app);
    const fan = await createUser(t.app);
    const blocker = await createUser(t.app);
    await createFollow(t.app, fan, star);
    const token = await appToken(t.app, blocker, 'read write follow');
    expect(ids((await get(`/api/v1/accounts/${star.id}/followers`, token)).body)).toEqual([fan.id]);
    const block = await asApp(t.app, token, { method: 'POST', url: `/api/v1/accounts/${star.id}/block` });
    expect(block.statusCode, block.body).toBe(200);
    for (const direction of ['followers', 'following']) {
      const { status, body, link } = await get(`/api/v1/accounts/${star.id}/${direction}`, token);
      expect({ status, body, link }).toEqual({ status: 200, body: [], link: undefined });
    }
    expect((await get(`/api/v1/accounts/${blocker.id}/followers`, await appToken(t.app, star, 'read'))).body).toEqual([]);
  });

  it("never lists a person's groups among their follows, and a private group's members only to members", async () => {
    const owner = await createUser(t.app);
    const outsider = await createUser(t.app);
    const open = await createGroup(t.app, owner);
    const hidden = await createGroup(t.app, owner, { isPrivate: true });
    const following = await get(`/api/v1/accounts/${owner.id}/following`, await appToken(t.app, outsider, 'read'));
    expect(following.body).toEqual([]);
    expect(ids((await get(`/api/v1/accounts/g${open.id}/followers`)).body)).toEqual([owner.id]);
    expect((await get(`/api/v1/accounts/g${hidden.id}/followers`, await appToken(t.app, outsider, 'read'))).body).toEqual([]);
    expect(ids((await get(`/api/v1/accounts/g${hidden.id}/followers`, await appToken(t.app, owner, 'read'))).body)).toEqual([owner.id]);
  });
});

describe('client API: the public timeline, local and remote', () => {
  it('lists the posts written here with local, those of other servers with remote, with pictures with only_media', async () => {
    const author = await createUser(t.app);
    const base = Date.now() + 20_000_000;
    const here = await createPost(t.app, author, { createdAt: base });
    const pictured = await createPost(t.app, author, { createdAt: base + 1 });
    const away = await createPost(t.app, author, { createdAt: base + 2 });
    await t.app.db.updateTable('posts').set({ images: 1 }).where('id', '=', pictured.id).execute();
    await t.app.db.updateTable('posts').set({ ap_id: 'https://elsewhere.example/notes/1', ap_url: 'https://elsewhere.example/@a/1' }).where('id', '=', away.id).execute();
    const first = (query: string, limit = 3) => get(`/api/v1/timelines/public?limit=${limit}${query}`).then((res) => ids(res.body));
    expect(await first('')).toEqual([away.id, pictured.id, here.id]);
    expect(await first('&local=true', 2)).toEqual([pictured.id, here.id]);
    const remote = await first('&remote=true', 40);
    expect(remote[0]).toBe(away.id);
    expect(remote).not.toContain(here.id);
    expect(await first('&local=true&only_media=true', 1)).toEqual([pictured.id]);
    // Both asked is everything, as neither.
    expect(await first('&local=true&remote=true')).toEqual([away.id, pictured.id, here.id]);
  });
});
