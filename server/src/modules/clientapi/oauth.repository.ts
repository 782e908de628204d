import { rowOf } from '../../db/helpers.js';
import { reusableQuery } from '../../db/reusable-query.js';
import type { Executor, OAuthCodesTable, OAuthTokensTable, UserRow } from '../../db/schema.js';

/**
 * The rows of signing apps in: authorization codes and access tokens, each found by the hash of the
 * secret an app presents. A code is used and a token revoked by a conditional update, so of two
 * requests racing with the same secret only one sees its row change.
 */

export type CodeRow = OAuthCodesTable;
export type TokenRow = OAuthTokensTable;

export async function insertCode(db: Executor, row: CodeRow): Promise<void> {
  await db.insertInto('oauth_codes').values(row).execute();
}

/** Codes expire within minutes: those past their time are of no use to anyone. */
export async function deleteExpiredCodes(db: Executor, now: number): Promise<void> {
  await db.deleteFrom('oauth_codes').where('expires_at', '<', now).execute();
}

export function findCode(db: Executor, codeHash: string): Promise<CodeRow | undefined> {
  return db.selectFrom('oauth_codes').selectAll().where('code_hash', '=', codeHash).executeTakeFirst();
}

/** Marks the code used; false when it already was (or is gone). */
export async function useCode(db: Executor, codeHash: string, now: number): Promise<boolean> {
  const result = await db.updateTable('oauth_codes').set({ used_at: now }).where('code_hash', '=', codeHash).where('used_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function insertToken(db: Executor, row: TokenRow): Promise<void> {
  await db.insertInto('oauth_tokens').values(row).execute();
}

const tokenByHashQuery = reusableQuery((db, tokenHash: string) => db.selectFrom('oauth_tokens').selectAll().where('token_hash', '=', tokenHash));

export function findToken(db: Executor, tokenHash: string): Promise<TokenRow | undefined> {
  return tokenByHashQuery.first(db, tokenHash);
}

/** The token's columns beside its account's, each named with TOKEN_PREFIX (no users column starts so). */
const TOKEN_COLUMNS = ['id', 'token_hash', 'refresh_hash', 'app_id', 'user_id', 'token_version', 'scopes', 'created_at', 'expires_at', 'revoked_at', 'last_used_at'] as const satisfies readonly (keyof TokenRow)[];
const TOKEN_PREFIX = 'oauth__';

// Read on every call an app makes: built once, and the account with the token in one statement
// (PostgreSQL is spared a round trip a call).
const tokenWithAccountQuery = reusableQuery((db, tokenHash: string) =>
  db
    .selectFrom('oauth_tokens')
    .leftJoin('users', 'users.id', 'oauth_tokens.user_id')
    .selectAll('users')
    .select(TOKEN_COLUMNS.map((column) => `oauth_tokens.${column} as ${TOKEN_PREFIX}${column}` as const))
    .where('oauth_tokens.token_hash', '=', tokenHash),
);

/** A token found by its hash, with its account's row (undefined for an app's own token, or when the account is gone). */
export interface TokenWithAccount {
  token: TokenRow;
  account: UserRow | undefined;
}

export async function findTokenWithAccount(db: Executor, tokenHash: string): Promise<TokenWithAccount | undefined> {
  const row = (await tokenWithAccountQuery.first(db, tokenHash)) as Record<string, unknown> | undefined;
  if (!row) return undefined;
  const token: Record<string, unknown> = {};
  const account: Record<string, unknown> = {};
  // Copied into new objects rather than deleted from the row: an object with deleted keys is slow to read for the rest of the request.
  for (const key in row) {
    if (key.startsWith(TOKEN_PREFIX)) token[key.slice(TOKEN_PREFIX.length)] = row[key];
    else account[key] = row[key];
  }
  return { token: token as unknown as TokenRow, account: account.id === null ? undefined : (account as unknown as UserRow) };
}

export function findTokenById(db: Executor, id: string): Promise<TokenRow | undefined> {
  return rowOf(db, 'oauth_tokens', { id });
}

export function findTokenByRefresh(db: Executor, refreshHash: string): Promise<TokenRow | undefined> {
  return db.selectFrom('oauth_tokens').selectAll().where('refresh_hash', '=', refreshHash).executeTakeFirst();
}

/** Revokes the tokens not revoked yet, of those the caller narrows it to: a revoked token keeps the time it was first revoked. */
const revokeInForce = (db: Executor, now: number) => db.updateTable('oauth_tokens').set({ revoked_at: now }).where('revoked_at', 'is', null);

/** Revokes the token; false when it already was. */
export async function revokeToken(db: Executor, id: string, now: number): Promise<boolean> {
  const result = await revokeInForce(db, now).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Notes a call made with the token, at most once per `everyMs`, so a busy app does not write on every call. */
export async function touchToken(db: Executor, id: string, now: number, everyMs: number): Promise<void> {
  await db
    .updateTable('oauth_tokens')
    .set({ last_used_at: now })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', now - everyMs)]))
    .execute();
}

/** A token of the account still in force (not revoked, not expired, issued since its last password change), with its app. */
export interface LiveTokenRow {
  app_id: string;
  name: string;
  website: string | null;
  scopes: string;
  created_at: number;
  last_used_at: number | null;
}

export async function liveTokensOf(db: Executor, userId: string, now: number): Promise<LiveTokenRow[]> {
  const rows = await db
    .selectFrom('oauth_tokens')
    .innerJoin('client_apps', 'client_apps.id', 'oauth_tokens.app_id')
    .innerJoin('users', 'users.id', 'oauth_tokens.user_id')
    .select(['oauth_tokens.app_id', 'client_apps.name', 'client_apps.website', 'oauth_tokens.scopes', 'oauth_tokens.created_at', 'oauth_tokens.last_used_at'])
    .where('oauth_tokens.user_id', '=', userId)
    .where('oauth_tokens.revoked_at', 'is', null)
    .where((eb) => eb.or([eb('oauth_tokens.expires_at', 'is', null), eb('oauth_tokens.expires_at', '>', now)]))
    .whereRef('oauth_tokens.token_version', '=', 'users.token_version')
    .execute();
  return rows.map((row) => ({
    ...row,
    created_at: Number(row.created_at),
    last_used_at: row.last_used_at === null ? null : Number(row.last_used_at),
  }));
}

/** Revokes every token the app holds for the account and drops its unused codes; the ids of the tokens that were in force. */
export async function revokeAppForUser(db: Executor, userId: string, appId: string, now: number): Promise<string[]> {
  const revoked = await revokeInForce(db, now).where('user_id', '=', userId).where('app_id', '=', appId).returning('id').execute();
  await db.deleteFrom('oauth_codes').where('user_id', '=', userId).where('app_id', '=', appId).execute();
  return revoked.map((row) => row.id);
}
