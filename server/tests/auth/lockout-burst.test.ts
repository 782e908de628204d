import { describe, expect, it } from 'vitest';
import { LIMITS } from '#core/limits';
import { useTestApp } from '../helpers/test-app';
import { createPasswordUser, freshAddress, login } from './support';

/**
 * A burst of parallel guesses must not get past the lockout: every attempt is counted before its
 * password is checked, so after the Nth failure no later attempt is even checked.
 */
const MAX = LIMITS.loginMaxFailures;
const PER_ACCOUNT = LIMITS.loginMaxFailuresPerAccount;
const PER_ADDRESS = LIMITS.loginMaxFailuresPerAddress;

describe('login lockout under a burst of parallel guesses', () => {
  const t = useTestApp();

  const failures = async (key: string) =>
    (await t.app.db.selectFrom('login_failures').select('id').where('key', '=', key).execute()).length;

  /** Status counts of the answers, and how many of them carried a token. */
  function tally(replies: Array<{ statusCode: number; json(): unknown }>) {
    const byStatus: Record<number, number> = {};
    let tokens = 0;
    for (const res of replies) {
      byStatus[res.statusCode] = (byStatus[res.statusCode] ?? 0) + 1;
      if (res.statusCode === 200 && typeof (res.json() as { token?: unknown }).token === 'string') tokens++;
    }
    return { byStatus, tokens };
  }

  it('lets no more than the allowed failures through on one account, and no token once they are recorded', async () => {
    const user = await createPasswordUser(t.app, 'secret12', { username: 'Burst' });
    // Wrong guesses from as many addresses (so only the lock on the whole account can stop them),
    // with the right password mixed in well after the allowed failures, all at once.
    const guesses = 4 * PER_ACCOUNT;
    const attempts = Array.from({ length: guesses }, (_, i) => login(t.app, 'Burst', `wrong${i}xx`, freshAddress()));
    for (const at of [2 * PER_ACCOUNT + 5, 3 * PER_ACCOUNT, guesses - 2]) attempts.splice(at, 0, login(t.app, 'Burst', 'secret12', freshAddress()));
    const { byStatus, tokens } = tally(await Promise.all(attempts));

    expect(tokens).toBe(0);
    // Exactly the allowed failures were checked and recorded; the rest were refused unchecked.
    expect(await failures(`user:${user.id}`)).toBe(PER_ACCOUNT);
    expect((byStatus[400] ?? 0) + (byStatus[429] ?? 0)).toBe(guesses + 3);
    expect(byStatus[400] ?? 0).toBeLessThanOrEqual(PER_ACCOUNT - 1);
    // And the account stays locked for the right password.
    const after = await login(t.app, 'Burst', 'secret12', freshAddress());
    expect(after.statusCode).toBe(429);
  });

  it('lets no more than the allowed failures through on one account from one address', async () => {
    const user = await createPasswordUser(t.app, 'secret12', { username: 'Pinned' });
    const address = freshAddress();
    const replies = await Promise.all(Array.from({ length: 40 }, (_, i) => login(t.app, 'Pinned', `wrong${i}xx`, address)));
    expect(await failures(`user:${user.id}|ip:${address}`)).toBe(MAX);
    expect(tally(replies).byStatus[400] ?? 0).toBeLessThanOrEqual(MAX - 1);
  });

  it('counts a burst from one address on unknown names the same way', async () => {
    const address = freshAddress();
    const replies = await Promise.all(Array.from({ length: 2 * PER_ADDRESS }, (_, i) => login(t.app, `ghost${i}`, 'whatever1', address)));
    expect(await failures(`ip:${address}`)).toBe(PER_ADDRESS);
    expect(tally(replies).byStatus[400] ?? 0).toBeLessThanOrEqual(PER_ADDRESS - 1);
  });

  it('locks a name nobody has after the same burst, answering as for a real account', async () => {
    // 40 guesses from 40 addresses: only a lock on the name itself can stop them.
    const guesses = (name: string) => Promise.all(Array.from({ length: 40 }, (_, i) => login(t.app, name, `wrong${i}xx`, freshAddress())));
    await createPasswordUser(t.app, 'secret12', { username: 'RealBurst' });
    const real = tally(await guesses('RealBurst'));
    const unknown = tally(await guesses('GhostBurst'));
    expect(await failures('name:ghostburst')).toBe(PER_ACCOUNT);
    expect(unknown.byStatus[429]).toBeGreaterThanOrEqual(40 - PER_ACCOUNT + 1);
    expect(Object.keys(unknown.byStatus)).toEqual(Object.keys(real.byStatus));
  });

  it('takes back the attempt of a right password, so it does not count towards the lock', async () => {
    const user = await createPasswordUser(t.app, 'secret12', { username: 'Steady' });
    const address = freshAddress();
    for (let i = 0; i < MAX + 2; i++) {
      expect((await login(t.app, 'Steady', 'secret12', address)).statusCode).toBe(200);
    }
    expect(await failures(`user:${user.id}`)).toBe(0);
    expect(await failures(`ip:${address}`)).toBe(0);
    const unverified = await createPasswordUser(t.app, 'secret12', { username: 'Pending', verified: false });
    for (let i = 0; i < MAX + 2; i++) {
      expect((await login(t.app, 'Pending', 'secret12', address)).statusCode).toBe(403);
    }
    expect(await failures(`user:${unverified.id}`)).toBe(0);
    expect(await failures(`ip:${address}`)).toBe(0);
  });
});
