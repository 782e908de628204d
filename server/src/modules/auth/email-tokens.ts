import { createHash, randomBytes } from 'node:crypto';
import type { Executor } from '../../db/schema.js';
import {
  type EmailPurpose,
  type EmailTokenRow,
  deleteEmailToken,
  deleteExpiredEmailTokens,
  deleteUserEmailTokens,
  findEmailToken,
  insertEmailToken,
} from './auth.repository.js';

/**
 * One-use links sent by email. Only a SHA-256 of the random token is stored, so a leaked
 * database holds no usable link. A new link of a purpose replaces the user's earlier ones.
 */
export const EMAIL_TOKEN_TTL: Record<EmailPurpose, number> = {
  verify: 24 * 60 * 60 * 1000,
  change_email: 24 * 60 * 60 * 1000,
  reset_password: 60 * 60 * 1000,
  // As long as the verification link it follows.
  signup_login: 24 * 60 * 60 * 1000,
};

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * A new link, valid for its purpose's time from `now` (when it is mailed). `requestedAt` (when
 * the user asked for it) is kept as the link's creation time, so a mail job retried late can tell
 * that a newer request's link was already sent.
 */
export async function issueEmailToken(
  db: Executor,
  userId: string,
  purpose: EmailPurpose,
  email: string,
  now: number = Date.now(),
  requestedAt: number = now,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await deleteExpiredEmailTokens(db, now);
  await deleteUserEmailTokens(db, userId, purpose);
  await insertEmailToken(db, {
    token_hash: hashToken(token),
    user_id: userId,
    purpose,
    email,
    expires_at: now + EMAIL_TOKEN_TTL[purpose],
    created_at: requestedAt,
  });
  return token;
}

/**
 * What a link is checked against: the token from it, the purposes it may serve, the address it
 * carried (when it carried one) and the time of the check.
 */
type EmailTokenLookup = [token: string, purposes: EmailPurpose[], email: string | undefined, now?: number];

/**
 * The stored link for token when it is one of purposes, unexpired, and (when the link carried
 * an address) sent to that address; otherwise null.
 */
export async function findValidEmailToken(
  db: Executor,
  ...[token, purposes, email, now = Date.now()]: EmailTokenLookup
): Promise<EmailTokenRow | null> {
  if (!token) return null;
  const row = await findEmailToken(db, hashToken(token));
  if (!row || !purposes.includes(row.purpose) || Number(row.expires_at) <= now) return null;
  if (email !== undefined && email.trim().toLowerCase() !== row.email) return null;
  return row;
}

/** Like findValidEmailToken, and uses the link up: a second use of it finds nothing. */
export async function consumeEmailToken(db: Executor, ...lookup: EmailTokenLookup): Promise<EmailTokenRow | null> {
  const row = await findValidEmailToken(db, ...lookup);
  if (!row) return null;
  return (await deleteEmailToken(db, row.token_hash)) ? row : null;
}
