import { LIMITS } from '#core/limits';
import type { Executor } from '../../db/schema.js';
import { tooMany } from '../../lib/app-error.js';
import { verifyPassword } from '../../lib/passwords.js';
import { lockRateKey } from '../../lib/rate-limit.js';
import { deleteFailureRows, deleteFailures, deleteFailuresBefore, insertFailures, recentFailures } from './auth.repository.js';

/**
 * Login lockout (login_timeout). Each attempt counts on three keys, each with its own count of
 * failures within LIMITS.loginLockoutMs that locks it for LIMITS.loginLockoutMs from the last of
 * them, even for the right password:
 * - the account from this address (LIMITS.loginMaxFailures): whoever mistypes or guesses there
 *   stops, and nobody else behind the same address is held up by it;
 * - the account from all addresses (LIMITS.loginMaxFailuresPerAccount): guessing spread over many
 *   addresses still stops;
 * - the address on all names (LIMITS.loginMaxFailuresPerAddress): far above one person's
 *   mistakes, so it throttles only someone trying many accounts.
 * Failures are rows, so every server process sees the same lock. Attempts refused by a lock are not
 * recorded: the lock ends on time instead of being stretched by whoever keeps trying.
 *
 * A name no account has is locked just the same, under keys of its own: were only real accounts
 * locked, the Nth failure would tell a prober which names are registered.
 */
export const accountKey = (userId: string) => `user:${userId}`;
export const addressKey = (ip: string) => `ip:${ip}`;
/** The key of a sign-in name no account has: as typed, after the normalising a lookup does. */
export const unknownNameKey = (identifier: string) => `name:${identifier}`;
/** An account's (or unknown name's) key as tried from one address. */
export const fromAddressKey = (nameKey: string, ip: string) => `${nameKey}|${addressKey(ip)}`;
/** An account's key for its signed-in user proving it is them again (checkOwnPassword). */
const ownPasswordKey = (userId: string) => `${accountKey(userId)}|session`;

/** A counter of failed logins, and how many of them within the window lock it. */
export interface LockKey {
  key: string;
  max: number;
}

/** The keys a login as `nameKey` (accountKey or unknownNameKey) from `ip` counts on. */
export function loginKeys(nameKey: string, ip: string): LockKey[] {
  return [
    { key: fromAddressKey(nameKey, ip), max: LIMITS.loginMaxFailures },
    { key: nameKey, max: LIMITS.loginMaxFailuresPerAccount },
    { key: addressKey(ip), max: LIMITS.loginMaxFailuresPerAddress },
  ];
}

export async function isLocked(db: Executor, { key, max }: LockKey, now: number = Date.now()): Promise<boolean> {
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
export async function beginAttempt(db: Executor, keys: LockKey[], now: number = Date.now()): Promise<Attempt | null> {
  const run = async (trx: Executor): Promise<Attempt | null> => {
    const names = keys.map((lock) => lock.key);
    // A fixed order, so two attempts locking the same two keys cannot deadlock.
    for (const key of [...names].sort()) await lockRateKey(trx, key);
    for (const lock of keys) if (await isLocked(trx, lock, now)) return null;
    const failureIds = await insertFailures(trx, names, now);
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
 * The account proved who it is: its failures from all addresses are forgotten, and those from the
 * address it proved it at (when known). A lock on another address stays: whoever guessed there
 * does not get new tries because the owner signed in elsewhere.
 */
export async function clearAccountFailures(db: Executor, userId: string, ip?: string): Promise<void> {
  await deleteFailures(db, accountKey(userId));
  if (ip !== undefined) await deleteFailures(db, fromAddressKey(accountKey(userId), ip));
}

/**
 * A signed-in user proving it is them again with their password (changing it, deleting the
 * account): counted like a login, on the account as a whole and on a key of its own that locks as
 * soon as one address's would, so a stolen session cannot guess the password at will there either.
 * Whether the password was right; a locked account is refused with login_timeout before its
 * password is checked.
 */
export async function checkOwnPassword(db: Executor, userId: string, hash: string, password: string): Promise<boolean> {
  const keys = [
    { key: ownPasswordKey(userId), max: LIMITS.loginMaxFailures },
    { key: accountKey(userId), max: LIMITS.loginMaxFailuresPerAccount },
  ];
  const attempt = await beginAttempt(db, keys);
  if (!attempt) throw tooMany('login_timeout');
  if (!(await verifyPassword(hash, password))) {
    for (const lock of keys) if (await isLocked(db, lock)) throw tooMany('login_timeout');
    return false;
  }
  await forgiveAttempt(db, attempt);
  return true;
}
