import { type Account, type DeleteAccountBody, type DiscoveryBody, accountApi } from '#core/api/account';
import { mediaApi } from '#core/api/media';
import { type DownloadedFile, callApi, downloadApi } from '../../lib/api/client';
import type { KruhDb } from '../../lib/db/db';
import { type StoredAccount, patchStoredAccount, readStoredAccount, storeAccount } from '../../lib/stored-account';

export type { Account, StoredAccount };
export { patchStoredAccount, readStoredAccount };


export async function fetchAccount(db: KruhDb, signal?: AbortSignal): Promise<Account> {
  const { user } = await callApi(accountApi.get, {}, { signal });
  await storeAccount(db, user);
  return user;
}

export const changeBio = (bio: string) => callApi(accountApi.changeBio, { body: { bio } });

export const changeUsername = (newUsername: string) => callApi(accountApi.changeUsername, { body: { newUsername } });

export const changeEmail = (email: string, password: string) => callApi(accountApi.changeEmail, { body: { email, password } });

/** PATCH /account/discovery: whether fediverse servers may list the account and search its posts. */
export const changeDiscovery = (body: DiscoveryBody) => callApi(accountApi.changeDiscovery, { body });

export const changePassword = (oldPassword: string, newPassword: string) =>
  callApi(accountApi.changePassword, { body: { oldPassword, newPassword } });

/** DELETE /account/delete, proved by the password, or for an account without one (Google's) by the username typed out. */
export const deleteAccount = (proof: DeleteAccountBody) => callApi(accountApi.delete, { body: proof });

/** GET /account/export: the zip of the account's data, `onProgress` told the bytes received as they arrive. */
export const downloadAccountData = (onProgress: (received: number, total: number | null) => void): Promise<DownloadedFile> =>
  downloadApi(accountApi.export, {}, { onProgress });

/** POST /upload/pfp, multipart with the picture under `pfp`. */
export function uploadProfilePicture(file: Blob, name = 'pfp') {
  const form = new FormData();
  form.append('pfp', file, name);
  return callApi(mediaApi.uploadPfp, {}, { formData: form });
}

/** Where the notification settings are kept, so the page reads them offline once seen. */
export const NOTIFICATION_SETTINGS_META_KEY = 'notification-settings';

export async function fetchNotificationSettings(db: KruhDb, signal?: AbortSignal): Promise<boolean[]> {
  const reply = await callApi(accountApi.notificationSettings, {}, { signal });
  await db.meta.put({ key: NOTIFICATION_SETTINGS_META_KEY, value: reply.notifications });
  return reply.notifications;
}

/** Saves the whole list; what the server kept replaces the stored copies (settings and account). */
export async function saveNotificationSettings(db: KruhDb, newSettings: boolean[]): Promise<boolean[]> {
  const reply = await callApi(accountApi.changeNotificationSettings, { body: { newSettings } });
  const saved = reply.notifications ?? newSettings;
  await db.meta.put({ key: NOTIFICATION_SETTINGS_META_KEY, value: saved });
  await patchStoredAccount(db, { notifications: saved });
  return saved;
}
