import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '#core/limits';
import { secretHash } from '../../src/modules/clientapi/apps.service';
import { requireScope } from '../../src/modules/clientapi/client-caller';
import { expectError, expectInfo } from '../helpers/expect';
import { type TestUser, call, createUser, useUsers } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';
import { REDIRECT, type RegisteredApp, codeIn, form, pkcePair, registerApp } from './oauth-helpers';

/** Signing apps in: the consent calls, every grant of the token endpoint, revocation and bearer tokens. */

const OOB = 'urn:ietf:wg:oauth:2.0:oob';

describe('signing fediverse apps in', () => {
  const t = useTestApp();
  const { ana, bob } = useUsers(t, 'ana', 'bob');

  const approve = async (user: TestUser, client: RegisteredApp, extra: Record<string, unknown> = {}) => {
    const res = await call(t.app, user, {
      method: 'POST',
      url: '/api/oauth/authorize',
      payload: { client_id: client.client_id, redirect_uri: REDIRECT, scope: 'read profile', response_type: 'code', approve: true, ...extra },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { redirect: string | null; code: string | null };
  };
  const token = (fields: Record<string, string>, remoteAddress?: string) =>
    t.app.inject({ method: 'POST', url: '/oauth/token', ...form(fields), ...(remoteAddress ? { remoteAddress } : {}) });
  /** A signed-in token of `user` for a new app, through PKCE. */
  const signIn = async (user: TestUser, scope = 'read profile') => {
    const client = await registerApp(t.app);
    const { verifier, challenge } = pkcePair();
    const { redirect } = await approve(user, client, { scope, code_challenge: challenge, code_challenge_method: 'S256' });
    const res = await token({ grant_type: 'authorization_code', client_id: client.client_id, code: codeIn(redirect!).code!, redirect_uri: REDIRECT, code_verifier: verifier });
    expect(res.statusCode, res.body).toBe(200);
    return { client, ...(res.json() as { access_token: string; refresh_token: string; scope: string }) };
  };
  /** A refusal of the client API: its key, and the sentence apps show. */
  const expectRefused = (res: { statusCode: number; json(): unknown }, status: number, key: string) =>
    expect({ status: res.statusCode, body: res.json() }).toEqual({ status, body: { error: expect.any(String), message: `error/${key}` } });
  const me = (accessToken: string) => t.app.inject({ method: 'GET', url: '/api/v1/accounts/verify_credentials', headers: { authorization: `Bearer ${accessToken}` } });

  it('describes what an app asks to the signed-in person, and refuses a visitor', async () => {
    const client = await registerApp(t.app);
    const query = `client_id=${client.client_id}&redirect_uri=${encodeURIComponent(REDIRECT)}&scope=read+profile&response_type=code`;
    const res = await call(t.app, ana, { method: 'GET', url: `/api/oauth/authorize?${query}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ app: { name: 'Test app', website: 'https://app.example' }, scopes: ['read', 'profile'], redirectUri: REDIRECT, outOfBand: false });
    expectError(await t.app.inject({ method: 'GET', url: `/api/oauth/authorize?${query}` }), 401, 'no_token');
  });

  const refusals: [string, Record<string, string>, string][] = [
    ['an unknown app', { client_id: 'nobody' }, 'unknown_app'],
    ['a redirect address the app did not register', { redirect_uri: 'https://evil.example/cb' }, 'redirect_not_registered'],
    ['scopes beyond its registration', { scope: 'read write:statuses admin:read' }, 'invalid_scope'],
    ['a scope it did not register', { scope: 'push' }, 'invalid_scope'],
    ['an answer other than a code', { response_type: 'token' }, 'response_type_unsupported'],
    ['the plain PKCE method', { code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' }, 'pkce_method_unsupported'],
    ['a challenge that is no S256 digest', { code_challenge: 'short', code_challenge_method: 'S256' }, 'oauth_request_invalid'],
  ];
  it.each(refusals)('refuses %s before anything is shown or issued', async (_name, change, key) => {
    const client = await registerApp(t.app, 'read write profile');
    const query = new URLSearchParams({ client_id: client.client_id, redirect_uri: REDIRECT, scope: 'read', ...change });
    expectError(await call(t.app, ana, { method: 'GET', url: `/api/oauth/authorize?${query.toString()}` }), 400, key);
    const decided = await call(t.app, ana, { method: 'POST', url: '/api/oauth/authorize', payload: { ...Object.fromEntries(query), approve: true } });
    expectError(decided, 400, key);
    expect(await t.app.db.selectFrom('oauth_codes').selectAll().where('app_id', 'in', t.app.db.selectFrom('client_apps').select('id').where('client_id', '=', client.client_id)).execute()).toEqual([]);
  });

  it('sends an approval back with a code and the state, a denial with access_denied, and shows the code of an app without an address', async () => {
    const client = await registerApp(t.app);
    const approved = codeIn((await approve(ana, client, { state: 'xyz' })).redirect!);
    expect(approved).toEqual({ code: expect.stringMatching(/^[\w-]{43}$/), state: 'xyz', error: null });
    const stored = await t.app.db.selectFrom('oauth_codes').selectAll().where('code_hash', '=', secretHash(approved.code!)).executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(approved.code!);
    expect(stored.expires_at - stored.created_at).toBe(5 * 60 * 1000);

    const denied = await approve(ana, client, { state: 'abc', approve: false });
    expect(denied.code).toBeNull();
    expect(codeIn(denied.redirect!)).toEqual({ code: null, state: 'abc', error: 'access_denied' });

    const shown = await approve(ana, client, { redirect_uri: OOB });
    expect(shown).toEqual({ redirect: null, code: expect.stringMatching(/^[\w-]{43}$/) });
  });

  it('exchanges a code with its PKCE verifier for a token kept only as its hash, which reads the account', async () => {
    const { access_token, refresh_token, scope } = await signIn(ana);
    expect(scope).toBe('read profile');
    expect(refresh_token).toEqual(expect.any(String));
    const row = await t.app.db.selectFrom('oauth_tokens').selectAll().where('token_hash', '=', secretHash(access_token)).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ user_id: ana.id, scopes: JSON.stringify(['read', 'profile']), revoked_at: null, expires_at: null, refresh_hash: secretHash(refresh_token) });
    expect(JSON.stringify(row)).not.toContain(access_token);
    const res = await me(access_token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: ana.id, username: ana.username, acct: ana.username, url: `http://kruh.test/u/${ana.username}`, group: false, source: { note: '' } });
  });

  it('answers the token as apps read it, from JSON too', async () => {
    const client = await registerApp(t.app);
    const { redirect } = await approve(ana, client);
    const before = Math.floor(Date.now() / 1000);
    const res = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      payload: { grant_type: 'authorization_code', client_id: client.client_id, client_secret: client.client_secret, code: codeIn(redirect!).code, redirect_uri: REDIRECT },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['access_token', 'created_at', 'refresh_token', 'scope', 'token_type']);
    expect(body).toMatchObject({ token_type: 'Bearer', scope: 'read profile' });
    expect(body.created_at).toBeGreaterThanOrEqual(before);
  });

  it('refuses a verifier that does not match, and the code is spent by the try', async () => {
    const client = await registerApp(t.app);
    const { verifier, challenge } = pkcePair();
    const code = codeIn((await approve(ana, client, { code_challenge: challenge, code_challenge_method: 'S256' })).redirect!).code!;
    const wrong = await token({ grant_type: 'authorization_code', client_id: client.client_id, code, redirect_uri: REDIRECT, code_verifier: pkcePair().verifier });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ error: 'invalid_grant', message: 'error/pkce_mismatch', error_description: expect.any(String) });
    const right = await token({ grant_type: 'authorization_code', client_id: client.client_id, code, redirect_uri: REDIRECT, code_verifier: verifier });
    expect(right.json()).toMatchObject({ error: 'invalid_grant', message: 'error/code_invalid' });
  });

  it('refuses a code bound to a challenge without its verifier, even with the secret', async () => {
    const client = await registerApp(t.app);
    const { challenge } = pkcePair();
    const code = codeIn((await approve(ana, client, { code_challenge: challenge, code_challenge_method: 'S256' })).redirect!).code!;
    const res = await token({ grant_type: 'authorization_code', client_id: client.client_id, client_secret: client.client_secret, code, redirect_uri: REDIRECT });
    expect(res.json()).toMatchObject({ error: 'invalid_grant', message: 'error/pkce_mismatch' });
  });

  it('refuses a redirect address other than the code\'s, a used code, an expired one and another app\'s', async () => {
    const client = await registerApp(t.app);
    const exchange = (code: string, change: Record<string, string> = {}) =>
      token({ grant_type: 'authorization_code', client_id: client.client_id, client_secret: client.client_secret, code, redirect_uri: REDIRECT, ...change });

    const first = codeIn((await approve(ana, client)).redirect!).code!;
    expect((await exchange(first, { redirect_uri: OOB })).json()).toMatchObject({ error: 'invalid_grant', message: 'error/redirect_not_registered' });

    const second = codeIn((await approve(ana, client)).redirect!).code!;
    expect((await exchange(second)).statusCode).toBe(200);
    expect((await exchange(second)).json()).toMatchObject({ error: 'invalid_grant', message: 'error/code_invalid' });

    const third = codeIn((await approve(ana, client)).redirect!).code!;
    await t.app.db.updateTable('oauth_codes').set({ expires_at: Date.now() - 1 }).where('code_hash', '=', secretHash(third)).execute();
    expect((await exchange(third)).json()).toMatchObject({ error: 'invalid_grant', message: 'error/code_invalid' });

    const other = await registerApp(t.app);
    const fourth = codeIn((await approve(ana, client)).redirect!).code!;
    const stolen = await token({ grant_type: 'authorization_code', client_id: other.client_id, client_secret: other.client_secret, code: fourth, redirect_uri: REDIRECT });
    expect(stolen.json()).toMatchObject({ error: 'invalid_grant', message: 'error/code_invalid' });
  });

  it('refuses a wrong secret as an unknown client, and a grant it does not offer', async () => {
    const client = await registerApp(t.app);
    const res = await token({ grant_type: 'client_credentials', client_id: client.client_id, client_secret: 'wrong' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ error: 'invalid_client', message: 'error/unknown_app' });
    const password = await token({ grant_type: 'password', client_id: client.client_id, client_secret: client.client_secret, username: ana.username, password: 'x' });
    expect(password.statusCode).toBe(400);
    expect(password.json()).toMatchObject({ error: 'unsupported_grant_type', message: 'error/grant_type_unsupported' });
  });

  it('gives an app a token of its own, with no account and no refresh, within its scopes', async () => {
    const client = await registerApp(t.app, 'read write');
    const res = await token({ grant_type: 'client_credentials', client_id: client.client_id, client_secret: client.client_secret });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ token_type: 'Bearer', scope: 'read' });
    expect(body).not.toHaveProperty('refresh_token');
    const row = await t.app.db.selectFrom('oauth_tokens').selectAll().where('token_hash', '=', secretHash(body.access_token)).executeTakeFirstOrThrow();
    expect(row.user_id).toBeNull();
    // It reads what a visitor reads: the instance, but no account.
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/instance', headers: { authorization: `Bearer ${body.access_token}` } })).statusCode).toBe(200);
    expect((await me(body.access_token)).json()).toMatchObject({ message: 'error/no_token' });
    const wider = await token({ grant_type: 'client_credentials', client_id: client.client_id, client_secret: client.client_secret, scope: 'read push' });
    expect(wider.json()).toMatchObject({ error: 'invalid_scope', message: 'error/invalid_scope' });
  });

  it('refreshes a token into a new pair; the old access and refresh tokens stop', async () => {
    const { client, access_token, refresh_token } = await signIn(ana);
    const refresh = (rt: string) => token({ grant_type: 'refresh_token', client_id: client.client_id, client_secret: client.client_secret, refresh_token: rt });
    const res = await refresh(refresh_token);
    expect(res.statusCode, res.body).toBe(200);
    const next = res.json();
    expect(next).toMatchObject({ token_type: 'Bearer', scope: 'read profile', refresh_token: expect.any(String) });
    expect(next.access_token).not.toBe(access_token);
    expect((await me(next.access_token)).statusCode).toBe(200);
    expectRefused(await me(access_token), 401, 'invalid_token');
    expect((await refresh(refresh_token)).json()).toMatchObject({ error: 'invalid_grant', message: 'error/refresh_token_invalid' });
  });

  it('stops a token revoked by its app, and answers alike for a token that is not the app\'s', async () => {
    const { client, access_token } = await signIn(bob);
    const other = await signIn(bob);
    const revoke = (fields: Record<string, string>) => t.app.inject({ method: 'POST', url: '/oauth/revoke', ...form(fields) });
    expect((await revoke({ client_id: client.client_id, client_secret: 'wrong', token: access_token })).json()).toMatchObject({ error: 'invalid_client' });
    expect((await me(access_token)).statusCode).toBe(200);
    // Another app's token, or no token at all: the same empty answer, and nothing revoked.
    const foreign = await revoke({ client_id: client.client_id, client_secret: client.client_secret, token: other.access_token });
    expect({ status: foreign.statusCode, body: foreign.json() }).toEqual({ status: 200, body: {} });
    expect((await me(other.access_token)).statusCode).toBe(200);
    expect((await revoke({ client_id: client.client_id, client_secret: client.client_secret, token: 'nothing' })).statusCode).toBe(200);
    const res = await revoke({ client_id: client.client_id, client_secret: client.client_secret, token: access_token });
    expect({ status: res.statusCode, body: res.json() }).toEqual({ status: 200, body: {} });
    expectRefused(await me(access_token), 401, 'invalid_token');
  });

  it('stops every token of an account suspended, or whose password changed', async () => {
    const carol = await createUser(t.app);
    const first = await signIn(carol);
    await t.app.db.updateTable('users').set((eb) => ({ token_version: eb('token_version', '+', 1) })).where('id', '=', carol.id).execute();
    expectRefused(await me(first.access_token), 401, 'invalid_token');
    const refreshed = await token({ grant_type: 'refresh_token', client_id: first.client.client_id, client_secret: first.client.client_secret, refresh_token: first.refresh_token });
    expect(refreshed.json()).toMatchObject({ error: 'invalid_grant' });

    const dan = await createUser(t.app);
    const second = await signIn(dan);
    expect((await me(second.access_token)).statusCode).toBe(200);
    await t.app.db.updateTable('users').set({ suspended_at: Date.now() }).where('id', '=', dan.id).execute();
    expectRefused(await me(second.access_token), 401, 'invalid_token');
  });

  it('refuses a call the token was not granted, and lets its scopes cover their sub-scopes', async () => {
    const writer = await signIn(ana, 'write:statuses');
    expectRefused(await me(writer.access_token), 403, 'insufficient_scope');
    const reader = await signIn(ana, 'read');
    const request = (accessToken: string | null) => ({ headers: accessToken ? { authorization: `Bearer ${accessToken}` } : {}, server: t.app }) as unknown as FastifyRequest;
    await expect(requireScope(request(reader.access_token), 'write:statuses')).rejects.toMatchObject({ statusCode: 403, key: 'insufficient_scope' });
    await expect(requireScope(request(reader.access_token), 'read:statuses')).resolves.toMatchObject({ id: ana.id });
    await expect(requireScope(request(writer.access_token), 'write:statuses')).resolves.toMatchObject({ id: ana.id });
    await expect(requireScope(request(null), 'read')).rejects.toMatchObject({ statusCode: 401, key: 'no_token' });
    await expect(requireScope(request('forged'), 'read')).rejects.toMatchObject({ statusCode: 401, key: 'invalid_token' });
  });

  it('lists the apps the account let in and takes one back, which stops its tokens', async () => {
    const erin = await createUser(t.app);
    const { client, access_token } = await signIn(erin, 'read');
    const list = await call(t.app, erin, { method: 'GET', url: '/api/oauth/authorizations' });
    expect(list.statusCode).toBe(200);
    const { apps } = list.json();
    expect(apps).toEqual([{ id: expect.any(String), name: 'Test app', website: 'https://app.example', scopes: ['read'], authorizedAt: expect.any(Number), lastUsedAt: null }]);
    // Others see only their own.
    expect((await call(t.app, bob, { method: 'GET', url: '/api/oauth/authorizations' })).json().apps.map((a: { id: string }) => a.id)).not.toContain(apps[0].id);
    expectError(await call(t.app, bob, { method: 'DELETE', url: `/api/oauth/authorizations/${apps[0].id}` }), 404, 'authorization_not_found');
    expect((await me(access_token)).statusCode).toBe(200);

    expectInfo(await call(t.app, erin, { method: 'DELETE', url: `/api/oauth/authorizations/${apps[0].id}` }), 'app_revoked');
    expectRefused(await me(access_token), 401, 'invalid_token');
    expect((await call(t.app, erin, { method: 'GET', url: '/api/oauth/authorizations' })).json()).toEqual({ apps: [] });
    expect(client.client_id).toEqual(expect.any(String));
  });

  it('notes when a token was last used', async () => {
    const fay = await createUser(t.app);
    const { access_token } = await signIn(fay, 'read');
    const used = Date.now();
    await me(access_token);
    const { apps } = (await call(t.app, fay, { method: 'GET', url: '/api/oauth/authorizations' })).json();
    expect(apps[0].lastUsedAt).toBeGreaterThanOrEqual(used);
  });

  it('describes the server for apps that read its metadata, and lets browser apps call across origins', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/.well-known/oauth-authorization-server' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      issuer: 'http://kruh.test/',
      authorization_endpoint: 'http://kruh.test/oauth/authorize',
      token_endpoint: 'http://kruh.test/oauth/token',
      revocation_endpoint: 'http://kruh.test/oauth/revoke',
      app_registration_endpoint: 'http://kruh.test/api/v1/apps',
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
      grant_types_supported: ['authorization_code', 'client_credentials', 'refresh_token'],
    });
    expect(res.json().scopes_supported).toContain('read:statuses');
    const preflight = await t.app.inject({ method: 'OPTIONS', url: '/oauth/token', headers: { origin: 'https://elk.example', 'access-control-request-method': 'POST' } });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(preflight.headers['access-control-allow-headers']).toContain('Authorization');
  });
});

describe('the token endpoint under the login limits', () => {
  const t = useTestApp();

  it('stops one address guessing an app\'s secret as it stops a password guesser', async () => {
    const client = await registerApp(t.app);
    const guess = () =>
      t.app.inject({ method: 'POST', url: '/oauth/token', remoteAddress: '203.0.113.9', ...form({ grant_type: 'client_credentials', client_id: client.client_id, client_secret: 'guess' }) });
    for (let i = 0; i < LIMITS.loginMaxFailures - 1; i++) expect((await guess()).statusCode).toBe(401);
    const last = await guess();
    expect(last.statusCode).toBe(429);
    expect(last.json()).toMatchObject({ message: 'error/login_timeout', error: expect.any(String) });
    // Even the right secret waits out the lock from there; another address does not.
    const right = form({ grant_type: 'client_credentials', client_id: client.client_id, client_secret: client.client_secret });
    expect((await t.app.inject({ method: 'POST', url: '/oauth/token', remoteAddress: '203.0.113.9', ...right })).statusCode).toBe(429);
    expect((await t.app.inject({ method: 'POST', url: '/oauth/token', remoteAddress: '203.0.113.10', ...right })).statusCode).toBe(200);
  });
});
