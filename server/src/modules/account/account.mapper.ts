import { DEFAULT_NOTIFICATION_SETTINGS, NOTIFICATION_SETTINGS } from '#core/limits';
import type { UserRow } from '../../db/schema';
import { isGoogleAccount } from '../auth/auth.mapper';
import { avatarUrl } from '../media/media-urls';

export interface AccountView {
  _id: string;
  username: string;
  email: string | null;
  bio: string;
  /** The user id: the avatar key and the id follow calls take. */
  pfp: string;
  /** The avatar's URL at its current version. */
  pfpUrl: string;
  /** Epoch milliseconds. */
  createdAt: number;
  isGoogle: boolean;
  language: string;
  notifications: boolean[];
}

/** The stored switches, one per NOTIFICATION_SETTINGS entry; anything unreadable counts as on. */
export function notificationSettingsOf(row: Pick<UserRow, 'notification_settings'>): boolean[] {
  let stored: unknown;
  try {
    stored = JSON.parse(row.notification_settings);
  } catch {
    stored = null;
  }
  const list = Array.isArray(stored) ? stored : [];
  return NOTIFICATION_SETTINGS.map((_, i) => (typeof list[i] === 'boolean' ? list[i] : DEFAULT_NOTIFICATION_SETTINGS[i]!));
}

export function toAccount(row: UserRow): AccountView {
  return {
    _id: row.id,
    username: row.username,
    email: row.email,
    bio: row.bio,
    pfp: row.id,
    pfpUrl: avatarUrl('pfp', row.id, Number(row.pfp_version)),
    createdAt: Number(row.created_at),
    isGoogle: isGoogleAccount(row),
    language: row.language,
    notifications: notificationSettingsOf(row),
  };
}
