import { LIMITS } from '#core/limits';
import type { Executor } from '../../db/schema.js';
import { tooMany } from '../../lib/app-error.js';
import { verifyPassword } from '../../lib/passwords.js';
import { lockRateKey } from '../../lib/rate-limit.js';
import { deleteFailureRows, deleteFailures, deleteFailuresBefore, insertFailures, recentFailures } from './auth.repository.js';

/**
 * Login lockout (login_timeout): LIMITS.loginMaxFailures failed logins within LIMITS.loginLockoutMs
 * on one account, or from one address, lock that account or address for LIMITS.loginLockoutMs
 * from the last of them, even for the right password. Failures are rows, so every server process
 * sees the same lock. Attempts refused by a lock are not recorded: the lock ends on time instead
 * of being stretched by whoever keeps trying.
 *
 * A name (or address) no account has is locked just the same, under its own key: were only real
 * accounts locked, the Nth failure would tell a prober which names are registered.
 */
export const accountKey = (userId: string) => `user:${userId}`;
export const addressKey = (ip: string) => `ip:${ip}`;
/** The key of a sign-in name no account has: as typed, after the normalising a lookup does. */
export const unknownNameKey = (identifier: string) => `name:${identifier}`;

export async function isLocked(db: Executor, key: string, now: number = Date.now()): Promise<boolean> {
  const max = LIMITS.loginMaxFailures;
  const times = await recentFailures(db, key, max);
  if (times.length < max) return false;
  const newest = times[0]!;
  const oldest = times[max - 1]!;
  return newest - oldest <= LIMITS.loginLockoutMs && now - newest < LIMITS.loginLockoutMs;
}

/** One login attempt counted as a failure until it proves otherwise (see beginAttempt). */
export interface Attempt {
  failureIds: number[];
}

/**
 * Counts a login attempt as a failure BEFORE its password is checked: under the keys' locks it
 * refuses (null) when any key is locked, else records a failure on each key and commits. A burst
 * of parallel guesses therefore cannot all pass the check before any of them is recorded: after
 * the Nth, every later attempt finds the lock. The slow password check runs after the commit,
 * outside the locks; an attempt that turns out right takes its failures back (forgiveAttempt).
 */
export async function beginAttempt(db: Executor, keys: string[], now: number = Date.now()): Promise<Attempt | null> {
  const run = async (trx: Executor): Promise<Attempt | null> => {
    // A fixed order, so two attempts locking the same two keys cannot deadlock.
    for (const key of [...keys].sort()) await lockRateKey(trx, key);
    for (const key of keys) if (await isLocked(trx, key, now)) return null;
    const failureIds = await insertFailures(trx, keys, now);
    // A lock looks at most two windows back (N failures within one window, the last within one).
    await deleteFailuresBefore(trx, now - 2 * LIMITS.loginLockoutMs);
    return { failureIds };
  };
  return db.isTransaction ? run(db) : db.transaction().execute(run);
}

/** The attempt was not a wrong password after all: its failures are taken back. */
export async function forgiveAttempt(db: Executor, attempt: Attempt): Promise<void> {
  await deleteFailureRows(db, attempt.failureIds);
}

export async function clearFailures(db: Executor, key: string): Promise<void> {
  await deleteFailures(db, key);
}

/**
 * A signed-in user proving it is them again with their password (changing it, deleting the
 * account): counted against the account's lockout like a login, so a stolen session cannot guess
 * the password at will there either. Whether the password was right; a locked account is refused
 * with login_timeout before its password is checked.
 */
export async function checkOwnPassword(db: Executor, userId: string, hash: string, password: string): Promise<boolean> {
  const attempt = await beginAttempt(db, [accountKey(userId)]);
  if (!attempt) throw tooMany('login_timeout');
  if (!(await verifyPassword(hash, password))) {
    if (await isLocked(db, accountKey(userId))) throw tooMany('login_timeout');
    return false;
  }
  await forgiveAttempt(db, attempt);
  return true;
}
