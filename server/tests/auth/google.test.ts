import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type CryptoKey, SignJWT, exportJWK, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSettings } from '../../src/modules/instance/instance.repository';
import { createUser } from '../helpers/fixtures';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { countRows, createPasswordUser, expectError, expectInfo, lastMail, login, parseLink, signup } from './support';

const CLIENT_ID = 'kruh-test.apps.googleusercontent.com';
const KID = 'test-key';

describe('Google sign-in', () => {
  let t: TestApp;
  let jwks: Server;
  let privateKey: CryptoKey;
  let otherKey: CryptoKey;
  let sub = 0;

  beforeAll(async () => {
    const pair = await generateKeyPair('RS256');
    privateKey = pair.privateKey;
    otherKey = (await generateKeyPair('RS256')).privateKey;
    const publicJwk = { ...(await exportJWK(pair.publicKey)), kid: KID, alg: 'RS256', use: 'sig' };
    jwks = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: [publicJwk] }));
    });
    await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
    const { port } = jwks.address() as AddressInfo;
    t = await createTestApp({ GOOGLE_CLIENT_ID: CLIENT_ID, GOOGLE_JWKS_URL: `http://127.0.0.1:${port}/certs` });
  });
  afterAll(async () => {
    await t.close();
    await new Promise((resolve) => jwks.close(resolve));
  });

  interface Claims {
    sub?: string;
    email?: string;
    email_verified?: boolean;
    name?: string;
    aud?: string;
    iss?: string;
    exp?: number;
    key?: CryptoKey;
  }

  async function idToken(claims: Claims = {}): Promise<string> {
    const { aud = CLIENT_ID, iss = 'https://accounts.google.com', exp, key = privateKey, sub: subject = `g-${++sub}`, ...rest } = claims;
    const jwt = new SignJWT({ email_verified: true, ...rest })
      .setProtectedHeader({ alg: 'RS256', kid: KID })
      .setSubject(subject)
      .setAudience(aud)
      .setIssuer(iss)
      .setIssuedAt();
    jwt.setExpirationTime(exp ?? Math.floor(Date.now() / 1000) + 600);
    return jwt.sign(key);
  }

  const google = (token: unknown) => t.app.inject({ method: 'POST', url: '/api/auth/google', payload: { token } });

  it('makes no new account unless sign-ups are open, while a known account still signs in', async () => {
    const known = await google(await idToken({ sub: 'known-before', email: 'known@gmail.test', name: 'Known' }));
    expect(known.statusCode).toBe(200);
    const setMode = (mode: string) => t.app.db.insertInto('server_settings').values({ name: 'registration', value: JSON.stringify({ mode, membersInvite: false }), created_at: Date.now() })
      .onConflict((oc) => oc.column('name').doUpdateSet({ value: JSON.stringify({ mode, membersInvite: false }) })).execute();
    try {
      const before = await countRows(t.app, 'users');
      await setMode('closed');
      expectError(await google(await idToken({ email: 'closed@gmail.test' })), 403, 'registrations_closed');
      for (const mode of ['approval', 'invitation']) {
        await setMode(mode);
        expectError(await google(await idToken({ email: `${mode}@gmail.test` })), 403, 'google_signup_closed');
      }
      expect(await countRows(t.app, 'users')).toBe(before);
      expect((await google(await idToken({ sub: 'known-before', email: 'known@gmail.test', name: 'Known' }))).statusCode).toBe(200);
    } finally {
      await setMode('open');
    }
  });

  it("asks a new account to accept the instance's rules, as the sign-up form does, and no known account again", async () => {
    const known = await google(await idToken({ sub: 'known-before-rules', email: 'ruled@gmail.test', name: 'Ruled' }));
    expect(known.statusCode).toBe(200);
    await writeSettings(t.app.db, { name: '', description: '', about: '', rules: ['Be kind.'], contact: '' }, known.json().user._id);
    const withRules = (token: string, acceptRules?: boolean) => t.app.inject({ method: 'POST', url: '/api/auth/google', payload: { token, acceptRules } });
    try {
      const before = await countRows(t.app, 'users');
      expectError(await withRules(await idToken({ sub: 'newcomer-rules', email: 'newcomer@gmail.test' })), 400, 'rules_not_accepted');
      expectError(await withRules(await idToken({ sub: 'newcomer-rules', email: 'newcomer@gmail.test' }), false), 400, 'rules_not_accepted');
      expect(await countRows(t.app, 'users')).toBe(before);
      expect((await withRules(await idToken({ sub: 'known-before-rules', email: 'ruled@gmail.test' }))).statusCode).toBe(200);
      expect((await withRules(await idToken({ sub: 'newcomer-rules', email: 'newcomer@gmail.test' }), true)).statusCode).toBe(200);
      expect(await countRows(t.app, 'users')).toBe(before + 1);
    } finally {
      await writeSettings(t.app.db, { name: '', description: '', about: '', rules: [], contact: '' }, known.json().user._id);
    }
  });

  it('refuses a suspended account its session, and signs it in again once restored', async () => {
    const first = await google(await idToken({ sub: 'suspended-person', email: 'pozastaveny@gmail.test', name: 'Pozastaveny' }));
    expect(first.statusCode).toBe(200);
    const id = first.json().user._id;
    await t.app.db.updateTable('users').set({ suspended_at: Date.now() }).where('id', '=', id).execute();
    expectError(await google(await idToken({ sub: 'suspended-person', email: 'pozastaveny@gmail.test', name: 'Pozastaveny' })), 403, 'account_suspended');
    await t.app.db.updateTable('users').set({ suspended_at: null }).where('id', '=', id).execute();
    expect((await google(await idToken({ sub: 'suspended-person', email: 'pozastaveny@gmail.test', name: 'Pozastaveny' }))).statusCode).toBe(200);
  });

  it('creates a verified account without a password, with a valid unique username, and signs in', async () => {
    const token = await idToken({ sub: 'new-person', email: 'Jana.Novakova@Gmail.test', name: 'Jana Nováková' });
    const res = await google(token);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.user.username).toBe('JanaNováková');
    const row = await t.app.db.selectFrom('users').selectAll().where('id', '=', body.user._id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ google_sub: 'new-person', email: 'jana.novakova@gmail.test', verified: 1, password_hash: null });
    const check = await t.app.inject({ method: 'POST', url: '/api/auth/test', headers: { authorization: `Bearer ${body.token}` } });
    expect(check.statusCode).toBe(200);

    // The same Google account again: the same user, no new row.
    const users = await countRows(t.app, 'users');
    const again = await google(await idToken({ sub: 'new-person', email: 'jana.novakova@gmail.test', name: 'Jana Nováková' }));
    expect(again.json().user._id).toBe(body.user._id);
    expect(await countRows(t.app, 'users')).toBe(users);

    // A Google account has no password to log in with.
    expectError(await login(t.app, body.user.username, 'anything1'), 400, 'login_google');
  });

  it('makes the derived name unique and valid', async () => {
    await createUser(t.app, { username: 'Petr' });
    const res = await google(await idToken({ email: 'petr@gmail.test', name: 'Petr' }));
    expect(res.statusCode).toBe(200);
    expect(res.json().user.username).toMatch(/^Petr\d+$/);

    const short = await google(await idToken({ email: 'x@gmail.test', name: 'X' }));
    expect(short.json().user.username).toBe('Xuser');

    const noName = await google(await idToken({ email: 'mail.box@gmail.test' }));
    expect(noName.json().user.username).toBe('mail.box');

    const long = await google(await idToken({ email: 'long@gmail.test', name: 'A'.repeat(60) }));
    expect([...long.json().user.username].length).toBeLessThanOrEqual(32);
  });

  it('never derives a look-alike of an existing name', async () => {
    await createUser(t.app, { username: 'Olga' });
    // Full-width letters are normalised (NFKC) to the plain name, which is taken.
    const wide = await google(await idToken({ email: 'olga@gmail.test', name: '\uFF2F\uFF4C\uFF47\uFF41' }));
    expect(wide.json().user.username).toMatch(/^Olga\d+$/);
    // A Cyrillic O looks the same, so the name gets a suffix too.
    const cyrillic = await google(await idToken({ email: 'olga2@gmail.test', name: '\u041Elga' }));
    expect(cyrillic.json().user.username).toMatch(/^\u041Elga\d+$/);
  });

  it('links an existing account with the same address', async () => {
    const user = await createPasswordUser(t.app, 'secret12', { username: 'Linked', email: 'linked@gmail.test' });
    const res = await google(await idToken({ sub: 'linked-sub', email: 'Linked@gmail.test', name: 'Someone Else' }));
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toEqual({ _id: user.id, username: 'Linked' });
    const row = await t.app.db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.google_sub).toBe('linked-sub');
  });

  it("keeps a linked account's password in charge: it still changes the password and the address, and gets the reset mail", async () => {
    expect((await signup(t.app, { username: 'Keeper', email: 'keeper@gmail.test', password: 'secret12' })).statusCode).toBe(201);
    const link = parseLink((await lastMail(t, 'keeper@gmail.test')).link);
    expect((await t.app.inject({ method: 'GET', url: `/api/auth/verify?token=${link.token}&email=${encodeURIComponent(link.email)}` })).statusCode).toBe(200);
    const linked = await google(await idToken({ sub: 'keeper-sub', email: 'keeper@gmail.test', name: 'Keeper' }));
    expect(linked.statusCode).toBe(200);
    const auth = { authorization: `Bearer ${linked.json().token}` };
    const account = async () => (await t.app.inject({ method: 'POST', url: '/api/account/get', headers: auth })).json().user;
    expect(await account()).toMatchObject({ username: 'Keeper', isGoogle: false });

    // The reset mail is the ordinary one, with a link that sets a new password.
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/forgot', payload: { email: 'keeper@gmail.test' } })).statusCode).toBe(200);
    const reset = await lastMail(t, 'keeper@gmail.test');
    expect(reset.link).toMatch(/^http:\/\/kruh\.test\/reset\?token=/);

    // The password still changes (so a leaked one can be replaced), and both ways in still work.
    const change = await t.app.inject({ method: 'PATCH', url: '/api/account/changepassword', headers: auth, payload: { oldPassword: 'secret12', newPassword: 'fresh!pass' } });
    expect(change.statusCode).toBe(200);
    expectError(await login(t.app, 'Keeper', 'secret12'), 400, 'invalid_credentials');
    const again = await login(t.app, 'Keeper', 'fresh!pass');
    expect(again.statusCode).toBe(200);
    expect((await google(await idToken({ sub: 'keeper-sub', email: 'keeper@gmail.test' }))).json().user.username).toBe('Keeper');

    // And so does the address.
    const email = await t.app.inject({
      method: 'PATCH',
      url: '/api/account/changeemail',
      headers: { authorization: `Bearer ${again.json().token}` },
      payload: { email: 'keeper.moved@example.test', password: 'fresh!pass' },
    });
    expectInfo(email, 'email_send');
  });

  it('takes over an unverified account of that address, dropping the unproven password', async () => {
    const squatter = await createPasswordUser(t.app, 'secret12', { username: 'Squatter', email: 'owner@gmail.test', verified: false });
    const res = await google(await idToken({ sub: 'owner-sub', email: 'owner@gmail.test' }));
    expect(res.json().user._id).toBe(squatter.id);
    expectError(await login(t.app, 'Squatter', 'secret12'), 400, 'login_google');
    expectError(await t.app.inject({ method: 'POST', url: '/api/auth/test', headers: squatter.auth }), 401, 'invalid_token');
  });

  it('does not link by an address Google does not vouch for', async () => {
    const user = await createPasswordUser(t.app, 'secret12', { email: 'unvouched@gmail.test' });
    const res = await google(await idToken({ sub: 'unvouched-sub', email: 'unvouched@gmail.test', email_verified: false, name: 'Unvouched' }));
    expect(res.statusCode).toBe(200);
    expect(res.json().user._id).not.toBe(user.id);
    const row = await t.app.db.selectFrom('users').selectAll().where('google_sub', '=', 'unvouched-sub').executeTakeFirstOrThrow();
    expect(row.email).toBeNull();
  });

  it.each([
    ['a wrong audience', { aud: 'someone-else.apps.googleusercontent.com' }],
    ['a wrong issuer', { iss: 'https://evil.example' }],
    ['a bad signature', { key: 'other' as const }],
    ['an expired token', { exp: Math.floor(Date.now() / 1000) - 3600 }],
  ])('refuses %s with google_failed and stores nothing', async (_name, claims) => {
    const users = await countRows(t.app, 'users');
    const token = await idToken({ ...claims, key: 'key' in claims ? otherKey : privateKey } as Claims);
    expectError(await google(token), 400, 'google_failed');
    expect(await countRows(t.app, 'users')).toBe(users);
  });

  it('accepts the bare issuer form too', async () => {
    expect((await google(await idToken({ iss: 'accounts.google.com', email: 'bare@gmail.test' }))).statusCode).toBe(200);
  });

  it('refuses garbage and a missing token with google_failed', async () => {
    expectError(await google('not.a.jwt'), 400, 'google_failed');
    expectError(await t.app.inject({ method: 'POST', url: '/api/auth/google', payload: {} }), 400, 'google_failed');
  });

  it('answers google_failed when no Google client id is configured', async () => {
    const plain = await createTestApp();
    try {
      const res = await plain.app.inject({ method: 'POST', url: '/api/auth/google', payload: { token: await idToken() } });
      expectError(res, 400, 'google_failed');
    } finally {
      await plain.close();
    }
  });
});
