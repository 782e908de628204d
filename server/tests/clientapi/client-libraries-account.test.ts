import { createRestAPIClient } from 'masto';
import generator from 'megalodon';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { call, createPost, createUser } from '../helpers/fixtures';
import { useInstance } from '../helpers/kruh-instance';
import { REDIRECT, appToken, codeIn } from './oauth-helpers';

/**
 * The two client libraries apps are built on, over HTTP against a running instance: the profile
 * form (a multipart form from masto, JSON from megalodon), the app's own credentials, an account's
 * statuses with its comments as replies, the local timeline, and megalodon signing in with its
 * secret and no PKCE.
 */
describe('client API accounts through real client libraries', () => {
  const instance = useInstance();

  it('masto changes the profile with a multipart form carrying the avatar, and reads its app', async () => {
    const me = await createUser(instance.app);
    const masto = createRestAPIClient({ url: instance.origin, accessToken: await appToken(instance.app, me, 'read write') });
    const before = await masto.v1.accounts.verifyCredentials();
    const picture = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#36c' } }).png().toBuffer();
    const name = `masto${Date.now().toString(36)}`;
    const updated = await masto.v1.accounts.updateCredentials({
      displayName: name,
      note: 'Written by masto',
      discoverable: false,
      locked: true,
      fieldsAttributes: [{ name: 'Site', value: 'https://example.com' }],
      avatar: new Blob([new Uint8Array(picture)], { type: 'image/png' }),
    });
    expect(updated).toMatchObject({ id: me.id, username: name, displayName: name, discoverable: false, locked: false, fields: [], source: { note: 'Written by masto' } });
    expect(updated.avatar).not.toBe(before.avatar);
    await expect(masto.v1.accounts.updateCredentials({ displayName: 'x@y' })).rejects.toMatchObject({ statusCode: 422 });
    expect(await masto.v1.apps.verifyCredentials()).toMatchObject({ name: 'Test app', website: 'https://app.example' });
  });

  it('megalodon changes the name and bio from JSON and reads its app', async () => {
    const me = await createUser(instance.app);
    const client = generator('mastodon', instance.origin, await appToken(instance.app, me, 'read write'));
    const name = `mega${Date.now().toString(36)}`;
    const res = await client.updateCredentials({ display_name: name, note: 'Written by megalodon', discoverable: true });
    expect(res.data).toMatchObject({ id: me.id, username: name, display_name: name, discoverable: true });
    expect(res.data.note).toBe('<p>Written by megalodon</p>');
    await expect(client.updateCredentials({ note: 'x'.repeat(10_000) })).rejects.toMatchObject({ response: { status: 422 } });
    expect((await client.verifyAppCredentials()).data).toMatchObject({ name: 'Test app', website: 'https://app.example' });
  });

  it("masto and megalodon read an account's comments as replies, leave them out on request, and read the local timeline", async () => {
    const author = await createUser(instance.app);
    const other = await createUser(instance.app);
    const base = Date.now() + 60_000_000;
    const post = await createPost(instance.app, author, { createdAt: base });
    const othersPost = await createPost(instance.app, other, { createdAt: base + 1 });
    const comment = (await call(instance.app, author, { method: 'POST', url: '/api/comment/', payload: { text: 'a comment', parent: othersPost.id } })).json();
    await instance.app.db.updateTable('comments').set({ created_at: base + 2 }).where('id', '=', comment._id).execute();
    const commentId = `c${comment._id as string}`;

    const masto = createRestAPIClient({ url: instance.origin });
    const statuses = await masto.v1.accounts.$select(author.id).statuses.list({ limit: 40 });
    expect(statuses.map((s) => [s.id, s.inReplyToId, s.inReplyToAccountId])).toEqual([[commentId, othersPost.id, other.id], [post.id, null, null]]);
    expect((await masto.v1.accounts.$select(author.id).statuses.list({ excludeReplies: true })).map((s) => s.id)).toEqual([post.id]);
    const local = await masto.v1.timelines.public.list({ local: true, limit: 2 });
    expect(local.map((s) => s.id)).toEqual([othersPost.id, post.id]);

    const client = generator('mastodon', instance.origin);
    const read = await client.getAccountStatuses(author.id, { limit: 40 });
    expect(read.data.map((s) => [s.id, s.in_reply_to_account_id])).toEqual([[commentId, other.id], [post.id, null]]);
    expect((await client.getAccountStatuses(author.id, { exclude_replies: true })).data.map((s) => s.id)).toEqual([post.id]);
    expect((await client.getLocalTimeline({ limit: 2 })).data.map((s) => s.id)).toEqual([othersPost.id, post.id]);
  });

  it('megalodon signs in with its secret and no PKCE, coming back to its own address', async () => {
    const user = await createUser(instance.app);
    const client = generator('mastodon', instance.origin);
    const app = await client.registerApp('megalodon confidential', { scopes: ['read'], redirect_uris: REDIRECT });
    const res = await fetch(`${instance.origin}/api/oauth/authorize`, {
      method: 'POST',
      headers: { ...user.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ response_type: 'code', client_id: app.client_id, redirect_uri: REDIRECT, scope: 'read', approve: true }),
    });
    const { code } = codeIn(((await res.json()) as { redirect: string }).redirect);
    const token = await client.fetchAccessToken(app.client_id, app.client_secret, code!, REDIRECT);
    const signedIn = generator('mastodon', instance.origin, token.access_token);
    expect((await signedIn.verifyAccountCredentials()).data.id).toBe(user.id);
    expect((await signedIn.verifyAppCredentials()).data.name).toBe('megalodon confidential');
  });
});
