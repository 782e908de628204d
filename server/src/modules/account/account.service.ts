import type { DeleteAccountBody, DiscoveryBody, Language } from '#core/api/account';
import { NOTIFICATION_SETTINGS } from '#core/limits';
import { foldForSearch, skeleton, trimText } from '#core/text';
import { validateBio } from '#core/validation';
import { inTransaction, toFlag } from '../../db/helpers.js';
import { badRequest, conflict } from '../../lib/app-error.js';
import { keysetPages } from '../../lib/paging.js';
import { takeSlot } from '../../lib/rate-limit.js';
import { hashPassword } from '../../lib/passwords.js';
import { publishEvent } from '../../lib/events/domain-events.js';
// Declares the events this module publishes.
import './account.events.js';
import type { ServiceContext } from '../../lib/service-context.js';
import type { Viewer } from '../../plugins/auth.js';
import { enqueueAccountMail } from '../auth/auth.emails.js';
import { safetyListsOf } from '../blocks/blocks.service.js';
import {
  checkEmail,
  checkPassword,
  checkUsername,
  findAccount,
  findAccountByEmail,
  findNameHolder,
  replacePassword,
  takenError,
  updateAccount,
} from '../auth/auth.service.js';
import { accountKey, checkOwnPassword } from '../auth/login-lockout.js';
import { commentImagesOfAuthor, commentsLikedBy, commentsWrittenBy } from '../comments/comments.service.js';
import { followEdgesOf } from '../follows/follows.service.js';
import { membershipsOf } from '../groups/memberships.js';
import { handOverGroupsOf } from '../groups/groups.service.js';
import { passkeysOf } from '../passkeys/passkeys.service.js';
import { avatarKey } from '../../policy/media-urls.js';
import type { AccountData } from './account.export.js';
import { postImagesOf, postsLikedBy, postsWrittenBy } from './post-export.js';
import { type AccountView, notificationSettingsOf, toAccount } from './account.mapper.js';
import { stagedUploadKeysOf } from '../media/staged-uploads.js';
import { deleteUserCascade, pushDevicesOf, setNotificationSettings } from './account.repository.js';

/** Account management: every call acts on the caller's own account. */

export function getAccount(_ctx: ServiceContext, viewer: Viewer): AccountView {
  return toAccount(viewer.user);
}

export async function changeBio(ctx: ServiceContext, viewer: Viewer, bio: string): Promise<void> {
  const problem = validateBio(bio);
  if (problem) throw badRequest(problem);
  // Stored as its length was measured: trimmed.
  await updateAccount(ctx.db, viewer.id, { bio: trimText(bio) });
}

/** A new name under the shared rules; another account's name in any case, or a look-alike of it, is taken. */
export async function changeUsername(ctx: ServiceContext, viewer: Viewer, input: string): Promise<string> {
  const username = checkUsername(input);
  const usernameLower = username.toLowerCase();
  const holder = await findNameHolder(ctx.db, username);
  if (holder && holder.id !== viewer.id) throw conflict('username_taken');
  try {
    await updateAccount(ctx.db, viewer.id, {
      username,
      username_lower: usernameLower,
      username_skeleton: skeleton(username),
      search_text: foldForSearch(username),
    });
  } catch (err) {
    throw takenError(err);
  }
  return username;
}

/**
 * Starts an address change: the current password proves the caller, and a link to the new
 * address proves that address. The account keeps its old address until the link is opened.
 * The password is checked before the slot's transaction (inTransaction joins the route's when it
 * opened one), so a slow hash never holds the database. The route opens none, so the slot of a
 * request answered email_used is committed before that answer is thrown.
 */
export async function changeEmail(ctx: ServiceContext, viewer: Viewer, input: { email: string; password: string }): Promise<void> {
  const user = viewer.user;
  if (!user.password_hash) throw badRequest('login_google');
  const email = checkEmail(input.email);
  if (email === user.email) throw badRequest('using_email');
  if (!(await checkOwnPassword(ctx.db, user.id, user.password_hash, input.password))) throw badRequest('invalid_credentials');
  // Each request mails a stranger's address, so a user may ask only a few times an hour. One
  // answered email_used counts too: it tells that the address has an account here, and a free
  // answer would let anyone with an account test addresses by the thousand.
  const rule = { key: `mail:change_email:${user.id}`, max: ctx.app.config.rates.emailChangesPerHour, windowMs: ctx.app.config.rates.windowMs };
  const used = await inTransaction(ctx.db, async (trx) => {
    await takeSlot(trx, rule, 'email_limit');
    if (await findAccountByEmail(trx, email)) return true;
    await enqueueAccountMail(trx, 'change_email', user, email);
    return false;
  });
  if (used) throw conflict('email_used');
}

/**
 * A new password; every token and reset link issued before stops working (the web app logs out).
 * Hashed before the transaction, as changeEmail.
 */
export async function changePassword(ctx: ServiceContext, viewer: Viewer, input: { oldPassword: string; newPassword: string }): Promise<void> {
  const user = viewer.user;
  if (!user.password_hash) throw badRequest('login_google');
  checkPassword(input.newPassword);
  if (!(await checkOwnPassword(ctx.db, user.id, user.password_hash, input.oldPassword))) throw badRequest('invalid_credentials');
  const hash = await hashPassword(input.newPassword);
  await inTransaction(ctx.db, (trx) => replacePassword(trx, user.id, hash));
}

export async function changeLanguage(ctx: ServiceContext, viewer: Viewer, language: Language): Promise<void> {
  await updateAccount(ctx.db, viewer.id, { language });
}

/** Whether fediverse servers may list the caller and search their posts; what is left out stays. */
export async function changeDiscovery(ctx: ServiceContext, viewer: Viewer, input: DiscoveryBody): Promise<{ discoverable: boolean; indexable: boolean }> {
  const current = toAccount(viewer.user);
  const chosen = { discoverable: input.discoverable ?? current.discoverable ?? true, indexable: input.indexable ?? current.indexable ?? true };
  await updateAccount(ctx.db, viewer.id, { discoverable: toFlag(chosen.discoverable), indexable: toFlag(chosen.indexable) });
  return chosen;
}

export function getNotificationSettings(_ctx: ServiceContext, viewer: Viewer): boolean[] {
  return notificationSettingsOf(viewer.user);
}

export async function changeNotificationSettings(ctx: ServiceContext, viewer: Viewer, settings: boolean[]): Promise<boolean[]> {
  if (settings.length !== NOTIFICATION_SETTINGS.length || settings.some((s) => typeof s !== 'boolean')) {
    throw badRequest('invalid_settings');
  }
  await setNotificationSettings(ctx.db, viewer.id, settings);
  const user = await findAccount(ctx.db, viewer.id);
  return user ? notificationSettingsOf(user) : settings;
}

/**
 * What the data export holds (GET /account/export), each part read through the module that owns
 * its tables. An export reads every row and image of the account, so a user may ask only a few
 * times an hour; the slot is taken first, so a refused export reads nothing. The short parts are
 * read here, before the answer starts (a failure is still an ordinary error answer); the long lists
 * are read a page at a time while the zip is written (see accountZip).
 */
export async function gatherExport(ctx: ServiceContext, viewer: Viewer): Promise<AccountData> {
  const rule = { key: `export:${viewer.id}`, max: ctx.app.config.rates.exportsPerHour, windowMs: ctx.app.config.rates.windowMs };
  await takeSlot(ctx.db, rule, 'export_limit');
  const db = ctx.db;
  const userId = viewer.id;
  const [user, follows, groups, passkeys, pushDevices, safety] = await Promise.all([
    findAccount(db, userId),
    followEdgesOf(db, userId),
    membershipsOf(db, userId),
    passkeysOf(db, userId),
    pushDevicesOf(db, userId),
    safetyListsOf(db, userId),
  ]);
  const size = ctx.app.config.exportPageSize;
  const written = (row: { id: string; createdAt: number }) => ({ at: row.createdAt, id: row.id });
  return {
    user: user ?? viewer.user,
    posts: () => keysetPages((page) => postsWrittenBy(db, userId, page), written, size),
    comments: () => keysetPages((page) => commentsWrittenBy(db, userId, page), written, size),
    likedPosts: () => keysetPages((page) => postsLikedBy(db, userId, page), (like) => ({ at: like.likedAt, id: like.postId }), size),
    likedComments: () => keysetPages((page) => commentsLikedBy(db, userId, page), (like) => ({ at: like.likedAt, id: like.commentId }), size),
    postImages: () => keysetPages((page) => postImagesOf(db, userId, page), written, size),
    commentImages: () => keysetPages((page) => commentImagesOfAuthor(db, userId, page), written, size),
    follows,
    groups,
    passkeys,
    pushDevices,
    safety,
  };
}

/**
 * Whether the request to delete the account proves the caller means it: the account's password,
 * or, for an account without one (Google's), its username typed out (in any case). Checked before
 * the deletion's transaction, as changeEmail, so a slow hash never holds the database.
 */
export async function confirmDeletion(ctx: ServiceContext, viewer: Viewer, input: DeleteAccountBody | null | undefined): Promise<void> {
  const { password = '', username = '' } = input ?? {};
  const user = viewer.user;
  if (!user.password_hash) {
    if (username.trim().toLowerCase() !== user.username.toLowerCase()) throw badRequest('wrong_username');
    return;
  }
  if (!(await checkOwnPassword(ctx.db, user.id, user.password_hash, password))) throw badRequest('wrong_password');
}

/**
 * Deletes the caller's account (DELETE /account/delete) on the route's transaction. Groups it owns
 * pass to a successor first, or go the way their owner would delete them: the account's deletion
 * never publishes a private group's posts. Answers the keys of the files to remove once the
 * transaction committed (removeAccountFiles), since files cannot roll back.
 */
export async function deleteAccount(ctx: ServiceContext, viewer: Viewer): Promise<string[]> {
  const groupKeys = await handOverGroupsOf(ctx, viewer.id);
  const uploadKeys = await stagedUploadKeysOf(ctx.db, viewer.id);
  await publishEvent(ctx, 'account.deleting', { userId: viewer.id });
  await deleteUserCascade(ctx.db, viewer.id, accountKey(viewer.id));
  return [...groupKeys, ...uploadKeys];
}

/**
 * After deleteAccount committed: the user's avatar, the avatars and private media of groups that
 * went, and the pictures the user's apps uploaded.
 */
export async function removeAccountFiles(ctx: ServiceContext, viewer: Viewer, keys: string[]): Promise<void> {
  try {
    await ctx.app.storage.remove([avatarKey('pfp', viewer.id), ...keys]);
  } catch (err) {
    ctx.app.log.warn({ err, userId: viewer.id }, 'removing files of a deleted account failed');
  }
}
