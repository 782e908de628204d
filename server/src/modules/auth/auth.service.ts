import type { FastifyInstance } from 'fastify';
import type { Language } from '#core/api/account';
import type { Session } from '#core/api/auth';
import { foldForSearch, normalizeName, skeleton } from '#core/text';
import { normalizeEmail, validateEmail, validatePassword, validateUsername } from '#core/validation';
import { inTransaction } from '../../db/helpers.js';
import type { Executor } from '../../db/schema.js';
import { type AppError, badRequest, conflict, forbidden, tooMany } from '../../lib/app-error.js';
import { newId } from '../../lib/ids.js';
import { type RateRule, countRecent, takeSlot, tryTakeSlot } from '../../lib/rate-limit.js';
import { burnPasswordCheck, hashPassword, verifyPassword } from '../../lib/passwords.js';
import { type ServiceContext, contextOf } from '../../lib/service-context.js';
import { requireRulesAccepted } from '../instance/instance.service.js';
import { enqueueAccountMail } from './auth.emails.js';
import { isGoogleOnlyAccount, toSessionUser } from './auth.mapper.js';
import {
  deleteUserEmailTokens,
  findUserByEmail,
  findUserByGoogleSub,
  findUserById,
  findUserByNameOrSkeleton,
  findUserByUsernameLower,
  insertUser,
  revokeTokens,
  setPasswordHash,
  uniqueViolation,
  updateUser,
} from './auth.repository.js';
import type { UserChanges, UserRecord } from './auth.records.js';
import { consumeEmailToken, findValidEmailToken, issueEmailToken } from './email-tokens.js';
import { usernameBase, usernameCandidates, verifyGoogleToken } from './google.js';
import { admit, checkAdmission, checkApproved, registrationSettings } from './registration.service.js';
import { accountKey, beginAttempt, clearAccountFailures, forgiveAttempt, isLocked, loginKeys, unknownNameKey } from './login-lockout.js';

/** A username as stored: NFKC-normalised, surrounding spaces dropped, then the shared rules. */
export function checkUsername(input: string): string {
  const username = normalizeName(input);
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

/**
 * The account whose name a new one would look like: the same name in any case, or a look-alike
 * (the same skeleton, e.g. "bob" and "bоb" with a Cyrillic o).
 */
export function findNameHolder(db: Executor, username: string): Promise<UserRecord | undefined> {
  return findUserByNameOrSkeleton(db, username.toLowerCase(), skeleton(username));
}

/** The account with this id, as the session check and the account calls read it. */
export function findAccount(db: Executor, id: string): Promise<UserRecord | undefined> {
  return findUserById(db, id);
}

/** The account that has this (normalized) address, if any. */
export function findAccountByEmail(db: Executor, email: string): Promise<UserRecord | undefined> {
  return findUserByEmail(db, email);
}

/** Changes the account's row (its bio, name, language...); a taken name or address throws, see takenError. */
export async function updateAccount(db: Executor, id: string, changes: UserChanges): Promise<void> {
  await updateUser(db, id, changes);
}

/** The 409 for a unique column two writers raced for; other errors pass through. */
export function takenError(err: unknown): AppError | unknown {
  const column = uniqueViolation(err);
  if (column === 'username_lower') return conflict('username_taken');
  if (column === 'email') return conflict('email_used');
  return err;
}

/**
 * Every way in (password, Google, a passkey) ends here: a suspended account gets no session, nor
 * one whose sign-up waits for approval or was refused.
 */
async function issueSession(app: FastifyInstance, user: UserRecord): Promise<Session> {
  if (user.suspended_at) throw forbidden('account_suspended');
  await checkApproved(app.db, user);
  return { token: await app.signToken(user), user: toSessionUser(user) };
}

/** Resending a verification link is limited so a stream of logins cannot flood someone's inbox. */
const VERIFY_RESEND_MS = 5 * 60 * 1000;
/** One reset mail a minute at most: repeated requests cannot flood someone's inbox. */
const RESET_RESEND_MS = 60 * 1000;

const verifyMailRule = (userId: string): RateRule => ({ key: `mail:verify:${userId}`, max: 1, windowMs: VERIFY_RESEND_MS });
/**
 * Counted per address whether or not an account has it, so a refusal within the minute tells
 * nothing about who has the address, and the first answer is never told again when no mail went.
 */
const resetMailRule = (email: string): RateRule => ({ key: `mail:reset:${email}`, max: 1, windowMs: RESET_RESEND_MS });
const signupRule = (app: FastifyInstance, ip: string): RateRule => ({
  key: `signup:${ip}`,
  max: app.config.rates.signupsPerAddressPerHour,
  windowMs: app.config.rates.windowMs,
});

/**
 * POST /auth/signup: an unverified account and a verification link, limited per client address,
 * under the registration mode (see registration.service.ts), and while the instance has rules only
 * for a sign-up that accepted them; answers whether the account waits for approval. The password
 * is hashed before the transaction (inTransaction joins the route's when it opened one), so a slow
 * hash never holds the database.
 */
export async function signup(
  ctx: ServiceContext,
  input: { username: string; email: string; password: string; acceptRules?: boolean | undefined; language: Language; ip: string; reason?: string | undefined; invite?: string | undefined },
): Promise<{ awaitsApproval: boolean; signupLogin: string }> {
  const { app, db } = ctx;
  const admission = await checkAdmission(ctx, input);
  const username = checkUsername(input.username);
  const email = checkEmail(input.email);
  checkPassword(input.password);
  await requireRulesAccepted(db, input.acceptRules);
  const rule = signupRule(app, input.ip);
  // Checked before hashing, so a flood costs no hash; the slot is taken with the insert.
  if ((await countRecent(db, rule.key, rule.windowMs)) >= rule.max) throw tooMany('signup_limit');
  const usernameLower = username.toLowerCase();
  if (await findNameHolder(db, username)) throw conflict('username_taken');
  if (await findUserByEmail(db, email)) throw conflict('email_used');

  const user = {
    id: newId(),
    username,
    username_lower: usernameLower,
    username_skeleton: skeleton(username),
    email,
    password_hash: await hashPassword(input.password),
    google_sub: null,
    verified: false,
    language: input.language,
    search_text: foldForSearch(username),
    created_at: Date.now(),
  };
  try {
    // One transaction: a refused or failed sign-up takes no slot and queues no mail.
    const signupLogin = await inTransaction(db, async (trx) => {
      await takeSlot(trx, rule, 'signup_limit');
      await insertUser(trx, user);
      await admit(trx, user.id, admission, user.created_at);
      await tryTakeSlot(trx, verifyMailRule(user.id));
      await enqueueAccountMail(trx, 'verify', { id: user.id, token_version: 0 }, email);
      return issueEmailToken(trx, user.id, 'signup_login', email);
    });
    return { awaitsApproval: admission.kind === 'approval', signupLogin };
  } catch (err) {
    throw takenError(err);
  }
}

/**
 * POST /auth/signup-login: the browser that signed up (it knew the password) signs in once the
 * address is verified, with the one-use key the sign-up answered. The mailed link alone never
 * signs anyone in: whoever reads the mail elsewhere only verifies the address. The key names the
 * address it was issued for, so it cannot sign in an account whose address changed since.
 */
export async function signupLogin(ctx: ServiceContext, input: { key: string; email: string }): Promise<Session> {
  const email = input.email.trim().toLowerCase();
  const link = await findValidEmailToken(ctx.db, input.key, ['signup_login'], email);
  if (!link) throw badRequest('invalid_link');
  const user = await findUserById(ctx.db, link.user_id);
  if (!user || user.email !== link.email) throw badRequest('invalid_link');
  // Before the address is verified (or the sign-up approved) the key stays, for what is still to come.
  if (!user.verified) throw forbidden('verify_email');
  const session = await admitUser(ctx, user);
  if (!(await consumeEmailToken(ctx.db, input.key, ['signup_login'], email))) throw badRequest('invalid_link');
  return session;
}

/** GET /auth/verify: confirms a sign-up address, or an address change, on the route's transaction. */
export async function verifyEmail(ctx: ServiceContext, input: { token: string; email: string | undefined }): Promise<void> {
  const { token, email } = input;
  const db = ctx.db;
  const link = await consumeEmailToken(db, token, ['verify', 'change_email'], email || undefined);
  if (!link) throw badRequest('invalid_link');
  const user = await findUserById(db, link.user_id);
  if (!user) throw badRequest('invalid_link');
  if (link.purpose === 'verify') {
    // A sign-up link confirms only the address it was sent to, not one changed since.
    if (user.email !== link.email) throw badRequest('invalid_link');
    await updateUser(db, user.id, { verified: true });
    return;
  }
  const holder = await findUserByEmail(db, link.email);
  if (holder && holder.id !== user.id) throw conflict('email_used');
  try {
    await updateUser(db, user.id, { email: link.email, verified: true });
  } catch (err) {
    throw takenError(err);
  }
  // Links mailed to the old address (a reset, say) must not outlive it.
  for (const purpose of ['change_email', 'reset_password', 'verify'] as const) await deleteUserEmailTokens(db, user.id, purpose);
}

/**
 * POST /auth/login: `username` is a username (any case) or an address. Which of name
 * and password was wrong is never told; see login-lockout.ts for login_timeout.
 */
export async function login(ctx: ServiceContext, input: { username: string; password: string; ip: string }): Promise<Session> {
  const { db, app } = ctx;
  const ip = input.ip;
  const identifier = input.username.trim();
  const isEmail = identifier.includes('@');
  // Names are stored NFKC-normalised, so a name typed in full-width or styled letters finds its account.
  const lookup = isEmail ? normalizeEmail(identifier) : normalizeName(identifier).toLowerCase();
  const user = isEmail ? await findUserByEmail(db, lookup) : lookup ? await findUserByUsernameLower(db, lookup) : undefined;
  // A name nobody has is locked like an account (same failures, same answers, a dummy hash to
  // check), so the lockout cannot tell which names are registered.
  const keys = loginKeys(user ? accountKey(user.id) : unknownNameKey(lookup), ip);
  const attempt = await beginAttempt(db, keys);
  if (!attempt) throw tooMany('login_timeout');
  const wrong = async () => {
    const locked = await Promise.all(keys.map((key) => isLocked(db, key)));
    return locked.includes(true) ? tooMany('login_timeout') : badRequest('invalid_credentials');
  };

  if (!user) {
    await burnPasswordCheck(input.password);
    throw await wrong();
  }
  if (!user.password_hash) {
    await forgiveAttempt(db, attempt);
    throw badRequest('login_google');
  }
  if (!(await verifyPassword(user.password_hash, input.password))) throw await wrong();
  await forgiveAttempt(db, attempt);
  return admitUser(contextOf(app, db), user, ip);
}

/**
 * The end of every sign-in that proved who the user is (a password, a passkey): an unverified
 * account gets verify_email (and a fresh link for whoever lost the first one, at most every few
 * minutes), any other a session, and the account's failed logins are forgotten (see
 * clearAccountFailures; `ip` is where a password was typed).
 */
export async function admitUser(ctx: ServiceContext, user: UserRecord, ip?: string): Promise<Session> {
  const { app, db } = ctx;
  if (!user.verified) {
    if (user.email) {
      const email = user.email;
      await inTransaction(db, async (trx) => {
        if (await tryTakeSlot(trx, verifyMailRule(user.id))) await enqueueAccountMail(trx, 'verify', user, email);
      });
    }
    throw forbidden('verify_email');
  }
  await clearAccountFailures(db, user.id, ip);
  return issueSession(app, user);
}

/** First name in candidates nobody holds; inserting it may still race, so callers retry. */
async function createGoogleUser({ db }: ServiceContext, identity: { sub: string; email: string | null; name: string | null }, language: Language): Promise<UserRecord> {
  for (const username of usernameCandidates(usernameBase(identity))) {
    const usernameLower = username.toLowerCase();
    if (await findNameHolder(db, username)) continue;
    const id = newId();
    try {
      await insertUser(db, {
        id,
        username,
        username_lower: usernameLower,
        username_skeleton: skeleton(username),
        email: identity.email,
        password_hash: null,
        google_sub: identity.sub,
        verified: true,
        language,
        search_text: foldForSearch(username),
        created_at: Date.now(),
      });
    } catch (err) {
      const column = uniqueViolation(err);
      if (column === 'username_lower') continue;
      // The same Google account signing in twice at once: the other request created it.
      if (column === 'google_sub') {
        const existing = await findUserByGoogleSub(db, identity.sub);
        if (existing) return existing;
      }
      if (column === 'email') throw conflict('email_used');
      throw err;
    }
    const created = await findUserById(db, id);
    if (created) return created;
  }
  throw conflict('username_taken');
}

/**
 * POST /auth/google: signs in with a Google ID token. An unknown Google account gets a
 * new verified account without a password, unless an account already has the address Google
 * vouches for: that account is linked. A new account accepts the instance's rules as a sign-up by
 * form does; an existing one is not asked again.
 */
export async function googleLogin(ctx: ServiceContext, input: { token: string; language: Language; acceptRules?: boolean | undefined }): Promise<Session> {
  const { app, db } = ctx;
  const identity = await verifyGoogleToken(app, input.token);
  const known = await findUserByGoogleSub(db, identity.sub);
  if (known) return issueSession(app, known);

  const holder = identity.email ? await findUserByEmail(db, identity.email) : undefined;
  if (holder) {
    if (holder.google_sub) throw conflict('email_used');
    // An unverified account's password was never proven to belong to the address's owner, who
    // is now signing in: drop it (and any session made with it) rather than hand it the account.
    const changes = holder.verified ? { google_sub: identity.sub } : { google_sub: identity.sub, verified: true, password_hash: null };
    // Google's answer came over the network first, so this transaction is the service's own.
    await inTransaction(db, async (trx) => {
      await updateUser(trx, holder.id, changes);
      if (!holder.verified) await revokeTokens(trx, holder.id);
    });
    const linked = await findUserById(db, holder.id);
    if (!linked) throw badRequest('google_failed');
    return issueSession(app, linked);
  }
  // A new account by Google brings no reason and no invite: only open sign-ups make one.
  const { mode } = await registrationSettings(db, app.config);
  if (mode === 'closed') throw forbidden('registrations_closed');
  if (mode !== 'open') throw forbidden('google_signup_closed');
  await requireRulesAccepted(db, input.acceptRules);
  return issueSession(app, await createGoogleUser(ctx, identity, input.language));
}

/**
 * POST /auth/forgot: the same answer whether or not the address has an account. A Google account
 * is told to sign in with Google instead; either mail at most once a minute. Runs on the route's
 * transaction.
 */
export async function forgotPassword(ctx: ServiceContext, input: string): Promise<void> {
  const email = checkEmail(input);
  await takeSlot(ctx.db, resetMailRule(email), 'reset_wait');
  const user = await findUserByEmail(ctx.db, email);
  if (!user) return;
  const kind = isGoogleOnlyAccount(user) ? 'google_account' : 'reset_password';
  await enqueueAccountMail(ctx.db, kind, user, email);
}

/** POST /auth/reset/check: whether a reset link still works, so a used one is not offered a form. */
export async function checkResetLink(ctx: ServiceContext, input: { token: string; email?: string | undefined }): Promise<void> {
  if (!(await findValidEmailToken(ctx.db, input.token, ['reset_password'], input.email || undefined))) throw badRequest('invalid_link');
}

/**
 * POST /auth/resend-verification: a fresh link for an account still waiting on its address, and
 * the same answer for any other address. Both counts are taken before the account is looked up,
 * so a refusal says nothing about who has the address either.
 */
export async function resendVerification(ctx: ServiceContext, input: { email?: string | undefined; username?: string | undefined; ip: string }): Promise<void> {
  const { app } = ctx;
  // A login tried with a name asks by that name: the mail goes to the account's own address.
  const byName = !input.email && input.username ? input.username.trim().toLowerCase() : null;
  const email = byName === null ? checkEmail(input.email ?? '') : null;
  const { verificationMailsPerClientPerHour, verificationMailsPerAddressPerHour, windowMs } = app.config.rates;
  await inTransaction(ctx.db, async (trx) => {
    await takeSlot(trx, { key: `verify-resend:client:${input.ip}`, max: verificationMailsPerClientPerHour, windowMs }, 'verification_limit');
    const subject = email === null ? `name:${byName}` : `email:${email}`;
    await takeSlot(trx, { key: `verify-resend:${subject}`, max: verificationMailsPerAddressPerHour, windowMs }, 'verification_limit');
    const user = email === null ? await findUserByUsernameLower(trx, byName ?? '') : await findUserByEmail(trx, email);
    if (user?.email && !user.verified) await enqueueAccountMail(trx, 'verify', user, user.email);
  });
}

/** A new password ends every earlier session and every reset link still out. */
export async function replacePassword(db: Executor, userId: string, hash: string, extra: UserChanges = {}): Promise<void> {
  await setPasswordHash(db, userId, hash, extra);
  await deleteUserEmailTokens(db, userId, 'reset_password');
  // A sign-up's key stood for the password it was made with.
  await deleteUserEmailTokens(db, userId, 'signup_login');
}

/** POST /auth/reset: a new password from a reset link; every earlier session ends. Hashed before the transaction, as signup. */
export async function resetPassword(ctx: ServiceContext, input: { token: string; email?: string | undefined; password: string }): Promise<void> {
  checkPassword(input.password);
  const email = input.email || undefined;
  // Checked before hashing, so a wrong link costs no hash; checked again when used.
  const link = await findValidEmailToken(ctx.db, input.token, ['reset_password'], email);
  if (!link) throw badRequest('invalid_link');
  const hash = await hashPassword(input.password);
  await inTransaction(ctx.db, async (trx) => {
    const used = await consumeEmailToken(trx, input.token, ['reset_password'], email);
    if (!used) throw badRequest('invalid_link');
    const user = await findUserById(trx, used.user_id);
    if (!user) throw badRequest('invalid_link');
    if (isGoogleOnlyAccount(user)) throw badRequest('login_google');
    // A link sent to an address the account no longer has proves nothing.
    if (user.email !== used.email) throw badRequest('invalid_link');
    // Opening the link proved the address, so an unverified account becomes verified.
    await replacePassword(trx, user.id, hash, { verified: true });
    await clearAccountFailures(trx, user.id);
  });
}

/** The account's standing, written by moderation (suspension) and by `npm run admin` (the moderator role). */
export { setRoleByName, setSuspended, suspendUnsuspended, unsuspendAll } from './auth.repository.js';

/** The accounts other servers' actors are shown as, written by modules/remote as it reads them. */
export { insertRemoteUser, renameRemoteUser } from './auth.repository.js';
/** A users row read with another table's (a token's) as the session's account reads it. */
export { toRecord as asAccountRecord } from './auth.repository.js';
