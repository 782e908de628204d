import { describe, expect, it } from 'vitest';
import { LIMITS } from '#core/limits';
import {
  accountKey,
  addressKey,
  beginAttempt,
  clearFailures,
  forgiveAttempt,
  fromAddressKey,
  isLocked,
  loginKeys,
  unknownNameKey,
} from '../../src/modules/auth/login-lockout';
import { useTestApp } from '../helpers/test-app';

const MAX = LIMITS.loginMaxFailures;
const WINDOW = LIMITS.loginLockoutMs;

/** The lockout's boundaries, with failures written at chosen moments rather than waited for. */
describe('login lockout rules', () => {
  const t = useTestApp();
  let n = 0;
  const freshKey = () => `test:${n++}`;
  const lock = (key: string, max: number = MAX) => ({ key, max });

  const fail = (key: string, ...times: number[]) =>
    t.app.db.insertInto('login_failures').values(times.map((created_at) => ({ key, created_at }))).execute();
  const failureTimes = async (key: string) =>
    (await t.app.db.selectFrom('login_failures').select('created_at').where('key', '=', key).orderBy('created_at').execute()).map((row) =>
      Number(row.created_at),
    );
  /** MAX failures, the first at `start` and the last `spread` ms later. */
  const failures = (start: number, spread: number) =>
    Array.from({ length: MAX }, (_, i) => (i === MAX - 1 ? start + spread : start + i));

  it('names account, unknown-name and address keys apart', () => {
    expect(accountKey('abc')).toBe('user:abc');
    expect(unknownNameKey('abc')).toBe('name:abc');
    expect(addressKey('10.0.0.1')).toBe('ip:10.0.0.1');
    expect(fromAddressKey('user:abc', '10.0.0.1')).toBe('user:abc|ip:10.0.0.1');
  });

  it('counts a login on the name from its address, the name everywhere and the address, each with its own count', () => {
    const keys = loginKeys(accountKey('abc'), '10.0.0.1');
    expect(keys).toEqual([
      { key: 'user:abc|ip:10.0.0.1', max: MAX },
      { key: 'user:abc', max: LIMITS.loginMaxFailuresPerAccount },
      { key: 'ip:10.0.0.1', max: LIMITS.loginMaxFailuresPerAddress },
    ]);
    // Each wider key stands well above one person's mistakes.
    expect(LIMITS.loginMaxFailuresPerAccount).toBeGreaterThan(2 * MAX);
    expect(LIMITS.loginMaxFailuresPerAddress).toBeGreaterThan(LIMITS.loginMaxFailuresPerAccount);
  });

  it('locks a key at its own count', async () => {
    const key = freshKey();
    const start = 5_000_000;
    await fail(key, ...Array.from({ length: 12 }, (_, i) => start + i));
    expect(await isLocked(t.app.db, lock(key, 12), start + 20)).toBe(true);
    expect(await isLocked(t.app.db, lock(key, 13), start + 20)).toBe(false);
  });

  it('locks at the Nth failure, not before', async () => {
    const key = freshKey();
    const start = 10_000_000;
    await fail(key, ...failures(start, 10).slice(0, MAX - 1));
    expect(await isLocked(t.app.db, lock(key), start + 20)).toBe(false);
    await fail(key, start + 10);
    expect(await isLocked(t.app.db, lock(key), start + 20)).toBe(true);
  });

  it('counts N failures as a lock only when they fall within one window', async () => {
    const within = freshKey();
    const spread = freshKey();
    const start = 20_000_000;
    await fail(within, ...failures(start, WINDOW));
    await fail(spread, ...failures(start, WINDOW + 1));
    expect(await isLocked(t.app.db, lock(within), start + WINDOW)).toBe(true);
    expect(await isLocked(t.app.db, lock(spread), start + WINDOW + 1)).toBe(false);
  });

  it('looks at the latest N failures only: older ones do not stretch the window', async () => {
    const key = freshKey();
    const start = 30_000_000;
    // One old failure long before, then N close together: locked by the newest N.
    await fail(key, start - 10 * WINDOW, ...failures(start, 100));
    expect(await isLocked(t.app.db, lock(key), start + 200)).toBe(true);
  });

  it('lasts one window from the last failure, then ends on time', async () => {
    const key = freshKey();
    const start = 40_000_000;
    await fail(key, ...failures(start, 50));
    const last = start + 50;
    expect(await isLocked(t.app.db, lock(key), last + WINDOW - 1)).toBe(true);
    expect(await isLocked(t.app.db, lock(key), last + WINDOW)).toBe(false);
  });

  it('records a failure on every key of an attempt and refuses the attempt while any key is locked', async () => {
    const [account, address] = [freshKey(), freshKey()];
    const now = 50_000_000;
    const attempt = await beginAttempt(t.app.db, [lock(account), lock(address)], now);
    expect(attempt?.failureIds).toHaveLength(2);
    expect(await failureTimes(account)).toEqual([now]);
    expect(await failureTimes(address)).toEqual([now]);

    await fail(address, ...failures(now + 1, 10));
    expect(await beginAttempt(t.app.db, [lock(account), lock(address)], now + 20)).toBeNull();
    // A refused attempt is not recorded, on either key.
    expect(await failureTimes(account)).toEqual([now]);
  });

  it('takes back exactly the failures of a forgiven attempt', async () => {
    const key = freshKey();
    const now = 60_000_000;
    await fail(key, now - 5);
    const attempt = await beginAttempt(t.app.db, [lock(key)], now);
    expect(await failureTimes(key)).toEqual([now - 5, now]);
    await forgiveAttempt(t.app.db, attempt!);
    expect(await failureTimes(key)).toEqual([now - 5]);
  });

  it('forgets failures older than two windows when an attempt is recorded', async () => {
    const key = freshKey();
    const now = 70_000_000;
    await fail(key, now - 2 * WINDOW - 1, now - 2 * WINDOW);
    await beginAttempt(t.app.db, [lock(freshKey())], now);
    expect(await failureTimes(key)).toEqual([now - 2 * WINDOW]);
  });

  it('runs inside a caller transaction, rolling back with it', async () => {
    const key = freshKey();
    await t.app.db
      .transaction()
      .execute(async (trx) => {
        expect(await beginAttempt(trx, [lock(key)], 80_000_000)).not.toBeNull();
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    expect(await failureTimes(key)).toEqual([]);
  });

  it('clears every failure of one key, leaving the others', async () => {
    const [key, other] = [freshKey(), freshKey()];
    await fail(key, 1, 2);
    await fail(other, 3);
    await clearFailures(t.app.db, key);
    expect(await failureTimes(key)).toEqual([]);
    expect(await failureTimes(other)).toEqual([3]);
  });
});
