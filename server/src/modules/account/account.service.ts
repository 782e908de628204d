import type { FastifyInstance } from 'fastify';
import { NOTIFICATION_SETTINGS } from '#core/limits';
import { foldForSearch } from '#core/text';
import { validateBio } from '#core/validation';
import { badRequest, conflict } from '../../lib/app-error';
import { verifyPassword, hashPassword } from '../../lib/passwords';
import type { Viewer } from '../../plugins/auth';
import { appLink, sendAccountMail } from '../auth/auth.emails';
import { isGoogleAccount } from '../auth/auth.mapper';
import { findUserByEmail, findUserById, findUserByUsernameLower, setPasswordHash, updateUser } from '../auth/auth.repository';
import { type Language, checkEmail, checkPassword, checkUsername, takenError } from '../auth/auth.service';
import { issueEmailToken } from '../auth/email-tokens';
import { accountKey } from '../auth/login-lockout';
import { avatarKey } from '../media/media-urls';
import { type AccountView, notificationSettingsOf, toAccount } from './account.mapper';
import { deleteUserCascade, ownedGroupIds, setNotificationSettings } from './account.repository';

/** Account management (001 §7 Account): every call acts on the caller's own account. */

export function getAccount(viewer: Viewer): AccountView {
  return toAccount(viewer.user);
}

export async function changeBio(app: FastifyInstance, viewer: Viewer, bio: string): Promise<void> {
  const problem = validateBio(bio);
  if (problem) throw badRequest(problem);
  await updateUser(app.db, viewer.id, { bio });
}

/** A new name under the shared rules; another account's name in any case is taken. */
export async function changeUsername(app: FastifyInstance, viewer: Viewer, input: string): Promise<string> {
  const username = checkUsername(input);
  const usernameLower = username.toLowerCase();
  const holder = await findUserByUsernameLower(app.db, usernameLower);
  if (holder && holder.id !== viewer.id) throw conflict('username_taken');
  try {
    await updateUser(app.db, viewer.id, { username, username_lower: usernameLower, search_text: foldForSearch(username) });
  } catch (err) {
    throw takenError(err);
  }
  return username;
}

/**
 * Starts an address change: the current password proves the caller, and a link to the new
 * address proves that address. The account keeps its old address until the link is opened.
 */
export async function changeEmail(app: FastifyInstance, viewer: Viewer, input: { email: string; password: string }): Promise<void> {
  const user = viewer.user;
  if (isGoogleAccount(user) || !user.password_hash) throw badRequest('login_google');
  const email = checkEmail(input.email);
  if (email === user.email) throw badRequest('using_email');
  if (!(await verifyPassword(user.password_hash, input.password))) throw badRequest('invalid_credentials');
  if (await findUserByEmail(app.db, email)) throw conflict('email_used');
  const token = await issueEmailToken(app.db, user.id, 'change_email', email);
  await sendAccountMail(app, 'change_email', { email, username: user.username, language: user.language }, appLink(app, 'verify', token, email));
}

/** A new password; every token issued before stops working (the web app logs out, 001 §4). */
export async function changePassword(app: FastifyInstance, viewer: Viewer, input: { oldPassword: string; newPassword: string }): Promise<void> {
  const user = viewer.user;
  if (isGoogleAccount(user) || !user.password_hash) throw badRequest('login_google');
  checkPassword(input.newPassword);
  if (!(await verifyPassword(user.password_hash, input.oldPassword))) throw badRequest('invalid_credentials');
  await setPasswordHash(app.db, user.id, await hashPassword(input.newPassword));
}

export async function changeLanguage(app: FastifyInstance, viewer: Viewer, language: Language): Promise<void> {
  await updateUser(app.db, viewer.id, { language });
}

export function getNotificationSettings(viewer: Viewer): boolean[] {
  return notificationSettingsOf(viewer.user);
}

export async function changeNotificationSettings(app: FastifyInstance, viewer: Viewer, settings: boolean[]): Promise<boolean[]> {
  if (settings.length !== NOTIFICATION_SETTINGS.length || settings.some((s) => typeof s !== 'boolean')) {
    throw badRequest('invalid_settings');
  }
  await setNotificationSettings(app.db, viewer.id, settings);
  const user = await findUserById(app.db, viewer.id);
  return user ? notificationSettingsOf(user) : settings;
}

/**
 * Deletes the caller's account (001 §7 DELETE /account/delete). The rows go in one transaction;
 * the avatars (the user's and those of the groups that went with the account) are removed after,
 * since files cannot roll back.
 */
export async function deleteAccount(app: FastifyInstance, viewer: Viewer): Promise<void> {
  const groupIds = await app.db.transaction().execute(async (trx) => {
    const owned = await ownedGroupIds(trx, viewer.id);
    await deleteUserCascade(trx, viewer.id, accountKey(viewer.id));
    return owned;
  });
  try {
    await app.storage.remove([avatarKey('pfp', viewer.id), ...groupIds.map((id) => avatarKey('gp', id))]);
  } catch (err) {
    app.log.warn({ err, userId: viewer.id }, 'removing avatars of a deleted account failed');
  }
}
