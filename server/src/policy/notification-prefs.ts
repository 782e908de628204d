import { DEFAULT_NOTIFICATION_SETTINGS, NOTIFICATION_SETTINGS, type NotificationSettings } from '#core/limits';

/**
 * The account's notification switches as stored in `users.notification_settings`: a JSON list of
 * booleans in NOTIFICATION_SETTINGS order. The account screen and the fan-out both read them
 * through here, so what the user sees switched on is what they get.
 */

export type NotificationSetting = (typeof NOTIFICATION_SETTINGS)[number];

/**
 * The stored switches, one per NOTIFICATION_SETTINGS entry. A switch the stored value does not
 * give as a boolean (a shorter list from an older release, a damaged entry, text that is not a
 * JSON list at all) takes its default, so a bad row never silences nor floods a user by accident.
 */
export function parseNotificationSettings(stored: string): NotificationSettings {
  const list = storedList(stored);
  return NOTIFICATION_SETTINGS.map((_, i) => {
    const value = list[i];
    return typeof value === 'boolean' ? value : DEFAULT_NOTIFICATION_SETTINGS[i]!;
  });
}

/** The stored JSON list, or the defaults when the text is not one. */
function storedList(stored: string): readonly unknown[] {
  try {
    const parsed: unknown = JSON.parse(stored);
    return Array.isArray(parsed) ? parsed : DEFAULT_NOTIFICATION_SETTINGS;
  } catch {
    return DEFAULT_NOTIFICATION_SETTINGS;
  }
}

/** The switches as they are stored. */
export const storedNotificationSettings = (settings: NotificationSettings): string => JSON.stringify(settings);

/**
 * Whether the recipient wants notifications of this kind. No settings means no such user (the
 * account went after the event was queued): nobody is left to notify.
 */
export function wants(settings: NotificationSettings | undefined, setting: NotificationSetting): boolean {
  return settings !== undefined && settings[NOTIFICATION_SETTINGS.indexOf(setting)] === true;
}
