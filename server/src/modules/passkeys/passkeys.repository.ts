import type { Executor, PasskeyChallengesTable, PasskeysTable } from '../../db/schema.js';

/** Every SQL of passkeys and their challenges. */

export type PasskeyRow = Omit<PasskeysTable, 'counter' | 'transports'> & { counter: number; transports: string };
export type ChallengeRow = PasskeyChallengesTable;

export async function insertChallenge(db: Executor, row: ChallengeRow): Promise<void> {
  await db.insertInto('passkey_challenges').values(row).execute();
}

/** Challenges past their time are of no use to anyone: each new one sweeps them. */
export async function deleteExpiredChallenges(db: Executor, now: number): Promise<void> {
  await db.deleteFrom('passkey_challenges').where('expires_at', '<=', now).execute();
}

/**
 * Takes a challenge out: the row, when this call is the one that deleted it, so a challenge
 * answers at most one attempt even when two arrive at once.
 */
export async function takeChallenge(db: Executor, id: string): Promise<ChallengeRow | undefined> {
  const row = await db.selectFrom('passkey_challenges').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  const result = await db.deleteFrom('passkey_challenges').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1 ? row : undefined;
}

/** The account's passkeys, newest first. */
export function listUserPasskeys(db: Executor, userId: string): Promise<PasskeyRow[]> {
  return db.selectFrom('passkeys').selectAll().where('user_id', '=', userId).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
}

export function findPasskeyByCredentialId(db: Executor, credentialId: string): Promise<PasskeyRow | undefined> {
  return db.selectFrom('passkeys').selectAll().where('credential_id', '=', credentialId).executeTakeFirst();
}

export async function insertPasskey(db: Executor, row: PasskeyRow): Promise<void> {
  await db.insertInto('passkeys').values(row).execute();
}

/** Records a sign-in: the authenticator's new counter and the time. */
export async function markPasskeyUsed(db: Executor, id: string, counter: number, at: number): Promise<void> {
  await db.updateTable('passkeys').set({ counter, last_used_at: at }).where('id', '=', id).execute();
}

/** Deletes one of the user's passkeys; false when the user has no passkey of that id. */
export async function deleteUserPasskey(db: Executor, userId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('passkeys').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
