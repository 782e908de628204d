import { describe, expect, it } from 'vitest';
import { ACCOUNT_MAIL_JOB } from '../../src/modules/auth/auth.emails';
import { type TestUser, call } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';
import { ageRateEvents, createPasswordUser, expectError, lastMail, mailCount, parseLink } from './support';

/** A reset link must not outlive the address it was sent to, nor the password it would replace. */
describe('reset links after the password or the address changed', () => {
  const t = useTestApp();

  const forgot = (email: string) => t.app.inject({ method: 'POST', url: '/api/auth/forgot', payload: { email } });
  const reset = (link: { token: string; email: string }, password: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/reset', payload: { token: link.token, email: link.email, password } });
  const resetLink = async (email: string) => {
    await forgot(email);
    return parseLink((await lastMail(t, email)).link);
  };
  const changePassword = (user: TestUser) =>
    call(t.app, user, { method: 'PATCH', url: '/api/account/changepassword', payload: { oldPassword: 'secret12', newPassword: 'other#pass1' } });
  const queuedJobs = async () =>
    (await t.app.db.selectFrom('jobs').select('id').where('kind', '=', ACCOUNT_MAIL_JOB).execute()).length;

  it('ends a reset link when the password is changed in the account', async () => {
    const user = await createPasswordUser(t.app, 'secret12', { email: 'changer@example.test' });
    const link = await resetLink('changer@example.test');
    expect((await changePassword(user)).statusCode).toBe(200);
    expectError(await reset(link, 'hijack123'), 400, 'invalid_link');
  });

  it('ends a reset link sent to the old address once a new address is confirmed', async () => {
    const user = await createPasswordUser(t.app, 'secret12', { email: 'before@example.test' });
    const link = await resetLink('before@example.test');
    const change = await call(t.app, user, {
      method: 'PATCH',
      url: '/api/account/changeemail',
      payload: { email: 'after@example.test', password: 'secret12' },
    });
    expect(change.statusCode).toBe(200);
    const confirm = parseLink((await lastMail(t, 'after@example.test')).link);
    const verified = await t.app.inject({ method: 'GET', url: `/api/auth/verify?token=${confirm.token}&email=${encodeURIComponent(confirm.email)}` });
    expect(verified.statusCode).toBe(200);
    expectError(await reset(link, 'hijack123'), 400, 'invalid_link');
  });

  it('refuses a reset link for an address the account no longer has, however it changed', async () => {
    const user = await createPasswordUser(t.app, 'secret12', { email: 'was@example.test' });
    const link = await resetLink('was@example.test');
    await t.app.db.updateTable('users').set({ email: 'now@example.test' }).where('id', '=', user.id).execute();
    expectError(await reset(link, 'hijack123'), 400, 'invalid_link');
  });

  it('drops a reset mail still queued when the password is reset meanwhile', async () => {
    const user = await createPasswordUser(t.app, 'secret12', { email: 'twice@example.test' });
    const first = await resetLink('twice@example.test');
    // A second request a minute later whose mail is still waiting in the queue...
    await ageRateEvents(t.app, 'mail:reset:', 61_000);
    await forgot('twice@example.test');
    expect(await queuedJobs()).toBe(1);
    // ...when the first link sets a new password: the waiting mail is not sent.
    expect((await reset(first, 'newpass12')).statusCode).toBe(200);
    expect(await mailCount(t, 'twice@example.test')).toBe(1);
    expect(await queuedJobs()).toBe(0);
    expect(await t.app.db.selectFrom('email_tokens').select('purpose').where('user_id', '=', user.id).execute()).toEqual([]);
  });

  it('drops a reset mail still queued when the password is changed in the account meanwhile', async () => {
    const user = await createPasswordUser(t.app, 'secret12', { email: 'queued@example.test' });
    await forgot('queued@example.test');
    expect((await changePassword(user)).statusCode).toBe(200);
    expect(await mailCount(t, 'queued@example.test')).toBe(0);
  });
});
