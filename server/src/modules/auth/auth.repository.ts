import { foldForSearch } from '#core/text';
import { toBool, toFlag } from '../../db/helpers.js';
import { reusableQuery } from '../../db/reusable-query.js';
import type { EmailTokensTable, Executor, UserRow, UserUpdate } from '../../db/schema.js';
import type { NewUserRecord, UserChanges, UserRecord } from './auth.records.js';

/** Every SQL of accounts, email links and failed logins; the account module reuses the user reads. */

/** A users row as the app reads an account (its flag a boolean); undefined stays undefined. */
export function toRecord(row: UserRow | undefined): UserRecord | undefined {
  return row && { ...row, verified: toBool(row.verified) };
}

function toUpdate(changes: UserChanges): UserUpdate {
  const { verified, ...rest } = changes;
  return verified === undefined ? rest : { ...rest, verified: toFlag(verified) };
}

// Read on every signed-in request (the session's account).
const userByIdQuery = reusableQuery((db, id: string) => db.selectFrom('users').selectAll().where('id', '=', id));

export async function findUserById(db: Executor, id: string): Promise<UserRecord | undefined> {
  return toRecord(await userByIdQuery.first(db, id));
}

/** By name, case-insensitively: the caller passes the lowercased name. */
export async function findUserByUsernameLower(db: Executor, usernameLower: string): Promise<UserRecord | undefined> {
  return toRecord(await db.selectFrom('users').selectAll().where('username_lower', '=', usernameLower).executeTakeFirst());
}

/** The account holding this name in any case, or a look-alike of it (the same skeleton). */
export async function findUserByNameOrSkeleton(db: Executor, usernameLower: string, usernameSkeleton: string): Promise<UserRecord | undefined> {
  const row = await db
    .selectFrom('users')
    .selectAll()
    .where((eb) => eb.or([eb('username_lower', '=', usernameLower), eb('username_skeleton', '=', usernameSkeleton)]))
    .executeTakeFirst();
  return toRecord(row);
}

/** By address: the caller passes the normalized (lowercased) address. */
export async function findUserByEmail(db: Executor, email: string): Promise<UserRecord | undefined> {
  return toRecord(await db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst());
}

export async function findUserByGoogleSub(db: Executor, sub: string): Promise<UserRecord | undefined> {
  return toRecord(await db.selectFrom('users').selectAll().where('google_sub', '=', sub).executeTakeFirst());
}

export async function insertUser(db: Executor, user: NewUserRecord): Promise<void> {
  await db.insertInto('users').values({ ...user, verified: toFlag(user.verified) }).execute();
}

export async function updateUser(db: Executor, id: string, changes: UserChanges): Promise<void> {
  await db.updateTable('users').set(toUpdate(changes)).where('id', '=', id).execute();
}

/**
 * The account a remote actor is shown as (modules/remote): no address, password or Google link, so
 * nobody can sign in as it, and not verified, so it is never listed as a local profile.
 */
export async function insertRemoteUser(db: Executor, user: { id: string; username: string; bio: string; createdAt: number }): Promise<void> {
  await db
    .insertInto('users')
    .values({
      id: user.id,
      username: user.username,
      username_lower: user.username.toLowerCase(),
      username_skeleton: null,
      email: null,
      password_hash: null,
      google_sub: null,
      bio: user.bio,
      search_text: foldForSearch(user.username),
      created_at: user.createdAt,
    })
    .execute();
}

/** A remote account's name as its actor now gives it (and its bio, when read again), searchable by it. */
export async function renameRemoteUser(db: Executor, id: string, username: string, bio?: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ username, username_lower: username.toLowerCase(), search_text: foldForSearch(username), ...(bio === undefined ? {} : { bio }) })
    .where('id', '=', id)
    .execute();
}

/** A new password; bumping token_version revokes every token issued before. */
export async function setPasswordHash(db: Executor, id: string, hash: string, extra: UserChanges = {}): Promise<void> {
  await db
    .updateTable('users')
    .set((eb) => ({ ...toUpdate(extra), password_hash: hash, token_version: eb('token_version', '+', 1) }))
    .where('id', '=', id)
    .execute();
}

export async function revokeTokens(db: Executor, id: string): Promise<void> {
  await db
    .updateTable('users')
    .set((eb) => ({ token_version: eb('token_version', '+', 1) }))
    .where('id', '=', id)
    .execute();
}

export type UniqueColumn = 'username_lower' | 'email' | 'google_sub';

/**
 * Which unique column of users a failed write collided on, when two requests raced past the
 * availability check; null for any other error. SQLite names `table.column` in the message,
 * PostgreSQL names the key in the error's detail. A clash on the name's look-alike skeleton is
 * reported as one on the name: either way the name is taken.
 */
export function uniqueViolation(err: unknown): UniqueColumn | null {
  const e = err as { code?: unknown; message?: unknown; detail?: unknown } | null;
  if (!e || typeof e !== 'object') return null;
  let column: string | undefined;
  if (typeof e.code === 'string' && e.code.startsWith('SQLITE_CONSTRAINT') && typeof e.message === 'string') {
    column = /UNIQUE constraint failed: users\.(\w+)/.exec(e.message)?.[1];
  } else if (e.code === '23505' && typeof e.detail === 'string') {
    column = /^Key \((\w+)\)/.exec(e.detail)?.[1];
  }
  if (column === 'username_skeleton') return 'username_lower';
  return column === 'username_lower' || column === 'email' || column === 'google_sub' ? column : null;
}

// Email links.

export type EmailTokenRow = EmailTokensTable;
export type EmailPurpose = EmailTokensTable['purpose'];

export async function insertEmailToken(db: Executor, token: EmailTokenRow): Promise<void> {
  await db.insertInto('email_tokens').values(token).execute();
}

export function findEmailToken(db: Executor, tokenHash: string): Promise<EmailTokenRow | undefined> {
  return db.selectFrom('email_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** Deletes one link; true when this call removed it (so a link is used at most once). */
export async function deleteEmailToken(db: Executor, tokenHash: string): Promise<boolean> {
  const result = await db.deleteFrom('email_tokens').where('token_hash', '=', tokenHash).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

export async function deleteUserEmailTokens(db: Executor, userId: string, purpose: EmailPurpose): Promise<void> {
  await db.deleteFrom('email_tokens').where('user_id', '=', userId).where('purpose', '=', purpose).execute();
}

export async function latestEmailTokenAt(db: Executor, userId: string, purpose: EmailPurpose): Promise<number | null> {
  const row = await db
    .selectFrom('email_tokens')
    .select((eb) => eb.fn.max('created_at').as('latest'))
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .executeTakeFirst();
  return row?.latest == null ? null : Number(row.latest);
}

export async function deleteExpiredEmailTokens(db: Executor, now: number): Promise<void> {
  await db.deleteFrom('email_tokens').where('expires_at', '<=', now).execute();
}

// Failed logins.

/** Times of the key's most recent failures, newest first. */
export async function recentFailures(db: Executor, key: string, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('login_failures')
    .select('created_at')
    .where('key', '=', key)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => Number(r.created_at));
}

/** Inserts one failure per key and answers the new rows' ids. */
export async function insertFailures(db: Executor, keys: string[], now: number): Promise<number[]> {
  if (keys.length === 0) return [];
  const rows = await db
    .insertInto('login_failures')
    .values(keys.map((key) => ({ key, created_at: now })))
    .returning('id')
    .execute();
  return rows.map((r) => Number(r.id));
}

export async function deleteFailureRows(db: Executor, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom('login_failures').where('id', 'in', ids).execute();
}

export async function deleteFailures(db: Executor, key: string): Promise<void> {
  await db.deleteFrom('login_failures').where('key', '=', key).execute();
}

export async function deleteFailuresBefore(db: Executor, before: number): Promise<void> {
  await db.deleteFrom('login_failures').where('created_at', '<', before).execute();
}

/** Suspends (at `at`) or restores (null) an account; a suspension also ends its sessions. Answers whether the user exists. */
export async function setSuspended(db: Executor, userId: string, at: number | null): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set((eb) => (at === null ? { suspended_at: null } : { suspended_at: at, token_version: eb('token_version', '+', 1) }))
    .where('id', '=', userId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Suspends, at `at`, those of these accounts not suspended already: a domain block's suspension of
 * its actors' accounts, whose shared time tells them apart from a moderator's own.
 */
export async function suspendUnsuspended(db: Executor, userIds: string[], at: number): Promise<void> {
  if (userIds.length === 0) return;
  await db
    .updateTable('users')
    .set((eb) => ({ suspended_at: at, token_version: eb('token_version', '+', 1) }))
    .where('suspended_at', 'is', null)
    .where('id', 'in', userIds)
    .execute();
}

/** Lifts the suspension of these accounts. */
export async function unsuspendAll(db: Executor, userIds: string[]): Promise<void> {
  if (userIds.length > 0) await db.updateTable('users').set({ suspended_at: null }).where('id', 'in', userIds).execute();
}

/** Sets the role of the user with this name (any case); answers whether there is such a user. */
export async function setRoleByName(db: Executor, username: string, role: 'user' | 'moderator'): Promise<boolean> {
  const result = await db.updateTable('users').set({ role }).where('username_lower', '=', username.toLowerCase()).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
