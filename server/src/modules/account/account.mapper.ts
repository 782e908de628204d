import type { Account } from '#core/api/account';
import type { NotificationSettings } from '#core/limits';
import type { UserRow } from '../../db/schema.js';
import type { UserRecord } from '../auth/auth.records.js';
import { isGoogleOnlyAccount } from '../auth/auth.mapper.js';
import { avatarUrl } from '../../policy/media-urls.js';
import { parseNotificationSettings } from '../../policy/notification-prefs.js';

/** The caller's own account as the contract describes it. */
export type AccountView = Account;

/** The account's notification switches, read by the same rules the notifications obey. */
export function notificationSettingsOf(row: Pick<UserRow, 'notification_settings'>): NotificationSettings {
  return parseNotificationSettings(row.notification_settings);
}

export function toAccount(row: UserRecord): AccountView {
  return {
    _id: row.id,
    username: row.username,
    email: row.email,
    bio: row.bio,
    pfp: row.id,
    pfpUrl: avatarUrl('pfp', row.id, Number(row.pfp_version)),
    createdAt: Number(row.created_at),
    isGoogle: isGoogleOnlyAccount(row),
    language: row.language,
    notifications: notificationSettingsOf(row),
    moderator: row.role === 'moderator',
    discoverable: Number(row.discoverable) !== 0,
    indexable: Number(row.indexable) !== 0,
  };
}
