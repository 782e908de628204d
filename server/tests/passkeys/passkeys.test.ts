import { describe, expect, it } from 'vitest';
import { LIMITS } from '#core/limits';
import { call, createUser, deleteOwnAccount, type TestUser } from '../helpers/fixtures';
import { expectError, expectInfo } from '../helpers/expect';
import { useTestApp } from '../helpers/test-app';
import { type CreationOptionsLike, type RequestOptionsLike, SoftAuthenticator, strangerKey } from './authenticator';

/** The page the browser is on in these tests, and the matching Host the server is reached at. */
const PAGE = { origin: 'http://localhost', host: 'localhost' };
const page = { origin: PAGE.origin, host: PAGE.host };

describe('passkeys', () => {
  const t = useTestApp();

  async function registrationOptions(user: TestUser, headers = page) {
    const res = await call(t.app, user, { method: 'POST', url: '/api/passkeys/register/options', headers });
    expect(res.statusCode).toBe(200);
    return res.json() as { challengeId: string; options: CreationOptionsLike & { excludeCredentials?: { id: string }[]; rp: { id: string; name: string } } };
  }

  function register(user: TestUser | null, body: unknown) {
    return call(t.app, user, { method: 'POST', url: '/api/passkeys/register', headers: page, payload: body as object });
  }

  /** A new passkey for the user on a new software authenticator. */
  async function addPasskey(user: TestUser, name?: string) {
    const authenticator = new SoftAuthenticator(PAGE.origin);
    const { challengeId, options } = await registrationOptions(user);
    const res = await register(user, { challengeId, response: authenticator.create(options), ...(name ? { name } : {}) });
    expect(res.statusCode).toBe(201);
    return { authenticator, passkey: res.json() as { _id: string; name: string | null; createdAt: number; lastUsedAt: number | null } };
  }

  async function loginOptions(headers = page) {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/passkey/options', headers });
    expect(res.statusCode).toBe(200);
    return res.json() as { challengeId: string; options: RequestOptionsLike & { allowCredentials?: unknown[] } };
  }

  const login = (body: unknown) => t.app.inject({ method: 'POST', url: '/api/auth/passkey', headers: page, payload: body as object });

  const list = (user: TestUser) => call(t.app, user, { method: 'GET', url: '/api/passkeys' });

  const storedCounter = async (credentialId: Buffer) =>
    Number(
      (await t.app.db.selectFrom('passkeys').select('counter').where('credential_id', '=', credentialId.toString('base64url')).executeTakeFirstOrThrow()).counter,
    );

  it('adds a passkey, lists it, signs in with it and keeps the new counter', async () => {
    const user = await createUser(t.app);
    const { challengeId, options } = await registrationOptions(user);
    expect(options.rp).toEqual({ name: 'Kruh', id: 'localhost' });
    expect(options.user.id).toBe(Buffer.from(user.id).toString('base64url'));
    expect(options).toMatchObject({ authenticatorSelection: { residentKey: 'required', userVerification: 'required' }, attestation: 'none' });
    expect(options.excludeCredentials).toEqual([]);

    const authenticator = new SoftAuthenticator(PAGE.origin);
    const before = Date.now();
    const added = await register(user, { challengeId, response: authenticator.create(options), name: '  Phone  ' });
    expect(added.statusCode).toBe(201);
    const passkey = added.json();
    expect(passkey).toEqual({ _id: expect.any(String), name: 'Phone', createdAt: expect.any(Number), lastUsedAt: null });
    expect(passkey.createdAt).toBeGreaterThanOrEqual(before);

    const listed = await list(user);
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual({ passkeys: [passkey] });

    const signIn = await loginOptions();
    expect(signIn.options.rpId).toBe('localhost');
    expect(signIn.options.allowCredentials).toEqual([]);
    const key = authenticator.keys[0]!;
    const res = await login({ challengeId: signIn.challengeId, response: authenticator.get(signIn.options) });
    expect(res.statusCode).toBe(200);
    const session = res.json();
    expect(session).toEqual({ token: expect.any(String), user: { _id: user.id, username: user.username } });
    const check = await t.app.inject({ method: 'POST', url: '/api/auth/test', headers: { authorization: `Bearer ${session.token}` } });
    expect(check.json()).toEqual({ ok: true, user: { _id: user.id, username: user.username } });
    expect(await storedCounter(key.credentialId)).toBe(1);

    const again = await loginOptions();
    expect((await login({ challengeId: again.challengeId, response: authenticator.get(again.options) })).statusCode).toBe(200);
    expect(await storedCounter(key.credentialId)).toBe(2);
    const [used] = (await list(user)).json().passkeys;
    expect(used.lastUsedAt).toBeGreaterThanOrEqual(before);

    // The next registration leaves out the authenticator that already holds a passkey.
    const next = await registrationOptions(user);
    expect(next.options.excludeCredentials).toEqual([{ id: key.credentialId.toString('base64url'), type: 'public-key', transports: ['internal'] }]);
  });

  it('lists only the caller\'s passkeys, newest first', async () => {
    const user = await createUser(t.app);
    const other = await createUser(t.app);
    const first = await addPasskey(user, 'Laptop');
    const second = await addPasskey(user);
    await addPasskey(other, 'Theirs');
    await t.app.db.updateTable('passkeys').set({ created_at: first.passkey.createdAt - 1000 }).where('id', '=', first.passkey._id).execute();
    const { passkeys } = (await list(user)).json();
    expect(passkeys.map((p: { _id: string }) => p._id)).toEqual([second.passkey._id, first.passkey._id]);
    expect(passkeys[1].name).toBe('Laptop');
    expect(passkeys[0].name).toBeNull();
  });

  it('refuses a challenge answered a second time', async () => {
    const user = await createUser(t.app);
    const { authenticator } = await addPasskey(user);
    const { challengeId, options } = await loginOptions();
    expect((await login({ challengeId, response: authenticator.get(options) })).statusCode).toBe(200);
    // The same answer again, and a fresh signature over the used challenge: both refused.
    expectError(await login({ challengeId, response: authenticator.get(options) }), 400, 'passkey_expired');
    expect(await storedCounter(authenticator.keys[0]!.credentialId)).toBe(1);

    const reg = await registrationOptions(user);
    const fresh = new SoftAuthenticator(PAGE.origin);
    expect((await register(user, { challengeId: reg.challengeId, response: fresh.create(reg.options) })).statusCode).toBe(201);
    expectError(await register(user, { challengeId: reg.challengeId, response: fresh.create(reg.options) }), 400, 'passkey_expired');
    expect((await list(user)).json().passkeys).toHaveLength(2);
  });

  it('refuses a challenge past its five minutes', async () => {
    const user = await createUser(t.app);
    const { authenticator } = await addPasskey(user);
    const signIn = await loginOptions();
    const reg = await registrationOptions(user);
    await t.app.db.updateTable('passkey_challenges').set({ expires_at: Date.now() - 1 }).where('id', 'in', [signIn.challengeId, reg.challengeId]).execute();
    expectError(await login({ challengeId: signIn.challengeId, response: authenticator.get(signIn.options) }), 400, 'passkey_expired');
    expectError(await register(user, { challengeId: reg.challengeId, response: new SoftAuthenticator(PAGE.origin).create(reg.options) }), 400, 'passkey_expired');
    expect((await list(user)).json().passkeys).toHaveLength(1);
    // A challenge nobody knows is refused alike.
    expectError(await login({ challengeId: 'nope', response: authenticator.get(signIn.options) }), 400, 'passkey_expired');
    // The next challenge handed out sweeps the old ones away.
    await loginOptions();
    const left = await t.app.db.selectFrom('passkey_challenges').select('id').where('expires_at', '<=', Date.now()).execute();
    expect(left).toEqual([]);
  });

  it('refuses a wrong signature, a copied key\'s old counter and an answer from another page', async () => {
    const user = await createUser(t.app);
    const { authenticator } = await addPasskey(user);
    const key = authenticator.keys[0]!;

    const forged = await loginOptions();
    expectError(await login({ challengeId: forged.challengeId, response: authenticator.get(forged.options, { signWith: strangerKey() }) }), 400, 'passkey_failed');
    expect(await storedCounter(key.credentialId)).toBe(0);
    // The challenge went with the failed attempt.
    expectError(await login({ challengeId: forged.challengeId, response: authenticator.get(forged.options) }), 400, 'passkey_expired');

    const good = await loginOptions();
    expect((await login({ challengeId: good.challengeId, response: authenticator.get(good.options, { counter: 5 }) })).statusCode).toBe(200);
    const replayed = await loginOptions();
    expectError(await login({ challengeId: replayed.challengeId, response: authenticator.get(replayed.options, { counter: 5 }) }), 400, 'passkey_failed');
    expect(await storedCounter(key.credentialId)).toBe(5);

    // Signed for another site: the browser there would report its own origin.
    const elsewhere = await loginOptions();
    const phishing = new SoftAuthenticator('http://evil.test');
    phishing.keys.push(key);
    expectError(await login({ challengeId: elsewhere.challengeId, response: phishing.get(elsewhere.options) }), 400, 'passkey_failed');

    // A registration whose answer signs another challenge.
    const reg = await registrationOptions(user);
    expectError(await register(user, { challengeId: reg.challengeId, response: new SoftAuthenticator(PAGE.origin).create({ ...reg.options, challenge: 'b3RoZXI' }) }), 400, 'passkey_failed');
    expect((await list(user)).json().passkeys).toHaveLength(1);
  });

  it('refuses a passkey it does not know, and one answered for another account\'s challenge', async () => {
    const user = await createUser(t.app);
    const other = await createUser(t.app);
    const unknown = new SoftAuthenticator(PAGE.origin);
    unknown.create({ challenge: 'eA', rp: { id: 'localhost' }, user: { id: 'eA' } });
    const signIn = await loginOptions();
    expectError(await login({ challengeId: signIn.challengeId, response: unknown.get(signIn.options) }), 400, 'passkey_not_found');

    // One account's registration challenge cannot add a passkey to another.
    const reg = await registrationOptions(user);
    expectError(await register(other, { challengeId: reg.challengeId, response: new SoftAuthenticator(PAGE.origin).create(reg.options) }), 400, 'passkey_expired');
    expect((await list(other)).json().passkeys).toEqual([]);
    // Nor may a sign-in challenge stand in for a registration's.
    const loginChallenge = await loginOptions();
    expectError(
      await register(user, { challengeId: loginChallenge.challengeId, response: new SoftAuthenticator(PAGE.origin).create({ ...reg.options, challenge: loginChallenge.options.challenge }) }),
      400,
      'passkey_expired',
    );
  });

  it('removes only the caller\'s own passkey', async () => {
    const owner = await createUser(t.app);
    const other = await createUser(t.app);
    const { passkey } = await addPasskey(owner);
    expectError(await call(t.app, other, { method: 'DELETE', url: `/api/passkeys/${passkey._id}` }), 404, 'passkey_not_found');
    expect((await list(owner)).json().passkeys).toHaveLength(1);
    expectInfo(await call(t.app, owner, { method: 'DELETE', url: `/api/passkeys/${passkey._id}` }), 'passkey_removed');
    expect((await list(owner)).json().passkeys).toEqual([]);
    expectError(await call(t.app, owner, { method: 'DELETE', url: `/api/passkeys/${passkey._id}` }), 404, 'passkey_not_found');
  });

  it('refuses a name over the limit and a malformed passkey id', async () => {
    const user = await createUser(t.app);
    const { challengeId, options } = await registrationOptions(user);
    const response = new SoftAuthenticator(PAGE.origin).create(options);
    expectError(await register(user, { challengeId, response, name: 'x'.repeat(LIMITS.passkeyNameMax + 1) }), 400, 'passkey_failed');
    expect((await list(user)).json().passkeys).toEqual([]);
    // The refused body never reached the challenge, which still answers.
    expect((await register(user, { challengeId, response, name: 'x'.repeat(LIMITS.passkeyNameMax) })).statusCode).toBe(201);
    expectError(await call(t.app, user, { method: 'DELETE', url: '/api/passkeys/not-an-id' }), 400, 'passkey_not_found');
  });

  it('asks for a session to add, list and remove passkeys', async () => {
    const user = await createUser(t.app);
    const { passkey } = await addPasskey(user);
    expectError(await call(t.app, null, { method: 'POST', url: '/api/passkeys/register/options', headers: page }), 401, 'no_token');
    expectError(await register(null, { challengeId: 'x', response: new SoftAuthenticator(PAGE.origin).create({ challenge: 'eA', rp: {}, user: { id: 'eA' } }) }), 401, 'no_token');
    expectError(await call(t.app, null, { method: 'GET', url: '/api/passkeys' }), 401, 'no_token');
    expectError(await call(t.app, null, { method: 'DELETE', url: `/api/passkeys/${passkey._id}` }), 401, 'no_token');
    expect((await list(user)).json().passkeys).toHaveLength(1);
  });

  it('signs in as the password login would: an unverified account is told to verify', async () => {
    const user = await createUser(t.app);
    const { authenticator } = await addPasskey(user);
    await t.app.db.updateTable('users').set({ verified: 0 }).where('id', '=', user.id).execute();
    const { challengeId, options } = await loginOptions();
    expectError(await login({ challengeId, response: authenticator.get(options) }), 403, 'verify_email');
  });

  it('refuses a suspended account, as every way in does', async () => {
    const user = await createUser(t.app);
    const { authenticator } = await addPasskey(user);
    await t.app.db.updateTable('users').set({ suspended_at: Date.now() }).where('id', '=', user.id).execute();
    const { challengeId, options } = await loginOptions();
    expectError(await login({ challengeId, response: authenticator.get(options) }), 403, 'account_suspended');
  });

  it('goes with the account when it is deleted', async () => {
    const user = await createUser(t.app);
    const { authenticator } = await addPasskey(user);
    expectInfo(await deleteOwnAccount(t.app, user), 'account_deleted');
    expect(await t.app.db.selectFrom('passkeys').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
    const { challengeId, options } = await loginOptions();
    expectError(await login({ challengeId, response: authenticator.get(options) }), 400, 'passkey_not_found');
  });

  it('binds a passkey to the host the app was opened at, 127.0.0.1 as well as the configured one', async () => {
    const user = await createUser(t.app);
    const local = { origin: 'http://127.0.0.1:5173', host: '127.0.0.1:5173' };
    const { challengeId, options } = await registrationOptions(user, local);
    expect(options.rp.id).toBe('127.0.0.1');
    const authenticator = new SoftAuthenticator(local.origin);
    const added = await call(t.app, user, { method: 'POST', url: '/api/passkeys/register', headers: local, payload: { challengeId, response: authenticator.create(options) } });
    expect(added.statusCode).toBe(201);
    const signIn = await loginOptions(local);
    expect(signIn.options.rpId).toBe('127.0.0.1');
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/passkey', headers: local, payload: { challengeId: signIn.challengeId, response: authenticator.get(signIn.options) } });
    expect(res.statusCode).toBe(200);

    // A page elsewhere is not believed: the options name the configured site.
    expect((await loginOptions({ origin: 'http://evil.test', host: PAGE.host })).options.rpId).toBe('kruh.test');
    expect((await loginOptions({ origin: 'http://kruh.test', host: 'internal:3000' })).options.rpId).toBe('kruh.test');
  });
});

describe('passkey challenges are limited per asker', () => {
  const t = useTestApp({ RATE_PASSKEY_CHALLENGES_PER_HOUR: '2' });

  const loginOptions = (remoteAddress: string) => t.app.inject({ method: 'POST', url: '/api/auth/passkey/options', headers: page, remoteAddress });
  const registrationOptions = (user: TestUser) => call(t.app, user, { method: 'POST', url: '/api/passkeys/register/options', headers: page });
  const challenges = async () => (await t.app.db.selectFrom('passkey_challenges').select('id').execute()).length;

  it('refuses a third sign-in challenge from one address within the hour, and keeps no row for it', async () => {
    expect((await loginOptions('10.0.0.1')).statusCode).toBe(200);
    expect((await loginOptions('10.0.0.1')).statusCode).toBe(200);
    const before = await challenges();
    expectError(await loginOptions('10.0.0.1'), 429, 'passkey_limit');
    expect(await challenges()).toBe(before);
    // Another address asks on its own count.
    expect((await loginOptions('10.0.0.2')).statusCode).toBe(200);
  });

  it('counts the challenges for adding a passkey per account', async () => {
    const [ann, ben] = [await createUser(t.app), await createUser(t.app)];
    expect((await registrationOptions(ann)).statusCode).toBe(200);
    expect((await registrationOptions(ann)).statusCode).toBe(200);
    expectError(await registrationOptions(ann), 429, 'passkey_limit');
    expect((await registrationOptions(ben)).statusCode).toBe(200);
  });
});
