import { describe, expect, it } from 'vitest';
import { createUser } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';
import { ageRateEvents, createPasswordUser, expectError, expectInfo, lastMail, login, mailCount, parseLink } from './support';

describe('forgotten password', () => {
  const t = useTestApp();

  const forgot = (email: unknown) => t.app.inject({ method: 'POST', url: '/api/auth/forgot', payload: { email } });
  const reset = (payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/api/auth/reset', payload });

  it('answers the same for known and unknown addresses, mailing only the known one', async () => {
    await createPasswordUser(t.app, 'secret12', { email: 'known@example.test' });
    const known = await forgot('Known@Example.test');
    const unknown = await forgot('unknown@example.test');
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.json()).toEqual({ message: 'info/password_reset_sent' });
    expect(unknown.json()).toEqual(known.json());
    expect(await mailCount(t, 'known@example.test')).toBe(1);
    expect(await mailCount(t, 'unknown@example.test')).toBe(0);
    expectError(await forgot('not-an-email'), 400, 'invalid_email');

    // Asking again at once sends nothing more and says so, for a known address as for an unknown
    // one; a minute later it mails again.
    expectError(await forgot('known@example.test'), 429, 'reset_wait');
    expectError(await forgot('unknown@example.test'), 429, 'reset_wait');
    expect(await mailCount(t, 'known@example.test')).toBe(1);
    await ageRateEvents(t.app, 'mail:reset:', 61_000);
    await forgot('known@example.test');
    expect(await mailCount(t, 'known@example.test')).toBe(2);
  });

  it('sets a new password from the link, once, and ends every earlier session', async () => {
    const user = await createPasswordUser(t.app, 'secret12', { username: 'Resetter', email: 'resetter@example.test' });
    await forgot('resetter@example.test');
    const mail = await lastMail(t, 'resetter@example.test');
    expect(mail.link).toMatch(/^http:\/\/kruh\.test\/reset\?token=/);
    const link = parseLink(mail.link);
    expect(link.route).toBe('/reset');

    // The new password obeys the rules; a refused one leaves the link usable.
    expectError(await reset({ token: link.token, email: link.email, password: 'bad pass' }), 400, 'password_spaces');
    expectError(await reset({ token: link.token, email: link.email, password: 'abc' }), 400, 'min_password_length');
    expectError(await reset({ token: 'wrong', email: link.email, password: 'newpass12' }), 400, 'invalid_link');
    expectError(await reset({ token: link.token, email: 'other@example.test', password: 'newpass12' }), 400, 'invalid_link');

    const res = await reset({ token: link.token, email: link.email, password: 'newpass12' });
    expectInfo(res, 'password_changed');
    expectError(await reset({ token: link.token, email: link.email, password: 'again1234' }), 400, 'invalid_link');

    expectError(await t.app.inject({ method: 'POST', url: '/api/auth/test', headers: user.auth }), 401, 'invalid_token');
    expectError(await login(t.app, 'Resetter', 'secret12'), 400, 'invalid_credentials');
    expect((await login(t.app, 'Resetter', 'newpass12')).statusCode).toBe(200);
  });

  it('tells whether a link still works before its form is used, and a used one no longer does', async () => {
    await createPasswordUser(t.app, 'secret12', { email: 'checker@example.test' });
    await forgot('checker@example.test');
    const link = parseLink((await lastMail(t, 'checker@example.test')).link);
    const check = (payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/api/auth/reset/check', payload });
    expectInfo(await check({ token: link.token, email: link.email }), 'reset_link_valid');
    // Checking changes nothing: the link still sets a password, once.
    expectInfo(await check({ token: link.token, email: link.email }), 'reset_link_valid');
    expectError(await check({ token: link.token, email: 'other@example.test' }), 400, 'invalid_link');
    expectError(await check({ token: 'wrong', email: link.email }), 400, 'invalid_link');
    expectInfo(await reset({ token: link.token, email: link.email, password: 'newpass12' }), 'password_changed');
    expectError(await check({ token: link.token, email: link.email }), 400, 'invalid_link');
  });

  it('refuses an expired link, and the verify call does not take reset links', async () => {
    await createPasswordUser(t.app, 'secret12', { email: 'late@example.test' });
    await forgot('late@example.test');
    const link = parseLink((await lastMail(t, 'late@example.test')).link);
    expectError(await t.app.inject({ method: 'GET', url: `/api/auth/verify?token=${link.token}` }), 400, 'invalid_link');
    await t.app.db.updateTable('email_tokens').set({ expires_at: Date.now() - 1 }).where('purpose', '=', 'reset_password').execute();
    expectError(await reset({ token: link.token, email: link.email, password: 'newpass12' }), 400, 'invalid_link');
  });

  it('verifies an unverified account whose owner resets through the mailed link', async () => {
    const user = await createPasswordUser(t.app, 'secret12', { username: 'Lost', email: 'lost@example.test', verified: false });
    await forgot('lost@example.test');
    const link = parseLink((await lastMail(t, 'lost@example.test')).link);
    expect((await reset({ token: link.token, email: link.email, password: 'newpass12' })).statusCode).toBe(200);
    const row = await t.app.db.selectFrom('users').select('verified').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.verified).toBe(1);
  });

  it('tells a Google account to sign in with Google instead of sending a link', async () => {
    await createUser(t.app, { email: 'googler@example.test', googleSub: 'googler-sub' });
    const res = await forgot('googler@example.test');
    expect(res.json()).toEqual({ message: 'info/password_reset_sent' });
    const mail = await lastMail(t, 'googler@example.test');
    expect(mail.text).toMatch(/Google/);
    expect(mail.link).toBe('http://kruh.test/login');
    expect(await t.app.db.selectFrom('email_tokens').selectAll().where('purpose', '=', 'reset_password').where('email', '=', 'googler@example.test').execute()).toHaveLength(0);
  });

  it('answers login_google when a reset link meets an account that lost its password to a Google sign-in', async () => {
    const user = await createPasswordUser(t.app, 'secret12', { email: 'became@example.test' });
    await forgot('became@example.test');
    const link = parseLink((await lastMail(t, 'became@example.test')).link);
    // What Google's sign-in does to an unverified account of its address.
    await t.app.db.updateTable('users').set({ google_sub: 'became-sub', password_hash: null }).where('id', '=', user.id).execute();
    expectError(await reset({ token: link.token, email: link.email, password: 'newpass12' }), 400, 'login_google');
  });

  it('resets the password of an account linked to Google that has one', async () => {
    await createPasswordUser(t.app, 'secret12', { username: 'LinkedResetter', email: 'linked-reset@example.test', googleSub: 'linked-reset-sub' });
    await forgot('linked-reset@example.test');
    const link = parseLink((await lastMail(t, 'linked-reset@example.test')).link);
    expectInfo(await reset({ token: link.token, email: link.email, password: 'newpass12' }), 'password_changed');
    expect((await login(t.app, 'LinkedResetter', 'newpass12')).statusCode).toBe(200);
  });
});
