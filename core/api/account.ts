import { type Static, Type } from '@sinclair/typebox';
import { NOTIFICATION_SETTINGS } from '../limits.js';
import { PASSWORD_ERRORS, USERNAME_ERRORS } from './auth.js';
import { MessageReplies, messageWith } from './common.js';
import { endpoint, plainEntry } from './endpoint.js';

/** The languages of the app: of the interface, the emails and the notifications. */
export const Language = Type.Union([Type.Literal('en'), Type.Literal('cs')]);
export type Language = Static<typeof Language>;

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

/**
 * What proves the caller wants the account gone: its password, or for an account without one
 * (signed up with Google) its username typed out.
 */
export const DeleteAccountFields = Type.Object({
  password: Type.Optional(Type.String()),
  username: Type.Optional(Type.String()),
});
/** Optional (as LikeBody), so a call without a session is answered no_token, not refused for its body. */
export const DeleteAccountBody = Type.Optional(Type.Union([DeleteAccountFields, Type.Null()]));
export type DeleteAccountBody = Static<typeof DeleteAccountFields>;

export const LanguageBody = Type.Object({ language: Language });

/** One switch per type, in the order of NOTIFICATION_SETTINGS. */
export const NotificationSettings = Type.Array(Type.Boolean(), {
  minItems: NOTIFICATION_SETTINGS.length,
  maxItems: NOTIFICATION_SETTINGS.length,
});

export const NotificationSettingsBody = Type.Object({ newSettings: NotificationSettings });

/** The switches as stored; a change also answers its message. */
export const NotificationSettingsReply = Type.Object({
  message: Type.Optional(Type.String()),
  notifications: NotificationSettings,
});
export type NotificationSettingsReply = Static<typeof NotificationSettingsReply>;

/**
 * How the account shows on other fediverse servers (its actor's `discoverable` and `indexable`):
 * listed in their directories, its posts in their search. Both on for a new account, since all it
 * writes outside a private group is public anyway; a field left out keeps its value.
 */
const Discovery = { discoverable: Type.Boolean(), indexable: Type.Boolean() };
export const DiscoveryBody = Type.Partial(Type.Object(Discovery));
export type DiscoveryBody = Static<typeof DiscoveryBody>;

/** The caller's own account. */
export const Account = Type.Object({
  _id: Type.String(),
  username: Type.String(),
  /** Null for a Google account Google gave no verified address for. */
  email: Type.Union([Type.String(), Type.Null()]),
  bio: Type.String(),
  /** The user id: the avatar key and the id follow calls take. */
  pfp: Type.String(),
  /** The avatar's URL at its current version. */
  pfpUrl: Type.String(),
  /** Epoch milliseconds. */
  createdAt: Type.Number(),
  /** Has no password: signs in through Google only and manages neither email nor password here. */
  isGoogle: Type.Boolean(),
  language: Type.String(),
  notifications: NotificationSettings,
  /** An instance moderator: the app shows the moderation screen. */
  moderator: Type.Optional(Type.Boolean()),
  /**
   * Whether fediverse servers may list the account in their directories (`discoverable`) and put
   * its posts in their search (`indexable`), as DiscoveryBody sets them. Always sent; optional for
   * an account a client stored before they existed (both were on then).
   */
  ...DiscoveryBody.properties,
});
export type Account = Static<typeof Account>;

export const DiscoveryReply = messageWith(Discovery);
export type DiscoveryReply = Static<typeof DiscoveryReply>;

export const AccountReply = Type.Object({ user: Account });
export type AccountReply = Static<typeof AccountReply>;

/** The name as stored (normalised), which may differ from the one typed. */
export const UsernameReply = messageWith({ username: Type.String() });
export type UsernameReply = Static<typeof UsernameReply>;

export const LanguageReply = messageWith({ language: Type.String() });
export type LanguageReply = Static<typeof LanguageReply>;

/**
 * The caller's data as a zip (application/zip), streamed as it is written: JSON files of the
 * account, posts, comments, likes, follows, groups and notification settings, the avatar and the
 * images of the caller's own posts and comments, and a README.txt that explains each file. Sent
 * as bytes, never serialised from this schema.
 */
export const AccountExport = Type.Unsafe<Uint8Array>({
  type: 'string',
  contentMediaType: 'application/zip',
  description: "A zip of the caller's data, with a README.txt that explains each file",
});

/** The account calls of the API (see endpoint.ts for how an entry is read); each acts on the caller's own account. */
export const accountApi = {
  get: plainEntry('POST', '/account/get', "The caller's account", AccountReply),
  changeBio: endpoint({
    method: 'PATCH',
    path: '/account/changebio',
    summary: "Change the caller's bio",
    body: BioBody,
    replies: MessageReplies,
    invalidKey: 'max_bio_length',
    errors: ['max_bio_length', 'max_bio_lines'],
  }),
  changeUsername: endpoint({
    method: 'PATCH',
    path: '/account/changeusername',
    summary: "Change the caller's username",
    body: UsernameBody,
    replies: { 200: UsernameReply },
    invalidKey: 'new_username',
    errors: [...USERNAME_ERRORS, 'username_taken'],
  }),
  changeEmail: endpoint({
    method: 'PATCH',
    path: '/account/changeemail',
    summary: 'Start an address change: a link to the new address confirms it',
    body: EmailBody,
    replies: MessageReplies,
    invalidKey: 'invalid_email',
    errors: ['login_google', 'invalid_email', 'using_email', 'invalid_credentials', 'login_timeout', 'email_used', 'email_limit'],
  }),
  changePassword: endpoint({
    method: 'PATCH',
    path: '/account/changepassword',
    summary: "Change the caller's password, ending every earlier session",
    body: PasswordBody,
    replies: MessageReplies,
    invalidKey: 'new_password',
    errors: ['login_google', ...PASSWORD_ERRORS, 'invalid_credentials', 'login_timeout'],
  }),
  changeLanguage: endpoint({
    method: 'PATCH',
    path: '/account/language',
    summary: "Change the language of the caller's emails and notifications",
    body: LanguageBody,
    replies: { 200: LanguageReply },
    invalidKey: 'invalid_settings',
    errors: [],
  }),
  changeDiscovery: endpoint({
    method: 'PATCH',
    path: '/account/discovery',
    summary: 'Change whether fediverse servers may list the caller and search their posts',
    body: DiscoveryBody,
    replies: { 200: DiscoveryReply },
    invalidKey: 'invalid_settings',
    errors: [],
  }),
  notificationSettings: plainEntry('POST', '/account/notifications', "The caller's notification switches", NotificationSettingsReply),
  changeNotificationSettings: endpoint({
    method: 'PATCH',
    path: '/account/notifications',
    summary: "Change the caller's notification switches",
    body: NotificationSettingsBody,
    replies: { 200: NotificationSettingsReply },
    invalidKey: 'invalid_settings',
    errors: ['invalid_settings'],
  }),
  export: endpoint({
    method: 'GET',
    path: '/account/export',
    summary: "Download the caller's data as a zip",
    description:
      'A zip of JSON files (account, posts, comments, likes, follows, groups, notification settings, and the ' +
      'names and dates of its passkeys and push devices without their keys), the ' +
      "avatar and the images of the caller's own posts and comments, and a README.txt. Liked posts and " +
      'comments of others carry their content only while the caller may see them; posts of others in a ' +
      'private group the caller is not a member of, or across a block either way, appear by id alone. A few ' +
      'exports an hour (export_limit); a server sends only a few at once, and refuses one more with ' +
      'Retry-After (export_busy).',
    replies: { 200: AccountExport },
    errors: ['export_limit', 'export_busy'],
  }),
  delete: endpoint({
    method: 'DELETE',
    path: '/account/delete',
    summary: "Delete the caller's account (owned groups pass to a successor or go)",
    description:
      'An account with a password sends it as `password` (`wrong_password` otherwise); an account ' +
      'without one (signed up with Google) sends its username as `username`, in any case (`wrong_username` otherwise).',
    body: DeleteAccountBody,
    replies: MessageReplies,
    invalidKey: 'wrong_password',
    errors: ['wrong_password', 'wrong_username', 'login_timeout'],
  }),
} as const;
