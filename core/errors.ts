/**
 * The spec's message catalogue: the one closed list of `error/...` and `info/...`
 * keys. The server answers with them, the web app translates them, and the locale files are checked
 * against them, so a key is added here or nowhere.
 */
export const ERROR_KEYS = [
  // Validation
  'username_at', 'group_and', 'new_username', 'min_username_length', 'max_username_length',
  'username_profanity', 'new_groupname', 'min_groupname_length', 'max_groupname_length',
  'groupname_profanity', 'new_password', 'password_spaces', 'password_invalid',
  'min_password_length', 'max_password_length', 'blank_post', 'max_post_length', 'max_post_lines',
  'blank_comment', 'max_comment_length', 'max_comment_lines', 'max_bio_length', 'max_bio_lines',
  'max_desc_length', 'max_desc_lines', 'passwords_dont_match',
  // Auth and account
  'no_token', 'invalid_token', 'login_timeout', 'server_error', 'username_taken', 'user_not_found',
  'invalid_credentials', 'invalid_email', 'using_email', 'email_used', 'invalid_link', 'login_google',
  'verify_email', 'google_failed',
  // Posts, comments and follows
  'invalid_parent', 'comment_limit', 'invalid_comment', 'comment_not_found', 'not_author',
  'invalid_following_id', 'trying_to_follow', 'follow_yourself', 'mentions_up_to', 'groups_up_to',
  // Groups
  'max_groups', 'didnt_find_group', 'invalid_id', 'invalid_group_id', 'no_group_name', 'no_group_id',
  'need_admin', 'groupname_taken', 'not_member', 'no_pinned', 'didnt_find_pinned', 'admin_banned',
  'invalid_post', 'invalid_group', 'didnt_find_post', 'banned', 'need_request', 'no_request',
  'already_member', 'already_requested', 'admin_accept', 'user_banned', 'user_member',
  'hasnt_requested', 'admin_admin', 'isnt_member', 'already_admin', 'isnt_admin', 'admin_pin',
  'admin_ban', 'ban_owner', 'didnt_find_user', 'already_banned', 'not_banned', 'owner_delete',
  // Client-side
  'while_loading', 'original_post', 'posting_failed', 'wait_media', 'loading_failed',
  'singup_failed', 'post_deleted', 'no_group',
  // Uploads: a file that is not a decodable image, or one over the size limits.
  'only_images', 'image_too_large',
  // Account settings (language, notification switches) that are not one of the allowed values.
  'invalid_settings',
  // GIF picker: a search over LIMITS.gifQueryMax, GIFs switched off or the GIF service failing, an unknown GIF.
  'max_gif_query_length', 'gifs_unavailable', 'gif_not_found',
  // Requests the server cannot take: an unknown API path, a path or body over the size limits,
  // text holding characters no person types (NUL, control, invisible), an Idempotency-Key reused
  // for another call.
  'not_found', 'uri_too_long', 'request_too_large', 'invalid_characters', 'idempotency_mismatch',
  // Names holding invisible, control or direction-changing characters; a group name shaped like an id.
  'username_characters', 'groupname_characters', 'groupname_reserved',
  // Group ownership: calls only the owner may make (transfer, privacy).
  'need_owner',
  // Abuse limits, counted in the database over a sliding window.
  'post_limit', 'signup_limit', 'email_limit', 'mention_limit', 'group_action_limit',
] as const;

export type ErrorKey = (typeof ERROR_KEYS)[number];

export const INFO_KEYS = [
  'account_updated', 'email_send', 'bio_updated', 'account_deleted', 'signup_email', 'email_verified',
  'comment_deleted', 'created_group', 'group_updated', 'post_removed', 'you_left', 'joined_group',
  'request_send', 'request_accepted', 'request_denied', 'made_admin', 'revoked_admin', 'post_pinned',
  'post_unpinned', 'user_banned', 'user_unbanned', 'group_deleted',
  // Beyond the spec: the forgotten-password flow and post deletion confirmations.
  'password_reset_sent', 'password_changed', 'post_deleted', 'unfollowed', 'followed',
  'notification_deleted', 'notifications_cleared', 'settings_updated', 'left_group',
  'image_uploaded', 'owner_transferred',
] as const;

export type InfoKey = (typeof INFO_KEYS)[number];

export const errorMessage = (key: ErrorKey): `error/${ErrorKey}` => `error/${key}`;
export const infoMessage = (key: InfoKey): `info/${InfoKey}` => `info/${key}`;

export function isErrorKey(value: string): value is ErrorKey {
  return (ERROR_KEYS as readonly string[]).includes(value);
}

/** `error/foo` -> `foo` when foo is in the catalogue; anything else -> undefined. */
export function parseErrorMessage(message: unknown): ErrorKey | undefined {
  if (typeof message !== 'string' || !message.startsWith('error/')) return undefined;
  const key = message.slice('error/'.length);
  return isErrorKey(key) ? key : undefined;
}
