import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/test-app';
import { expectError, lastMail, login, parseLink } from '../auth/support';

describe('an account from sign-up to deletion, through the API only', () => {
  const t = useTestApp();

  it('signs up, verifies, logs in, edits everything, and every earlier token ends with the password', async () => {
    const app = t.app;
    const signup = await app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { username: 'Journey', email: 'journey@example.test', password: 'first!pass' },
    });
    expect(signup.json()).toEqual({ message: 'info/signup_email', signupLogin: expect.any(String) });

    const verifyLink = parseLink((await lastMail(t, 'journey@example.test')).link);
    const verify = await app.inject({ method: 'GET', url: `/api/auth/verify?token=${verifyLink.token}&email=${encodeURIComponent(verifyLink.email)}` });
    expect(verify.json()).toEqual({ message: 'info/email_verified' });

    const session = await login(app, 'journey', 'first!pass');
    expect(session.statusCode).toBe(200);
    const { token, user } = session.json();
    const headers = { authorization: `Bearer ${token}` };
    const api = (method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
      app.inject({ method, url: `/api${url}`, headers, ...(payload ? { payload } : {}) });

    expect((await api('POST', '/auth/test')).statusCode).toBe(200);
    expect((await api('PATCH', '/account/changebio', { bio: 'Hello there' })).json()).toEqual({ message: 'info/bio_updated' });
    expect((await api('PATCH', '/account/changeusername', { newUsername: 'Traveller' })).json()).toEqual({
      message: 'info/account_updated',
      username: 'Traveller',
    });
    expect((await api('PATCH', '/account/changeemail', { email: 'moved@example.test', password: 'first!pass' })).json()).toEqual({
      message: 'info/email_send',
    });
    const changeLink = parseLink((await lastMail(t, 'moved@example.test')).link);
    expect((await app.inject({ method: 'GET', url: `/api/auth/verify?token=${changeLink.token}&email=moved%40example.test` })).statusCode).toBe(200);

    const account = (await api('POST', '/account/get')).json().user;
    expect(account).toMatchObject({ _id: user._id, username: 'Traveller', email: 'moved@example.test', bio: 'Hello there', isGoogle: false });

    expect((await api('PATCH', '/account/changepassword', { oldPassword: 'first!pass', newPassword: 'second#pass' })).json()).toEqual({
      message: 'info/account_updated',
    });
    expectError(await api('POST', '/auth/test'), 401, 'invalid_token');
    expectError(await api('POST', '/account/get'), 401, 'invalid_token');

    const again = await login(app, 'moved@example.test', 'second#pass');
    expect(again.json().user).toEqual({ _id: user._id, username: 'Traveller' });
    const fresh = { authorization: `Bearer ${again.json().token}` };
    expectError(await app.inject({ method: 'DELETE', url: '/api/account/delete', headers: fresh, payload: { password: 'first!pass' } }), 400, 'wrong_password');
    const deleted = await app.inject({ method: 'DELETE', url: '/api/account/delete', headers: fresh, payload: { password: 'second#pass' } });
    expect(deleted.json()).toEqual({ message: 'info/account_deleted' });
    expectError(await app.inject({ method: 'POST', url: '/api/auth/test', headers: fresh }), 401, 'invalid_token');
    expectError(await login(app, 'Traveller', 'second#pass'), 400, 'invalid_credentials');
  });
});
