import { describe, expect, it } from 'vitest';
import { createTestApp, useTestApp } from '../helpers/test-app';
import { ageRateEvents, countRows, createPasswordUser, expectError, freshAddress, mailCount } from './support';

/** Sign-ups per address and address-change mails per user, counted in the database. */
describe('sign-up and change-email limits', () => {
  const SIGNUPS = 3;
  const CHANGES = 2;
  const t = useTestApp({ RATE_SIGNUPS_PER_ADDRESS_PER_HOUR: String(SIGNUPS), RATE_EMAIL_CHANGES_PER_HOUR: String(CHANGES) });

  const events = async (key: string) => (await t.app.db.selectFrom('rate_events').select('key').where('key', '=', key).execute()).length;

  let names = 0;
  const signup = (address: string, overrides: Record<string, unknown> = {}) => {
    names++;
    const payload = { username: `Limited${names}`, email: `limited${names}@example.test`, password: 'secret12', ...overrides };
    return t.app.inject({ method: 'POST', url: '/api/auth/signup', payload, remoteAddress: address });
  };

  it(`lets one address create ${SIGNUPS} accounts an hour, refusing the next with signup_limit`, async () => {
    const address = freshAddress();
    // Refused sign-ups take no slot.
    expectError(await signup(address, { password: 'abc' }), 400, 'min_password_length');
    await createPasswordUser(t.app, 'secret12', { username: 'Occupied' });
    expectError(await signup(address, { username: 'occupied' }), 409, 'username_taken');
    expect(await events(`signup:${address}`)).toBe(0);

    for (let i = 0; i < SIGNUPS; i++) expect((await signup(address)).statusCode).toBe(201);
    const users = await countRows(t.app, 'users');
    expectError(await signup(address), 429, 'signup_limit');
    expect(await countRows(t.app, 'users')).toBe(users);
    expect(await events(`signup:${address}`)).toBe(SIGNUPS);

    // Another address is not affected; an hour later this one may sign up again.
    expect((await signup(freshAddress())).statusCode).toBe(201);
    await ageRateEvents(t.app, `signup:${address}`, 60 * 60 * 1000);
    expect((await signup(address)).statusCode).toBe(201);
  });

  it('counts parallel sign-ups from one address exactly', async () => {
    const address = freshAddress();
    const replies = await Promise.all(Array.from({ length: 8 }, () => signup(address)));
    expect(replies.filter((r) => r.statusCode === 201)).toHaveLength(SIGNUPS);
    expect(replies.filter((r) => r.statusCode === 429)).toHaveLength(8 - SIGNUPS);
  });

  it('takes the address from X-Forwarded-For only behind a trusted proxy', async () => {
    const proxy = freshAddress();
    const behind = await createTestApp({ TRUST_PROXY: proxy, RATE_SIGNUPS_PER_ADDRESS_PER_HOUR: '1' });
    try {
      const via = (client: string, n: number) =>
        behind.app.inject({
          method: 'POST',
          url: '/api/auth/signup',
          payload: { username: `Proxied${n}`, email: `proxied${n}@example.test`, password: 'secret12' },
          remoteAddress: proxy,
          headers: { 'x-forwarded-for': client },
        });
      expect((await via('203.0.113.20', 1)).statusCode).toBe(201);
      expect((await via('203.0.113.21', 2)).statusCode).toBe(201);
      expectError(await via('203.0.113.20', 3), 429, 'signup_limit');
    } finally {
      await behind.close();
    }
  });

  it(`mails at most ${CHANGES} address changes per user an hour, refusing the next with email_limit`, async () => {
    const user = await createPasswordUser(t.app, 'secret12', { email: 'mover@example.test' });
    const other = await createPasswordUser(t.app, 'secret12', { email: 'bystander@example.test' });
    const change = (who: typeof user, email: string, password = 'secret12') =>
      t.app.inject({ method: 'PATCH', url: '/api/account/changeemail', headers: who.auth, payload: { email, password } });

    // A wrong password takes no slot.
    expectError(await change(user, 'target0@example.test', 'wrong123'), 400, 'invalid_credentials');
    expect(await events(`mail:change_email:${user.id}`)).toBe(0);

    for (let i = 1; i <= CHANGES; i++) expect((await change(user, `target${i}@example.test`)).statusCode).toBe(200);
    expectError(await change(user, 'target9@example.test'), 429, 'email_limit');
    expect(await mailCount(t, 'target9@example.test')).toBe(0);
    expect(await events(`mail:change_email:${user.id}`)).toBe(CHANGES);

    expect((await change(other, 'elsewhere@example.test')).statusCode).toBe(200);
    await ageRateEvents(t.app, `mail:change_email:${user.id}`, 60 * 60 * 1000);
    expect((await change(user, 'target9@example.test')).statusCode).toBe(200);
    expect(await mailCount(t, 'target9@example.test')).toBe(1);
  });

  it('counts a request for an address someone has, so asking which addresses are taken is limited too', async () => {
    const prober = await createPasswordUser(t.app, 'secret12', { email: 'prober@example.test' });
    const taken = await Promise.all([1, 2, 3].map((i) => createPasswordUser(t.app, 'secret12', { email: `taken${i}@example.test` })));
    const change = (email: string) =>
      t.app.inject({ method: 'PATCH', url: '/api/account/changeemail', headers: prober.auth, payload: { email, password: 'secret12' } });
    for (let i = 0; i < CHANGES; i++) expectError(await change(taken[i]!.email), 409, 'email_used');
    // Past the limit a taken address and a free one get the same answer.
    expectError(await change(taken[CHANGES]!.email), 429, 'email_limit');
    expectError(await change('free@example.test'), 429, 'email_limit');
    expect(await mailCount(t, 'free@example.test')).toBe(0);
  });
});
