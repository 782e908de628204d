import { createOAuthAPIClient, createRestAPIClient } from 'masto';
import generator from 'megalodon';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '#core/limits';
import { type TestUser, call, createPost, createUser } from '../helpers/fixtures';
import { useInstance } from '../helpers/kruh-instance';
import { REDIRECT, codeIn, pkcePair } from './oauth-helpers';

/**
 * Two client libraries apps are built on, from the registry, against a running instance over
 * HTTP: what they read of the instance and how they register an app.
 */
describe('client API through real client libraries', () => {
  const instance = useInstance();

  it('masto reads both versions of the instance and registers an app', async () => {
    const masto = createRestAPIClient({ url: instance.origin });
    const v1 = await masto.v1.instance.fetch();
    expect(v1.uri).toBe(instance.host);
    expect(v1.configuration.statuses.maxCharacters).toBe(LIMITS.textMaxLength);
    const v2 = await masto.v2.instance.fetch();
    expect(v2.domain).toBe(instance.host);
    expect(v2.configuration.mediaAttachments.imageSizeLimit).toBe(LIMITS.imageMaxBytes);
    const app = await masto.v1.apps.create({ clientName: 'masto test', redirectUris: 'urn:ietf:wg:oauth:2.0:oob', scopes: 'read write follow' });
    expect(app.name).toBe('masto test');
    expect(app.clientId).toEqual(expect.any(String));
    expect(app.clientSecret).toEqual(expect.any(String));
  });

  it('masto sees a refused registration as an error carrying the sentence', async () => {
    const masto = createRestAPIClient({ url: instance.origin });
    await expect(masto.v1.apps.create({ clientName: 'bad', redirectUris: 'not a url', scopes: 'read' })).rejects.toMatchObject({
      statusCode: 422,
      message: expect.stringContaining('redirect'),
    });
  });

  it('megalodon reads the instance and registers an app with its authorisation address', async () => {
    const client = generator('mastodon', instance.origin);
    const res = await client.getInstance();
    expect(res.data.uri).toBe(instance.host);
    expect(res.data.version).toMatch(/compatible; Kruh/);
    const app = await client.registerApp('megalodon test', { scopes: ['read', 'write:statuses'] });
    expect(app.client_id).toEqual(expect.any(String));
    expect(app.client_secret).toEqual(expect.any(String));
    expect(app.redirect_uri).toBe('urn:ietf:wg:oauth:2.0:oob');
    expect(app.url).toContain(`${instance.origin}/oauth/authorize`);
  });

  it('megalodon gets the refusal of an unknown scope', async () => {
    const client = generator('mastodon', instance.origin);
    await expect(client.registerApp('megalodon bad', { scopes: ['read', 'admin:everything'] })).rejects.toMatchObject({ response: { status: 422 } });
  });

  /** The person's approval, as the consent screen sends it: Kruh's own call, with the person's session. */
  async function approve(user: TestUser, request: Record<string, string>): Promise<{ redirect: string | null; code: string | null }> {
    const res = await fetch(`${instance.origin}/api/oauth/authorize`, {
      method: 'POST',
      headers: { ...user.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ response_type: 'code', ...request, approve: true }),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as { redirect: string | null; code: string | null };
  }

  it('masto signs in with PKCE as a public app, reads its account, then revokes its token', async () => {
    const user = await createUser(instance.app);
    const masto = createRestAPIClient({ url: instance.origin });
    const app = await masto.v1.apps.create({ clientName: 'masto sign-in', redirectUris: REDIRECT, scopes: 'read write' });
    const { verifier, challenge } = pkcePair();
    const { redirect } = await approve(user, { client_id: app.clientId!, redirect_uri: REDIRECT, scope: 'read write', state: 'st', code_challenge: challenge, code_challenge_method: 'S256' });
    const back = codeIn(redirect!);
    expect(back.state).toBe('st');
    const oauth = createOAuthAPIClient({ url: instance.origin });
    // No secret: a public app proves itself by its verifier alone.
    const params = { grantType: 'authorization_code', clientId: app.clientId!, redirectUri: REDIRECT, code: back.code!, codeVerifier: verifier };
    const token = await oauth.token.create(params as unknown as Parameters<typeof oauth.token.create>[0]);
    expect(token).toMatchObject({ tokenType: 'Bearer', scope: 'read write', accessToken: expect.any(String) });

    const signedIn = createRestAPIClient({ url: instance.origin, accessToken: token.accessToken });
    const account = await signedIn.v1.accounts.verifyCredentials();
    expect(account).toMatchObject({ id: user.id, username: user.username, acct: user.username });

    await oauth.revoke({ clientId: app.clientId!, clientSecret: app.clientSecret!, token: token.accessToken });
    await expect(signedIn.v1.accounts.verifyCredentials()).rejects.toMatchObject({ statusCode: 401 });
  });

  it('masto cannot exchange a PKCE code without the verifier', async () => {
    const user = await createUser(instance.app);
    const app = await createRestAPIClient({ url: instance.origin }).v1.apps.create({ clientName: 'masto wrong', redirectUris: REDIRECT, scopes: 'read' });
    const { challenge } = pkcePair();
    const { redirect } = await approve(user, { client_id: app.clientId!, redirect_uri: REDIRECT, scope: 'read', code_challenge: challenge, code_challenge_method: 'S256' });
    const oauth = createOAuthAPIClient({ url: instance.origin });
    const params = { grantType: 'authorization_code', clientId: app.clientId!, clientSecret: app.clientSecret!, redirectUri: REDIRECT, code: codeIn(redirect!).code!, codeVerifier: pkcePair().verifier };
    await expect(oauth.token.create(params as unknown as Parameters<typeof oauth.token.create>[0])).rejects.toMatchObject({ statusCode: 400 });
  });

  it('megalodon signs in with the code shown to copy, reads its account, then revokes its token', async () => {
    const user = await createUser(instance.app);
    const client = generator('mastodon', instance.origin);
    const app = await client.registerApp('megalodon sign-in', { scopes: ['read', 'write'] });
    const { code } = await approve(user, { client_id: app.client_id, redirect_uri: app.redirect_uri!, scope: 'read write' });
    const token = await client.fetchAccessToken(app.client_id, app.client_secret, code!);
    expect(token).toMatchObject({ token_type: 'Bearer', scope: 'read write' });

    const signedIn = generator('mastodon', instance.origin, token.access_token);
    const account = await signedIn.verifyAccountCredentials();
    expect(account.data).toMatchObject({ id: user.id, username: user.username, acct: user.username });

    await client.revokeToken(app.client_id, app.client_secret, token.access_token);
    await expect(signedIn.verifyAccountCredentials()).rejects.toMatchObject({ response: { status: 401 } });
  });

  /**
   * A person with three posts, the newest with a comment answered, as the reading tests find them
   * (a post's replies count every comment under it).
   */
  async function someoneWithAThread() {
    const author = await createUser(instance.app);
    const fan = await createUser(instance.app);
    const base = Date.now() + 50_000_000;
    const posts = [];
    for (let i = 0; i < 3; i++) posts.push((await createPost(instance.app, author, { text: `post ${i} #libraries`, createdAt: base + i })).id);
    const comment = (await call(instance.app, fan, { method: 'POST', url: '/api/comment/', payload: { text: 'a comment', parent: posts[2] } })).json();
    const reply = (await call(instance.app, author, { method: 'POST', url: '/api/comment/', payload: { text: 'a reply', parent: comment._id } })).json();
    return { author, fan, newest: [...posts].reverse(), commentId: `c${comment._id as string}`, replyId: `c${reply._id as string}` };
  }

  it('masto reads the public timeline page by page, an account, a status and its thread', async () => {
    const { author, newest, commentId, replyId } = await someoneWithAThread();
    const masto = createRestAPIClient({ url: instance.origin });
    const pages: string[][] = [];
    for await (const page of masto.v1.timelines.public.list({ limit: 2 })) {
      pages.push(page.map((status) => status.id));
      if (pages.length === 2) break;
    }
    expect(pages).toEqual([newest.slice(0, 2), [newest[2]!]]);
    const account = await masto.v1.accounts.$select(author.id).fetch();
    expect(account).toMatchObject({ id: author.id, acct: author.username, group: false, statusesCount: 3 });
    expect((await masto.v1.accounts.lookup({ acct: author.username })).id).toBe(author.id);
    const status = await masto.v1.statuses.$select(newest[0]!).fetch();
    expect(status).toMatchObject({ id: newest[0], account: { id: author.id }, repliesCount: 2, visibility: 'public', tags: [{ name: 'libraries' }] });
    const thread = await masto.v1.statuses.$select(newest[0]!).context.fetch();
    expect(thread.descendants.map((s) => [s.id, s.inReplyToId])).toEqual([[commentId, newest[0]], [replyId, commentId]]);
    const up = await masto.v1.statuses.$select(replyId).context.fetch();
    expect(up.ancestors.map((s) => s.id)).toEqual([newest[0], commentId]);
    const statuses = await masto.v1.accounts.$select(author.id).statuses.list({ limit: 40, excludeReplies: true });
    expect(statuses.map((s) => s.id)).toEqual(newest);
  });

  it('megalodon reads the public and hashtag timelines, an account, a status and its thread', async () => {
    const { author, newest, commentId } = await someoneWithAThread();
    const client = generator('mastodon', instance.origin);
    const timeline = await client.getPublicTimeline({ limit: 3 });
    expect(timeline.data.map((s) => s.id).slice(0, 1)).toEqual([newest[0]]);
    const older = await client.getPublicTimeline({ limit: 3, max_id: newest[0]! });
    expect(older.data.map((s) => s.id).slice(0, 2)).toEqual(newest.slice(1, 3));
    const made = await call(instance.app, author, { method: 'POST', url: '/api/post', payload: { text: 'about #Megalodon' } });
    const tagged = await client.getTagTimeline('megalodon', { limit: 40 });
    expect(tagged.data.map((s) => s.id)).toEqual([made.json()._id]);
    expect((await client.getAccount(author.id)).data).toMatchObject({ id: author.id, username: author.username, followers_count: 0 });
    expect((await client.lookupAccount(author.username)).data.id).toBe(author.id);
    const status = await client.getStatus(newest[0]!);
    expect(status.data).toMatchObject({ id: newest[0], account: { id: author.id }, replies_count: 2 });
    const thread = await client.getStatusContext(newest[0]!);
    expect(thread.data.descendants[0]?.id).toBe(commentId);
    await expect(client.getStatus('000000000000000000000000')).rejects.toMatchObject({ response: { status: 404 } });
  });
});
