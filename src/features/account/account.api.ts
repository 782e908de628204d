import { apiFetch } from '../../lib/api/client';
import type { KruhDb } from '../../lib/db/db';
import type { Language } from '../../lib/i18n';

/** The caller's own account as POST /account/get sends it. */
export interface Account {
  _id: string;
  username: string;
  email: string | null;
  bio: string;
  /** The user id: the avatar key. */
  pfp: string;
  /** The avatar at its version (absent from copies stored before the server sent it). */
  pfpUrl?: string;
  createdAt: number;
  isGoogle: boolean;
  language: string;
  notifications: boolean[];
}

/** Where the last answer is kept, so the account screens paint offline. */
export const ACCOUNT_META_KEY = 'account';

export async function readStoredAccount(db: KruhDb): Promise<Account | null> {
  const row = await db.meta.get(ACCOUNT_META_KEY);
  return (row?.value as Account | undefined) ?? null;
}

export async function storeAccount(db: KruhDb, account: Account): Promise<void> {
  await db.meta.put({ key: ACCOUNT_META_KEY, value: account });
}

/** Changes a few fields of the stored account after a call the server accepted. */
export async function patchStoredAccount(db: KruhDb, change: Partial<Account>): Promise<void> {
  await db.transaction('rw', db.meta, async () => {
    const current = await readStoredAccount(db);
    if (current) await storeAccount(db, { ...current, ...change });
  });
}

export async function fetchAccount(db: KruhDb, signal?: AbortSignal): Promise<Account> {
  const { user } = await apiFetch<{ user: Account }>('/account/get', { method: 'POST', signal });
  await storeAccount(db, user);
  return user;
}

interface MessageReply {
  message?: string;
}

export const changeBio = (bio: string) => apiFetch<MessageReply>('/account/changebio', { method: 'PATCH', body: { bio } });

export const changeUsername = (newUsername: string) =>
  apiFetch<MessageReply & { username?: string }>('/account/changeusername', { method: 'PATCH', body: { newUsername } });

export const changeEmail = (email: string, password: string) =>
  apiFetch<MessageReply>('/account/changeemail', { method: 'PATCH', body: { email, password } });

export const changePassword = (oldPassword: string, newPassword: string) =>
  apiFetch<MessageReply>('/account/changepassword', { method: 'PATCH', body: { oldPassword, newPassword } });

export const changeLanguage = (language: Language) =>
  apiFetch<MessageReply>('/account/language', { method: 'PATCH', body: { language } });

export const deleteAccount = () => apiFetch<MessageReply>('/account/delete', { method: 'DELETE' });

/** POST /upload/pfp, multipart with the picture under `pfp`. */
export function uploadProfilePicture(file: Blob, name = 'pfp'): Promise<MessageReply & { url?: string }> {
  const form = new FormData();
  form.append('pfp', file, name);
  return apiFetch('/upload/pfp', { method: 'POST', formData: form });
}

export async function fetchNotificationSettings(signal?: AbortSignal): Promise<boolean[]> {
  const reply = await apiFetch<{ notifications: boolean[] }>('/account/notifications', { method: 'POST', signal });
  return reply.notifications;
}

export async function saveNotificationSettings(newSettings: boolean[]): Promise<boolean[]> {
  const reply = await apiFetch<{ notifications: boolean[] }>('/account/notifications', { method: 'PATCH', body: { newSettings } });
  return reply.notifications ?? newSettings;
}
