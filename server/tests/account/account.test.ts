import { beforeAll, describe, expect, it } from 'vitest';
import { type TestUser, call, createUser } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';
import { countRows, createPasswordUser, expectError, expectInfo, lastMail, login, mailCount, parseLink } from '../auth/support';

describe('account management', () => {
  const t = useTestApp();

  const userRow = (id: string) => t.app.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('needs a token for every account call', async () => {
    const calls: [string, string][] = [
      ['POST', '/api/account/get'],
      ['PATCH', '/api/account/changebio'],
      ['PATCH', '/api/account/changeusername'],
      ['PATCH', '/api/account/changeemail'],
      ['PATCH', '/api/account/changepassword'],
      ['PATCH', '/api/account/language'],
      ['POST', '/api/account/notifications'],
      ['PATCH', '/api/account/notifications'],
      ['DELETE', '/api/account/delete'],
    ];
    const payloads: Record<string, unknown> = {
      '/api/account/changebio': { bio: 'x' },
      '/api/account/changeusername': { newUsername: 'Whoever' },
      '/api/account/changeemail': { email: 'a@example.test', password: 'secret12' },
      '/api/account/changepassword': { oldPassword: 'secret12', newPassword: 'secret13' },
      '/api/account/language': { language: 'cs' },
    };
    for (const [method, url] of calls) {
      const payload = method === 'PATCH' ? (payloads[url] ?? { newSettings: [true, true, true, true, true, true] }) : undefined;
      const res = await t.app.inject({ method: method as 'POST', url, ...(payload ? { payload } : {}) });
      expectError(res, 401, 'no_token');
      const bad = await t.app.inject({ method: method as 'POST', url, headers: { authorization: 'Bearer x.y.z' }, ...(payload ? { payload } : {}) });
      expectError(bad, 401, 'invalid_token');
    }
  });

  it('answers the account with its fields', async () => {
    const createdAt = Date.UTC(2025, 0, 2);
    const user = await createPasswordUser(t.app, 'secret12', { username: 'Reader', email: 'reader@example.test', createdAt });
    const res = await call(t.app, user, { method: 'POST', url: '/api/account/get' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      user: {
        _id: user.id,
        username: 'Reader',
        email: 'reader@example.test',
        bio: '',
        pfp: user.id,
        pfpUrl: `/media/pfp/${user.id}.jpeg`,
        createdAt,
        isGoogle: false,
        language: 'en',
        notifications: [true, true, true, true, true, true],
        moderator: false,
        discoverable: true,
        indexable: true,
      },
    });
    const googler = await createUser(t.app, { googleSub: 'acc-google' });
    expect((await call(t.app, googler, { method: 'POST', url: '/api/account/get' })).json().user.isGoogle).toBe(true);
  });

  describe('bio', () => {
    let user: TestUser;
    beforeAll(async () => {
      user = await createUser(t.app);
    });
    const change = (bio: unknown) => call(t.app, user, { method: 'PATCH', url: '/api/account/changebio', payload: { bio } });

    it('saves a bio up to 512 characters and 32 lines, and an empty one', async () => {
      const bio = 'b'.repeat(512);
      const res = await change(bio);
      expect(res.json()).toEqual({ message: 'info/bio_updated' });
      expect((await userRow(user.id)).bio).toBe(bio);
      const lines = Array.from({ length: 32 }, (_, i) => `line ${i}`).join('\n');
      expect((await change(lines)).statusCode).toBe(200);
      expect((await change('')).statusCode).toBe(200);
      expect((await userRow(user.id)).bio).toBe('');
    });

    it('refuses a longer bio or more lines, keeping the old one', async () => {
      await change('kept');
      expectError(await change('b'.repeat(513)), 400, 'max_bio_length');
      expectError(await change(Array.from({ length: 33 }, () => 'l').join('\n')), 400, 'max_bio_lines');
      expectError(await call(t.app, user, { method: 'PATCH', url: '/api/account/changebio', payload: {} }), 400, 'max_bio_length');
      expect((await userRow(user.id)).bio).toBe('kept');
    });
  });

  describe('username', () => {
    const change = (user: TestUser, newUsername: unknown) =>
      call(t.app, user, { method: 'PATCH', url: '/api/account/changeusername', payload: { newUsername } });

    it('changes the name, keeping the token valid and the name searchable', async () => {
      const user = await createUser(t.app, { username: 'OldName' });
      const res = await change(user, 'Nový_Název');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: 'info/account_updated', username: 'Nový_Název' });
      const row = await userRow(user.id);
      expect(row).toMatchObject({ username: 'Nový_Název', username_lower: 'nový_název', search_text: 'novy_nazev' });
      expect((await call(t.app, user, { method: 'POST', url: '/api/auth/test' })).json().user.username).toBe('Nový_Název');
      // Only the case changes: still the caller's own name, so allowed.
      expect((await change(user, 'nový_NÁZEV')).statusCode).toBe(200);
    });

    it.each([
      ['', 'new_username'],
      ['ab', 'min_username_length'],
      ['x'.repeat(33), 'max_username_length'],
      ['a@b.cz', 'username_at'],
      ['shit', 'username_profanity'],
    ])('refuses %j with %s', async (name, key) => {
      const user = await createUser(t.app);
      expectError(await change(user, name), 400, key);
      expect((await userRow(user.id)).username).toBe(user.username);
    });

    it('refuses another account\'s name in any case with username_taken', async () => {
      await createUser(t.app, { username: 'Occupied' });
      const user = await createUser(t.app);
      expectError(await change(user, 'OCCUPIED'), 409, 'username_taken');
      expect((await userRow(user.id)).username).toBe(user.username);
    });
  });

  describe('email', () => {
    const change = (user: TestUser, payload: Record<string, unknown>) =>
      call(t.app, user, { method: 'PATCH', url: '/api/account/changeemail', payload });

    it('changes the address only when the link mailed to the new address is opened', async () => {
      const user = await createPasswordUser(t.app, 'secret12', { username: 'Mover', email: 'old@example.test' });
      const res = await change(user, { email: 'New@Example.test', password: 'secret12' });
      expectInfo(res, 'email_send');
      expect((await userRow(user.id)).email).toBe('old@example.test');
      expect(await mailCount(t, 'old@example.test')).toBe(0);

      const link = parseLink((await lastMail(t, 'new@example.test')).link);
      expect(link).toMatchObject({ route: '/verify', email: 'new@example.test' });
      const verified = await t.app.inject({ method: 'GET', url: `/api/auth/verify?token=${link.token}&email=${encodeURIComponent(link.email)}` });
      expect(verified.json()).toEqual({ message: 'info/email_verified' });
      expect((await userRow(user.id)).email).toBe('new@example.test');
      expect((await login(t.app, 'new@example.test', 'secret12')).statusCode).toBe(200);
      expectError(await login(t.app, 'old@example.test', 'secret12'), 400, 'invalid_credentials');
    });

    it('refuses a Google account, a wrong password, a bad, current or used address; nothing is sent', async () => {
      const user = await createPasswordUser(t.app, 'secret12', { email: 'stay@example.test' });
      await createUser(t.app, { email: 'used@example.test' });
      const googler = await createUser(t.app, { googleSub: 'email-google' });
      const tokens = await countRows(t.app, 'email_tokens');

      expectError(await change(googler, { email: 'g@example.test', password: 'secret12' }), 400, 'login_google');
      expectError(await change(user, { email: 'fresh@example.test', password: 'wrong123' }), 400, 'invalid_credentials');
      expectError(await change(user, { email: 'fresh@example.test' }), 400, 'invalid_credentials');
      expectError(await change(user, { email: 'not-an-email', password: 'secret12' }), 400, 'invalid_email');
      expectError(await change(user, { password: 'secret12' }), 400, 'invalid_email');
      expectError(await change(user, { email: 'STAY@example.test', password: 'secret12' }), 400, 'using_email');
      expectError(await change(user, { email: 'used@example.test', password: 'secret12' }), 409, 'email_used');

      expect(await countRows(t.app, 'email_tokens')).toBe(tokens);
      expect(await mailCount(t, 'fresh@example.test')).toBe(0);
      expect((await userRow(user.id)).email).toBe('stay@example.test');
    });

    it('refuses the link when another account took the address meanwhile', async () => {
      const user = await createPasswordUser(t.app, 'secret12', { email: 'first@example.test' });
      await change(user, { email: 'contested@example.test', password: 'secret12' });
      const link = parseLink((await lastMail(t, 'contested@example.test')).link);
      await createUser(t.app, { email: 'contested@example.test' });
      expectError(await t.app.inject({ method: 'GET', url: `/api/auth/verify?token=${link.token}` }), 409, 'email_used');
      expect((await userRow(user.id)).email).toBe('first@example.test');
    });
  });

  describe('password', () => {
    const change = (user: TestUser, payload: Record<string, unknown>) =>
      call(t.app, user, { method: 'PATCH', url: '/api/account/changepassword', payload });

    it('changes the password and revokes every earlier token', async () => {
      const user = await createPasswordUser(t.app, 'secret12', { username: 'Rotator' });
      const second = (await login(t.app, 'Rotator', 'secret12')).json().token as string;
      const res = await change(user, { oldPassword: 'secret12', newPassword: 'fresh!pass' });
      expect(res.json()).toEqual({ message: 'info/account_updated' });

      expectError(await t.app.inject({ method: 'POST', url: '/api/auth/test', headers: user.auth }), 401, 'invalid_token');
      const secondAuth = { authorization: `Bearer ${second}` };
      expectError(await t.app.inject({ method: 'POST', url: '/api/account/get', headers: secondAuth }), 401, 'invalid_token');
      expectError(await login(t.app, 'Rotator', 'secret12'), 400, 'invalid_credentials');
      const fresh = await login(t.app, 'Rotator', 'fresh!pass');
      expect(fresh.statusCode).toBe(200);
      const freshAuth = { authorization: `Bearer ${fresh.json().token}` };
      expect((await t.app.inject({ method: 'POST', url: '/api/auth/test', headers: freshAuth })).statusCode).toBe(200);
    });

    it.each([
      [{ oldPassword: 'secret12', newPassword: '' }, 400, 'new_password'],
      [{ oldPassword: 'secret12' }, 400, 'new_password'],
      [{ oldPassword: 'secret12', newPassword: 'with space' }, 400, 'password_spaces'],
      [{ oldPassword: 'secret12', newPassword: 'čeština€' }, 400, 'password_invalid'],
      [{ oldPassword: 'secret12', newPassword: 'short' }, 400, 'min_password_length'],
      [{ oldPassword: 'secret12', newPassword: 'p'.repeat(129) }, 400, 'max_password_length'],
      [{ oldPassword: 'wrong123', newPassword: 'fresh!pass' }, 400, 'invalid_credentials'],
      [{ newPassword: 'fresh!pass' }, 400, 'invalid_credentials'],
    ])('refuses %j with %s, changing nothing', async (payload, status, key) => {
      const user = await createPasswordUser(t.app, 'secret12');
      const before = await userRow(user.id);
      expectError(await change(user, payload), status, key);
      const after = await userRow(user.id);
      expect(after.password_hash).toBe(before.password_hash);
      expect(after.token_version).toBe(before.token_version);
    });

    it('refuses a Google account with login_google', async () => {
      const googler = await createUser(t.app, { googleSub: 'pw-google' });
      expectError(await change(googler, { oldPassword: 'secret12', newPassword: 'fresh!pass' }), 400, 'login_google');
    });
  });

  it('switches the language between en and cs only', async () => {
    const user = await createUser(t.app);
    const res = await call(t.app, user, { method: 'PATCH', url: '/api/account/language', payload: { language: 'cs' } });
    expect(res.json()).toEqual({ message: 'info/settings_updated', language: 'cs' });
    expect((await userRow(user.id)).language).toBe('cs');
    expectError(await call(t.app, user, { method: 'PATCH', url: '/api/account/language', payload: { language: 'de' } }), 400, 'invalid_settings');
    expectError(await call(t.app, user, { method: 'PATCH', url: '/api/account/language', payload: {} }), 400, 'invalid_settings');
    expect((await userRow(user.id)).language).toBe('cs');
    expect((await call(t.app, user, { method: 'POST', url: '/api/account/get' })).json().user.language).toBe('cs');
  });

  it('reads and saves the six notification switches', async () => {
    const user = await createUser(t.app);
    const read = () => call(t.app, user, { method: 'POST', url: '/api/account/notifications' });
    expect((await read()).json()).toEqual({ notifications: [true, true, true, true, true, true] });

    const settings = [false, true, false, true, true, false];
    const res = await call(t.app, user, { method: 'PATCH', url: '/api/account/notifications', payload: { newSettings: settings } });
    expect(res.statusCode).toBe(200);
    expect(res.json().notifications).toEqual(settings);
    expect((await read()).json()).toEqual({ notifications: settings });
    expect(JSON.parse((await userRow(user.id)).notification_settings)).toEqual(settings);

    for (const newSettings of [[true, true], [true, true, true, true, true, true, true], ['yes', true, true, true, true, true], 'all', null]) {
      const bad = await call(t.app, user, { method: 'PATCH', url: '/api/account/notifications', payload: { newSettings } });
      expectError(bad, 400, 'invalid_settings');
    }
    expectError(await call(t.app, user, { method: 'PATCH', url: '/api/account/notifications', payload: {} }), 400, 'invalid_settings');
    expect((await read()).json()).toEqual({ notifications: settings });
  });
});
