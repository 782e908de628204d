import { describe, expect, it } from 'vitest';
import { createUser } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';
import { ageRateEvents, countRows, expectError, expectInfo, freshAddress, lastMail, login, mailCount, parseLink } from './support';

describe('sign-up and email verification', () => {
  const t = useTestApp();

  // Each from its own address, so the per-address sign-up limit stays out of these tests.
  const signup = (payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: '/api/auth/signup', payload, headers, remoteAddress: freshAddress() });

  const valid = { username: 'Newcomer', email: 'Newcomer@Example.test', password: 'pa$$w0rd' };

  it.each([
    [{ ...valid, username: '' }, 'new_username'],
    [{ ...valid, username: '   ' }, 'new_username'],
    [{ ...valid, username: 'ab' }, 'min_username_length'],
    [{ ...valid, username: 'x'.repeat(33) }, 'max_username_length'],
    [{ ...valid, username: 'me@home' }, 'username_at'],
    [{ ...valid, username: 'fuck' }, 'username_profanity'],
    [{ email: valid.email, password: valid.password }, 'new_username'],
    [{ ...valid, email: 'not-an-email' }, 'invalid_email'],
    [{ ...valid, email: 'a@b' }, 'invalid_email'],
    [{ username: valid.username, password: valid.password }, 'invalid_email'],
    [{ ...valid, password: '' }, 'new_password'],
    [{ ...valid, password: 'has space' }, 'password_spaces'],
    [{ ...valid, password: 'tab\tbed' }, 'password_spaces'],
    [{ ...valid, password: 'emoji😀ok' }, 'password_invalid'],
    [{ ...valid, password: 'abc12' }, 'min_password_length'],
    [{ ...valid, password: 'a'.repeat(129) }, 'max_password_length'],
    [{ username: valid.username, email: valid.email }, 'new_password'],
  ])('refuses %j with %s and stores nothing', async (payload, key) => {
    const before = await countRows(t.app, 'users');
    const res = await signup(payload);
    expectError(res, 400, key);
    expect(await countRows(t.app, 'users')).toBe(before);
    expect(await countRows(t.app, 'email_tokens')).toBe(0);
  });

  it('accepts the limits: 3 and 32 character names, 6 and 128 character passwords', async () => {
    expect((await signup({ username: 'abc', email: 'abc@example.test', password: 'a'.repeat(128) })).statusCode).toBe(201);
    expect((await signup({ username: 'y'.repeat(32), email: 'long@example.test', password: 'Ab1!x_' })).statusCode).toBe(201);
  });

  it('refuses a taken username in any case, and a used email, with 409 and nothing stored', async () => {
    const owner = await createUser(t.app, { username: 'TakenName', email: 'taken@example.test' });
    const before = await countRows(t.app, 'users');
    expectError(await signup({ ...valid, username: 'takenNAME' }), 409, 'username_taken');
    expectError(await signup({ ...valid, username: 'Another', email: 'TAKEN@example.test' }), 409, 'email_used');
    expect(await countRows(t.app, 'users')).toBe(before);
    expect(await mailCount(t, owner.email)).toBe(0);
  });

  it('creates an unverified account, mails a link, and the link verifies it once', async () => {
    const res = await signup(valid);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ message: 'info/signup_email', signupLogin: expect.any(String) });

    const row = await t.app.db.selectFrom('users').selectAll().where('username_lower', '=', 'newcomer').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ username: 'Newcomer', email: 'newcomer@example.test', verified: 0, google_sub: null, language: 'en' });
    expect(row.password_hash).toMatch(/^\$argon2id\$/);

    // Not verified yet: the right password is refused with verify_email.
    expectError(await login(t.app, 'Newcomer', valid.password), 403, 'verify_email');

    const mail = await lastMail(t, 'newcomer@example.test');
    expect(mail.subject).toMatch(/confirm/i);
    const link = parseLink(mail.link);
    expect(mail.link).toMatch(/^http:\/\/kruh\.test\/verify\?token=/);
    expect(link).toMatchObject({ route: '/verify', email: 'newcomer@example.test' });
    // Only a hash of the token is stored.
    const stored = await t.app.db.selectFrom('email_tokens').selectAll().where('user_id', '=', row.id).where('purpose', '!=', 'signup_login').execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]!.purpose).toBe('verify');
    expect(stored[0]!.token_hash).not.toBe(link.token);
    expect(stored[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);

    const url = `/api/auth/verify?token=${encodeURIComponent(link.token)}&email=${encodeURIComponent(link.email)}`;
    const verified = await t.app.inject({ method: 'GET', url });
    expectInfo(verified, 'email_verified');
    const after = await t.app.db.selectFrom('users').select('verified').where('id', '=', row.id).executeTakeFirstOrThrow();
    expect(after.verified).toBe(1);

    // Used links do not work again.
    expectError(await t.app.inject({ method: 'GET', url }), 400, 'invalid_link');

    const session = await login(t.app, 'newcomer@example.test', valid.password);
    expect(session.statusCode).toBe(200);
    expect(session.json().user).toEqual({ _id: row.id, username: 'Newcomer' });
  });

  it("signs in the browser that signed up once the address is verified, once, with the sign-up's key", async () => {
    const { signupLogin: key } = (await signup({ username: 'Returning', email: 'returning@example.test', password: 'secret12' })).json<{ signupLogin: string }>();
    const exchange = (payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/api/auth/signup-login', payload });
    // Not before the mailed link was opened: the key alone proves no address.
    expectError(await exchange({ key, email: 'returning@example.test' }), 403, 'verify_email');
    const link = parseLink((await lastMail(t, 'returning@example.test')).link);
    expect((await t.app.inject({ method: 'GET', url: `/api/auth/verify?token=${link.token}&email=${encodeURIComponent(link.email)}` })).statusCode).toBe(200);
    // Neither with another address, nor with the mailed link's token.
    expectError(await exchange({ key, email: 'other@example.test' }), 400, 'invalid_link');
    expectError(await exchange({ key: link.token, email: 'returning@example.test' }), 400, 'invalid_link');
    const session = await exchange({ key, email: 'returning@example.test' });
    expect(session.statusCode).toBe(200);
    expect(session.json().user).toMatchObject({ username: 'Returning' });
    const test = await t.app.inject({ method: 'POST', url: '/api/auth/test', headers: { authorization: `Bearer ${session.json().token}` } });
    expect(test.statusCode).toBe(200);
    expectError(await exchange({ key, email: 'returning@example.test' }), 400, 'invalid_link');
  });

  it('answers invalid_link for a wrong, missing, mismatched or expired token', async () => {
    await signup({ username: 'Expiring', email: 'expiring@example.test', password: 'secret12' });
    const link = parseLink((await lastMail(t, 'expiring@example.test')).link);
    const verify = (query: string) => t.app.inject({ method: 'GET', url: `/api/auth/verify${query}` });

    expectError(await verify('?token=nope&email=expiring%40example.test'), 400, 'invalid_link');
    expectError(await verify(''), 400, 'invalid_link');
    expectError(await verify(`?token=${link.token}&email=other%40example.test`), 400, 'invalid_link');

    await t.app.db.updateTable('email_tokens').set({ expires_at: Date.now() - 1 }).execute();
    expectError(await verify(`?token=${link.token}&email=expiring%40example.test`), 400, 'invalid_link');
    const row = await t.app.db.selectFrom('users').select('verified').where('username_lower', '=', 'expiring').executeTakeFirstOrThrow();
    expect(row.verified).toBe(0);
  });

  it('mails a fresh link when an unverified account logs in, at most every few minutes', async () => {
    await signup({ username: 'Forgetful', email: 'forgetful@example.test', password: 'secret12' });
    expect(await mailCount(t, 'forgetful@example.test')).toBe(1);
    expectError(await login(t.app, 'forgetful', 'secret12'), 403, 'verify_email');
    expect(await mailCount(t, 'forgetful@example.test')).toBe(1);

    await ageRateEvents(t.app, 'mail:verify:', 10 * 60 * 1000);
    expectError(await login(t.app, 'forgetful', 'secret12'), 403, 'verify_email');
    expect(await mailCount(t, 'forgetful@example.test')).toBe(2);
    // The newest link works; the replaced one does not.
    const link = parseLink((await lastMail(t, 'forgetful@example.test')).link);
    const res = await t.app.inject({ method: 'GET', url: `/api/auth/verify?token=${link.token}` });
    expect(res.statusCode).toBe(200);
  });

  it('writes the emails in Czech for a Czech sign-up', async () => {
    const res = await signup({ username: 'Cestina', email: 'cz@example.test', password: 'secret12' }, { 'accept-language': 'cs-CZ,cs;q=0.9' });
    expect(res.statusCode).toBe(201);
    expect((await lastMail(t, 'cz@example.test')).subject).toMatch(/Potvrďte/);
    const row = await t.app.db.selectFrom('users').select('language').where('username_lower', '=', 'cestina').executeTakeFirstOrThrow();
    expect(row.language).toBe('cs');
  });
});
