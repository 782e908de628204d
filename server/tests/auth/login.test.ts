import { describe, expect, it } from 'vitest';
import { LIMITS } from '#core/limits';
import { createTestApp, useTestApp } from '../helpers/test-app';
import { countRows, createPasswordUser, expectError, freshAddress, login } from './support';
import { createUser } from '../helpers/fixtures';

const MAX = LIMITS.loginMaxFailures;
const PER_ACCOUNT = LIMITS.loginMaxFailuresPerAccount;
const PER_ADDRESS = LIMITS.loginMaxFailuresPerAddress;

describe('login, lockout and the auth guard', () => {
  const t = useTestApp();

  const failures = (key: string) =>
    t.app.db.selectFrom('login_failures').select('id').where('key', '=', key).execute().then((rows) => rows.length);

  it('logs in by username in any case or by email, answering token and user', async () => {
    const user = await createPasswordUser(t.app, 'secret12', { username: 'CaseUser', email: 'case@example.test' });
    // Full-width letters are the same name once NFKC-normalised, as names are stored.
    for (const name of ['CaseUser', 'caseuser', ' CASEUSER ', 'ＣａｓｅＵｓｅｒ', 'case@example.test', 'CASE@Example.test']) {
      const res = await login(t.app, name, 'secret12');
      expect(res.statusCode, name).toBe(200);
      const body = res.json();
      expect(body.user).toEqual({ _id: user.id, username: 'CaseUser' });
      const check = await t.app.inject({ method: 'POST', url: '/api/auth/test', headers: { authorization: `Bearer ${body.token}` } });
      expect(check.statusCode).toBe(200);
      expect(check.json()).toEqual({ ok: true, user: { _id: user.id, username: 'CaseUser' } });
    }
  });

  it('answers invalid_credentials alike for an unknown user and a wrong password', async () => {
    await createPasswordUser(t.app, 'secret12', { username: 'Known' });
    expectError(await login(t.app, 'Known', 'wrongpass'), 400, 'invalid_credentials');
    expectError(await login(t.app, 'Nobody', 'secret12'), 400, 'invalid_credentials');
    expectError(await login(t.app, 'nobody@example.test', 'secret12'), 400, 'invalid_credentials');
    expectError(await login(t.app, '', ''), 400, 'invalid_credentials');
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: {}, remoteAddress: freshAddress() });
    expectError(res, 400, 'invalid_credentials');
  });

  it('refuses an unverified account with verify_email and a Google account with login_google', async () => {
    await createPasswordUser(t.app, 'secret12', { username: 'Unverified', verified: false });
    expectError(await login(t.app, 'Unverified', 'secret12'), 403, 'verify_email');
    // A wrong password is still just wrong: whether the account is verified is not told.
    expectError(await login(t.app, 'Unverified', 'nope123'), 400, 'invalid_credentials');
    await createUser(t.app, { username: 'GoogleOnly', googleSub: 'google-only-sub' });
    expectError(await login(t.app, 'GoogleOnly', 'whatever1'), 400, 'login_google');
  });

  it(`locks an account from one address after ${MAX} failures there, even for the right password, and nobody else`, async () => {
    const user = await createPasswordUser(t.app, 'secret12', { username: 'Target' });
    await createPasswordUser(t.app, 'secret12', { username: 'Neighbour' });
    const address = freshAddress();
    for (let i = 1; i < MAX; i++) {
      expectError(await login(t.app, 'Target', `wrong${i}xx`, address), 400, 'invalid_credentials');
    }
    expectError(await login(t.app, 'Target', 'wrong-last', address), 429, 'login_timeout');
    expectError(await login(t.app, 'Target', 'secret12', address), 429, 'login_timeout');
    expectError(await login(t.app, 'target@example.test', 'secret12', address), 429, 'login_timeout');
    // Refused attempts do not extend the lock.
    expect(await failures(`user:${user.id}|ip:${address}`)).toBe(MAX);

    // Someone else behind the same address signs in; so does the account's owner from elsewhere.
    expect((await login(t.app, 'Neighbour', 'secret12', address)).statusCode).toBe(200);
    expect((await login(t.app, 'Target', 'secret12', freshAddress())).statusCode).toBe(200);
    // Which does not lift the lock on the address the guesses came from.
    expectError(await login(t.app, 'Target', 'secret12', address), 429, 'login_timeout');

    // Three minutes later the lock is over.
    await t.app.db
      .updateTable('login_failures')
      .set((eb) => ({ created_at: eb('created_at', '-', LIMITS.loginLockoutMs) }))
      .where('key', 'like', `user:${user.id}%`)
      .execute();
    const res = await login(t.app, 'Target', 'secret12', address);
    expect(res.statusCode).toBe(200);
    // A success clears the account's failures, and those from where it signed in.
    expect(await failures(`user:${user.id}`)).toBe(0);
    expect(await failures(`user:${user.id}|ip:${address}`)).toBe(0);
  });

  it(`locks an account everywhere after ${PER_ACCOUNT} failures spread over addresses`, async () => {
    const user = await createPasswordUser(t.app, 'secret12', { username: 'Spreadout' });
    const replies: number[] = [];
    for (let i = 0; i < PER_ACCOUNT; i++) replies.push((await login(t.app, 'Spreadout', `wrong${i}xx`, freshAddress())).statusCode);
    expect(replies.at(-1)).toBe(429);
    expect(replies.filter((status) => status === 400)).toHaveLength(PER_ACCOUNT - 1);
    expectError(await login(t.app, 'Spreadout', 'secret12', freshAddress()), 429, 'login_timeout');
    expect(await failures(`user:${user.id}`)).toBe(PER_ACCOUNT);
  });

  it('answers a name nobody has exactly as a registered one, failure after failure, so the lock tells no names', async () => {
    await createPasswordUser(t.app, 'secret12', { username: 'Registered' });
    await createPasswordUser(t.app, 'secret12', { username: 'ByAddress', email: 'by-address@example.test' });
    // Each name from an address of its own, so only a lock on the name could answer differently.
    const answers = async (name: string) => {
      const address = freshAddress();
      const replies = [];
      for (let i = 0; i <= MAX; i++) {
        const res = await login(t.app, name, `wrong${i}xx`, address);
        replies.push({ status: res.statusCode, body: res.json() });
      }
      // And the same locked name from that address, for any password.
      const locked = await login(t.app, name, 'secret12', address);
      replies.push({ status: locked.statusCode, body: locked.json() });
      return replies;
    };
    const registered = await answers('Registered');
    expect(registered.at(-1)).toEqual({ status: 429, body: { message: 'error/login_timeout' } });
    expect(await answers('Nobody-here')).toEqual(registered);
    expect(await answers('no-account@example.test')).toEqual(await answers('by-address@example.test'));
  });

  it('locks a name nobody has everywhere after the same spread of failures as a registered one', async () => {
    const known = await createPasswordUser(t.app, 'secret12', { username: 'WideKnown' });
    // All but the last two failures written as if made from other addresses a moment ago.
    const now = Date.now();
    const earlier = (key: string) =>
      t.app.db.insertInto('login_failures').values(Array.from({ length: PER_ACCOUNT - 2 }, (_, i) => ({ key, created_at: now - i }))).execute();
    await earlier(`user:${known.id}`);
    await earlier('name:widenobody');
    const answers = async (name: string) => {
      const replies: number[] = [];
      for (let i = 0; i < 3; i++) replies.push((await login(t.app, name, `wrong${i}xx`, freshAddress())).statusCode);
      return replies;
    };
    const registered = await answers('WideKnown');
    expect(registered).toEqual([400, 429, 429]);
    expect(await answers('WideNobody')).toEqual(registered);
  });

  it('does not lock for failures spread wider than the window', async () => {
    const user = await createPasswordUser(t.app, 'secret12', { username: 'Spread' });
    for (let i = 1; i < MAX; i++) await login(t.app, 'Spread', 'wrong123');
    await t.app.db
      .updateTable('login_failures')
      .set((eb) => ({ created_at: eb('created_at', '-', LIMITS.loginLockoutMs + 1000) }))
      .where('key', '=', `user:${user.id}`)
      .execute();
    expectError(await login(t.app, 'Spread', 'wrong123'), 400, 'invalid_credentials');
    expect((await login(t.app, 'Spread', 'secret12')).statusCode).toBe(200);
  });

  it('clears an account\'s failures on success, so earlier failures do not add up', async () => {
    const user = await createPasswordUser(t.app, 'secret12', { username: 'Clumsy' });
    for (let i = 1; i < MAX; i++) await login(t.app, 'Clumsy', 'wrong123');
    expect((await login(t.app, 'Clumsy', 'secret12')).statusCode).toBe(200);
    expect(await failures(`user:${user.id}`)).toBe(0);
    expectError(await login(t.app, 'Clumsy', 'wrong123'), 400, 'invalid_credentials');
  });

  it(`throttles an address after ${PER_ADDRESS} failures on any names, other addresses unaffected`, async () => {
    await createPasswordUser(t.app, 'secret12', { username: 'Innocent' });
    const address = freshAddress();
    // One person's mistakes on several accounts lock nobody else behind the address.
    for (let i = 1; i <= MAX; i++) expectError(await login(t.app, `ghost${i}`, 'whatever1', address), 400, 'invalid_credentials');
    expect((await login(t.app, 'Innocent', 'secret12', address)).statusCode).toBe(200);
    // Many more failures on other names from there, written as if made a moment ago.
    const now = Date.now();
    await t.app.db
      .insertInto('login_failures')
      .values(Array.from({ length: PER_ADDRESS - MAX - 1 }, (_, i) => ({ key: `ip:${address}`, created_at: now - i })))
      .execute();
    expectError(await login(t.app, 'ghost-last', 'whatever1', address), 429, 'login_timeout');
    expectError(await login(t.app, 'Innocent', 'secret12', address), 429, 'login_timeout');
    expect(await failures(`ip:${address}`)).toBe(PER_ADDRESS);
    expect((await login(t.app, 'Innocent', 'secret12', freshAddress())).statusCode).toBe(200);
  });

  it('ignores X-Forwarded-For unless a proxy is trusted', async () => {
    const client = freshAddress();
    for (let i = 0; i < MAX; i++) {
      await login(t.app, 'ghost', 'whatever1', client, { 'x-forwarded-for': '203.0.113.8' });
    }
    expect(await failures(`ip:${client}`)).toBe(MAX);
    expect(await failures('ip:203.0.113.8')).toBe(0);
  });

  it('takes the address from X-Forwarded-For behind a trusted proxy', async () => {
    const proxy = freshAddress();
    const behind = await createTestApp({ TRUST_PROXY: proxy });
    try {
      for (let i = 0; i < MAX; i++) {
        await login(behind.app, 'ghost', 'whatever1', proxy, { 'x-forwarded-for': '203.0.113.7' });
      }
      const count = async (key: string) =>
        (await behind.app.db.selectFrom('login_failures').select('key').where('key', '=', key).execute()).length;
      expect(await count('ip:203.0.113.7')).toBe(MAX);
      expect(await count(`ip:${proxy}`)).toBe(0);
    } finally {
      await behind.close();
    }
  });

  it('keeps the lockout in the database, shared by every process', async () => {
    const user = await createPasswordUser(t.app, 'secret12', { username: 'Shared' });
    const now = Date.now();
    // Failures recorded by some other server process.
    await t.app.db
      .insertInto('login_failures')
      .values(Array.from({ length: PER_ACCOUNT }, (_, i) => ({ key: `user:${user.id}`, created_at: now - i * 1000 })))
      .execute();
    expectError(await login(t.app, 'Shared', 'secret12'), 429, 'login_timeout');
  });

  it('prunes failures older than the lockout can look at', async () => {
    await t.app.db.insertInto('login_failures').values({ key: 'ip:198.51.100.1', created_at: Date.now() - 3 * LIMITS.loginLockoutMs }).execute();
    // A name no earlier test locked: a refused attempt records nothing, so prunes nothing either.
    await login(t.app, 'ghost-prune', 'whatever1');
    expect(await failures('ip:198.51.100.1')).toBe(0);
    expect(await countRows(t.app, 'login_failures')).toBeGreaterThan(0);
  });

  it('guards with /auth/test: no_token without a token, invalid_token for a bad one', async () => {
    expectError(await t.app.inject({ method: 'POST', url: '/api/auth/test' }), 401, 'no_token');
    const bad = await t.app.inject({ method: 'POST', url: '/api/auth/test', headers: { authorization: 'Bearer nonsense' } });
    expectError(bad, 401, 'invalid_token');
    const user = await createUser(t.app);
    const gone = await t.app.signToken({ id: '0123456789abcdef01234567', token_version: 0 });
    expectError(await t.app.inject({ method: 'POST', url: '/api/auth/test', headers: { authorization: `Bearer ${gone}` } }), 401, 'invalid_token');
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/test', headers: user.auth })).statusCode).toBe(200);
  });
});
