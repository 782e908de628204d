import { Type } from '@sinclair/typebox';
import { NOTIFICATION_SETTINGS } from '#core/limits';

export const BioBody = Type.Object({ bio: Type.String() });

export const UsernameBody = Type.Object({ newUsername: Type.String() });

export const EmailBody = Type.Object({
  email: Type.String(),
  /** The current password. */
  password: Type.Optional(Type.String()),
});

export const PasswordBody = Type.Object({
  oldPassword: Type.Optional(Type.String()),
  newPassword: Type.String(),
});

export const LanguageBody = Type.Object({ language: Type.Union([Type.Literal('en'), Type.Literal('cs')]) });

/** One switch per type, in the order of NOTIFICATION_SETTINGS. */
export const NotificationSettingsSchema = Type.Array(Type.Boolean(), {
  minItems: NOTIFICATION_SETTINGS.length,
  maxItems: NOTIFICATION_SETTINGS.length,
});

export const NotificationSettingsBody = Type.Object({ newSettings: NotificationSettingsSchema });

export const NotificationSettingsReply = Type.Object({
  message: Type.Optional(Type.String()),
  notifications: NotificationSettingsSchema,
});

export const AccountSchema = Type.Object({
  _id: Type.String(),
  username: Type.String(),
  email: Type.Union([Type.String(), Type.Null()]),
  bio: Type.String(),
  pfp: Type.String(),
  pfpUrl: Type.String(),
  createdAt: Type.Number(),
  isGoogle: Type.Boolean(),
  language: Type.String(),
  notifications: NotificationSettingsSchema,
});

export const AccountReply = Type.Object({ user: AccountSchema });

export const UsernameReply = Type.Object({ message: Type.String(), username: Type.String() });

export const LanguageReply = Type.Object({ message: Type.String(), language: Type.String() });
