import { LIMITS } from '#core/limits';
import type { Executor } from '../../db/schema';
import { deleteFailures, deleteFailuresBefore, insertFailures, recentFailures } from './auth.repository';

/**
 * Login lockout (000 §8 login_timeout, §9): LIMITS.loginMaxFailures failed logins within
 * LIMITS.loginLockoutMs on one account, or from one address, lock that account or address for
 * LIMITS.loginLockoutMs from the last of them, even for the right password. Failures are rows, so
 * every server process sees the same lock. Attempts refused by a lock are not recorded: the lock
 * ends on time instead of being stretched by whoever keeps trying.
 */
export const accountKey = (userId: string) => `user:${userId}`;
export const addressKey = (ip: string) => `ip:${ip}`;

export async function isLocked(db: Executor, key: string, now: number = Date.now()): Promise<boolean> {
  const max = LIMITS.loginMaxFailures;
  const times = await recentFailures(db, key, max);
  if (times.length < max) return false;
  const newest = times[0]!;
  const oldest = times[max - 1]!;
  return newest - oldest <= LIMITS.loginLockoutMs && now - newest < LIMITS.loginLockoutMs;
}

export async function recordFailure(db: Executor, keys: string[], now: number = Date.now()): Promise<void> {
  await insertFailures(db, keys, now);
  // A lock looks at most two windows back (N failures within one window, the last within one).
  await deleteFailuresBefore(db, now - 2 * LIMITS.loginLockoutMs);
}

export async function clearFailures(db: Executor, key: string): Promise<void> {
  await deleteFailures(db, key);
}
