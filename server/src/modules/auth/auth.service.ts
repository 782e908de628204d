import type { FastifyInstance } from 'fastify';
import { foldForSearch } from '#core/text';
import { normalizeEmail, validateEmail, validatePassword, validateUsername } from '#core/validation';
import type { UserRow } from '../../db/schema';
import { type AppError, badRequest, conflict, forbidden, tooMany } from '../../lib/app-error';
import { newId } from '../../lib/ids';
import { burnPasswordCheck, hashPassword, verifyPassword } from '../../lib/passwords';
import { appLink, sendAccountMail } from './auth.emails';
import { type SessionUser, isGoogleAccount, toSessionUser } from './auth.mapper';
import {
  deleteUserEmailTokens,
  findUserByEmail,
  findUserByGoogleSub,
  findUserById,
  findUserByUsernameLower,
  insertUser,
  latestEmailTokenAt,
  revokeTokens,
  setPasswordHash,
  uniqueViolation,
  updateUser,
} from './auth.repository';
import { consumeEmailToken, findValidEmailToken, issueEmailToken } from './email-tokens';
import { usernameBase, usernameCandidates, verifyGoogleToken } from './google';
import { accountKey, addressKey, clearFailures, isLocked, recordFailure } from './login-lockout';

export interface Session {
  token: string;
  user: SessionUser;
}

export type Language = 'en' | 'cs';

/** A username as stored: surrounding spaces dropped, then the shared rules (000 §5). */
export function checkUsername(input: string): string {
  const username = input.trim();
  const problem = validateUsername(username);
  if (problem) throw badRequest(problem);
  return username;
}

export function checkPassword(password: string): void {
  const problem = validatePassword(password);
  if (problem) throw badRequest(problem);
}

export function checkEmail(input: string): string {
  const problem = validateEmail(input);
  if (problem) throw badRequest(problem);
  return normalizeEmail(input);
}

/** The 409 for a unique column two writers raced for; other errors pass through. */
export function takenError(err: unknown): AppError | unknown {
  const column = uniqueViolation(err);
  if (column === 'username_lower') return conflict('username_taken');
  if (column === 'email') return conflict('email_used');
  return err;
}

async function issueSession(app: FastifyInstance, user: UserRow): Promise<Session> {
  return { token: await app.signToken(user), user: toSessionUser(user) };
}

function mailVerification(app: FastifyInstance, user: Pick<UserRow, 'username' | 'language'>, email: string, token: string): Promise<void> {
  return sendAccountMail(app, 'verify', { email, username: user.username, language: user.language }, appLink(app, 'verify', token, email));
}

/** POST /auth/signup (000 §5, §7): an unverified account and a verification link. */
export async function signup(
  app: FastifyInstance,
  input: { username: string; email: string; password: string; language: Language },
): Promise<void> {
  const username = checkUsername(input.username);
  const email = checkEmail(input.email);
  checkPassword(input.password);
  const usernameLower = username.toLowerCase();
  if (await findUserByUsernameLower(app.db, usernameLower)) throw conflict('username_taken');
  if (await findUserByEmail(app.db, email)) throw conflict('email_used');

  const user = {
    id: newId(),
    username,
    username_lower: usernameLower,
    email,
    password_hash: await hashPassword(input.password),
    google_sub: null,
    verified: 0,
    language: input.language,
    search_text: foldForSearch(username),
    created_at: Date.now(),
  };
  let token: string;
  try {
    token = await app.db.transaction().execute(async (trx) => {
      await insertUser(trx, user);
      return issueEmailToken(trx, user.id, 'verify', email);
    });
  } catch (err) {
    throw takenError(err);
  }
  await mailVerification(app, user, email, token);
}

/** GET /auth/verify (000 §7): confirms a sign-up address, or an address change (001 §4). */
export async function verifyEmail(app: FastifyInstance, token: string, email: string | undefined): Promise<void> {
  await app.db.transaction().execute(async (trx) => {
    const link = await consumeEmailToken(trx, token, ['verify', 'change_email'], email || undefined);
    if (!link) throw badRequest('invalid_link');
    const user = await findUserById(trx, link.user_id);
    if (!user) throw badRequest('invalid_link');
    if (link.purpose === 'verify') {
      // A sign-up link confirms only the address it was sent to, not one changed since.
      if (user.email !== link.email) throw badRequest('invalid_link');
      await updateUser(trx, user.id, { verified: 1 });
      return;
    }
    const holder = await findUserByEmail(trx, link.email);
    if (holder && holder.id !== user.id) throw conflict('email_used');
    try {
      await updateUser(trx, user.id, { email: link.email, verified: 1 });
    } catch (err) {
      throw takenError(err);
    }
    await deleteUserEmailTokens(trx, user.id, 'change_email');
  });
}

/** Resending is limited so a stream of logins cannot flood someone's inbox. */
const VERIFY_RESEND_MS = 5 * 60 * 1000;

/**
 * POST /auth/login (000 §7): `username` is a username (any case) or an address. Which of name
 * and password was wrong is never told; see login-lockout.ts for login_timeout.
 */
export async function login(app: FastifyInstance, input: { username: string; password: string }, ip: string): Promise<Session> {
  const db = app.db;
  const ipKey = addressKey(ip);
  if (await isLocked(db, ipKey)) throw tooMany('login_timeout');

  const identifier = input.username.trim();
  const user = identifier.includes('@')
    ? await findUserByEmail(db, normalizeEmail(identifier))
    : identifier
      ? await findUserByUsernameLower(db, identifier.toLowerCase())
      : undefined;
  if (!user) {
    await burnPasswordCheck(input.password);
    await recordFailure(db, [ipKey]);
    throw (await isLocked(db, ipKey)) ? tooMany('login_timeout') : badRequest('invalid_credentials');
  }

  const userKey = accountKey(user.id);
  if (await isLocked(db, userKey)) throw tooMany('login_timeout');
  if (!user.password_hash) throw badRequest('login_google');
  if (!(await verifyPassword(user.password_hash, input.password))) {
    await recordFailure(db, [userKey, ipKey]);
    const locked = (await isLocked(db, userKey)) || (await isLocked(db, ipKey));
    throw locked ? tooMany('login_timeout') : badRequest('invalid_credentials');
  }
  if (!user.verified) {
    const last = await latestEmailTokenAt(db, user.id, 'verify');
    if (user.email && (last === null || Date.now() - last >= VERIFY_RESEND_MS)) {
      await mailVerification(app, user, user.email, await issueEmailToken(db, user.id, 'verify', user.email));
    }
    throw forbidden('verify_email');
  }
  await clearFailures(db, userKey);
  return issueSession(app, user);
}

/** First name in candidates nobody holds; inserting it may still race, so callers retry. */
async function createGoogleUser(app: FastifyInstance, identity: { sub: string; email: string | null; name: string | null }, language: Language): Promise<UserRow> {
  for (const username of usernameCandidates(usernameBase(identity))) {
    const usernameLower = username.toLowerCase();
    if (await findUserByUsernameLower(app.db, usernameLower)) continue;
    const id = newId();
    try {
      await insertUser(app.db, {
        id,
        username,
        username_lower: usernameLower,
        email: identity.email,
        password_hash: null,
        google_sub: identity.sub,
        verified: 1,
        language,
        search_text: foldForSearch(username),
        created_at: Date.now(),
      });
    } catch (err) {
      const column = uniqueViolation(err);
      if (column === 'username_lower') continue;
      // The same Google account signing in twice at once: the other request created it.
      if (column === 'google_sub') {
        const existing = await findUserByGoogleSub(app.db, identity.sub);
        if (existing) return existing;
      }
      if (column === 'email') throw conflict('email_used');
      throw err;
    }
    const created = await findUserById(app.db, id);
    if (created) return created;
  }
  throw conflict('username_taken');
}

/**
 * POST /auth/google (000 §7): signs in with a Google ID token. An unknown Google account gets a
 * new verified account without a password, unless an account already has the address Google
 * vouches for: that account is linked.
 */
export async function googleLogin(app: FastifyInstance, token: string, language: Language): Promise<Session> {
  const identity = await verifyGoogleToken(app, token);
  const known = await findUserByGoogleSub(app.db, identity.sub);
  if (known) return issueSession(app, known);

  const holder = identity.email ? await findUserByEmail(app.db, identity.email) : undefined;
  if (holder) {
    if (holder.google_sub) throw conflict('email_used');
    // An unverified account's password was never proven to belong to the address's owner, who
    // is now signing in: drop it (and any session made with it) rather than hand it the account.
    const changes = holder.verified ? { google_sub: identity.sub } : { google_sub: identity.sub, verified: 1, password_hash: null };
    await app.db.transaction().execute(async (trx) => {
      await updateUser(trx, holder.id, changes);
      if (!holder.verified) await revokeTokens(trx, holder.id);
    });
    const linked = await findUserById(app.db, holder.id);
    if (!linked) throw badRequest('google_failed');
    return issueSession(app, linked);
  }
  return issueSession(app, await createGoogleUser(app, identity, language));
}

/** One reset mail a minute at most: repeated requests cannot flood someone's inbox. */
const RESET_RESEND_MS = 60 * 1000;

/** POST /auth/forgot: the same answer whether or not the address has an account. */
export async function forgotPassword(app: FastifyInstance, input: string): Promise<void> {
  const email = checkEmail(input);
  const user = await findUserByEmail(app.db, email);
  if (!user) return;
  const to = { email, username: user.username, language: user.language };
  if (isGoogleAccount(user)) {
    await sendAccountMail(app, 'google_account', to, `${app.config.publicUrl}/#/login`);
    return;
  }
  const last = await latestEmailTokenAt(app.db, user.id, 'reset_password');
  if (last !== null && Date.now() - last < RESET_RESEND_MS) return;
  const token = await issueEmailToken(app.db, user.id, 'reset_password', email);
  await sendAccountMail(app, 'reset_password', to, appLink(app, 'reset', token, email));
}

/** POST /auth/reset: a new password from a reset link; every earlier session ends. */
export async function resetPassword(app: FastifyInstance, input: { token: string; email?: string | undefined; password: string }): Promise<void> {
  checkPassword(input.password);
  const email = input.email || undefined;
  // Checked before hashing, so a wrong link costs no hash; checked again when used.
  const link = await findValidEmailToken(app.db, input.token, ['reset_password'], email);
  if (!link) throw badRequest('invalid_link');
  const hash = await hashPassword(input.password);
  await app.db.transaction().execute(async (trx) => {
    const used = await consumeEmailToken(trx, input.token, ['reset_password'], email);
    if (!used) throw badRequest('invalid_link');
    const user = await findUserById(trx, used.user_id);
    if (!user) throw badRequest('invalid_link');
    if (isGoogleAccount(user)) throw badRequest('login_google');
    // Opening the link proved the address, so an unverified account becomes verified.
    await setPasswordHash(trx, user.id, hash, user.email === used.email ? { verified: 1 } : {});
    await deleteUserEmailTokens(trx, user.id, 'reset_password');
    await clearFailures(trx, accountKey(user.id));
  });
}
