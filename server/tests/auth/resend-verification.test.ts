import { describe, expect, it } from 'vitest';
import { RATE_LIMIT_DEFAULTS } from '#core/limits';
import { useTestApp } from '../helpers/test-app';
import { createPasswordUser, expectError, expectInfo, freshAddress, mailCount, signup } from './support';

describe('resending the verification mail', () => {
  const t = useTestApp();

  const resend = (email: unknown, remoteAddress = freshAddress()) =>
    t.app.inject({ method: 'POST', url: '/api/auth/resend-verification', payload: { email }, remoteAddress });

  it('mails an unverified address again, answering the same for any other address', async () => {
    await signup(t.app, { username: 'Waiting', email: 'waiting@example.test', password: 'secret12' });
    await createPasswordUser(t.app, 'secret12', { email: 'done@example.test' });
    expect(await mailCount(t, 'waiting@example.test')).toBe(1);

    const waiting = await resend('Waiting@Example.test');
    expectInfo(waiting, 'verification_sent');
    expect(await mailCount(t, 'waiting@example.test')).toBe(2);

    // A verified account and an address nobody has: the same answer, and no mail.
    const done = await resend('done@example.test');
    const nobody = await resend('nobody@example.test');
    expect(done.json()).toEqual(waiting.json());
    expect(nobody.json()).toEqual(waiting.json());
    expect(await mailCount(t, 'done@example.test')).toBe(0);
    expect(await mailCount(t, 'nobody@example.test')).toBe(0);
    expectError(await resend('not-an-email'), 400, 'invalid_email');
  });

  it('mails the address of an unverified account named by its username, answering the same for any name', async () => {
    await signup(t.app, { username: 'ByName', email: 'byname@example.test', password: 'secret12' });
    await createPasswordUser(t.app, 'secret12', { username: 'VerifiedName', email: 'verified-name@example.test' });
    expect(await mailCount(t, 'byname@example.test')).toBe(1);
    const byName = (username: string) =>
      t.app.inject({ method: 'POST', url: '/api/auth/resend-verification', payload: { username }, remoteAddress: freshAddress() });
    const waiting = await byName('byname');
    expectInfo(waiting, 'verification_sent');
    expect(await mailCount(t, 'byname@example.test')).toBe(2);
    expect((await byName('VerifiedName')).json()).toEqual(waiting.json());
    expect((await byName('nobody-here')).json()).toEqual(waiting.json());
    expect(await mailCount(t, 'verified-name@example.test')).toBe(0);
  });

  it('limits resends per address, the same for an address nobody has', async () => {
    await signup(t.app, { username: 'Flooded', email: 'flooded@example.test', password: 'secret12' });
    expect(await mailCount(t, 'flooded@example.test')).toBe(1);
    const max = RATE_LIMIT_DEFAULTS.verificationMailsPerAddressPerHour;
    for (let i = 0; i < max; i++) {
      expectInfo(await resend('flooded@example.test'), 'verification_sent');
      // Sent one by one: a queued mail whose link a newer request already replaced is dropped.
      expect(await mailCount(t, 'flooded@example.test')).toBe(2 + i);
      expectInfo(await resend('stranger@example.test'), 'verification_sent');
    }
    expectError(await resend('flooded@example.test'), 429, 'verification_limit');
    expectError(await resend('stranger@example.test'), 429, 'verification_limit');
    expect(await mailCount(t, 'flooded@example.test')).toBe(1 + max);
  });

  it('limits resends per client, whatever the addresses', async () => {
    const client = freshAddress();
    const max = RATE_LIMIT_DEFAULTS.verificationMailsPerClientPerHour;
    for (let i = 0; i < max; i++) expectInfo(await resend(`someone${i}@example.test`, client), 'verification_sent');
    expectError(await resend('another@example.test', client), 429, 'verification_limit');
    expectInfo(await resend('another@example.test'), 'verification_sent');
  });
});
