/**
 * The message catalogue: the one closed list of `error/...` and `info/...`
 * keys. The server answers with them, the web app translates them, and the locale files are checked
 * against them, so a key is added here or nowhere.
 */

/**
 * Failures the web app detects itself (a load that failed, a post still waiting for its media...):
 * in the catalogue so they are translated, never answered by the server.
 */
export const CLIENT_ERROR_KEYS = [
  'while_loading', 'original_post', 'posting_failed', 'wait_media', 'loading_failed',
  'singup_failed', 'post_deleted', 'no_group',
] as const;

export type ClientErrorKey = (typeof CLIENT_ERROR_KEYS)[number];

export const ERROR_KEYS = [
  // Validation
  'username_at', 'group_and', 'new_username', 'min_username_length', 'max_username_length',
  'username_profanity', 'new_groupname', 'min_groupname_length', 'max_groupname_length',
  'groupname_profanity', 'new_password', 'password_spaces', 'password_invalid',
  'min_password_length', 'max_password_length', 'blank_post', 'max_post_length', 'max_post_lines',
  'blank_comment', 'max_comment_length', 'max_comment_lines', 'max_bio_length', 'max_bio_lines',
  'max_desc_length', 'max_desc_lines', 'passwords_dont_match',
  // An image's description (alt text) or a post's content warning over its limit.
  'max_alt_length', 'max_content_warning_length',
  // A report to the moderators: its reason missing or too long, a second report of the same thing,
  // a report of oneself or of one's own content.
  'report_reason_required', 'max_report_reason_length', 'already_reported', 'report_yourself', 'invalid_report',
  // Moderation: a suspended account, a call for instance moderators only, a report already settled or
  // gone, an action that does not fit the report, a report of the one acting on it.
  'account_suspended', 'moderators_only', 'report_not_found', 'invalid_moderation_action', 'own_report',
  // The instance's settings over their limits; a sign-up that did not accept the instance's rules;
  // the last moderator taking the role from themselves.
  'max_instance_name_length', 'max_instance_description_length', 'max_instance_about_length', 'max_instance_rules',
  'max_instance_rule_length', 'rules_not_accepted', 'last_moderator',
  // Auth and account
  'no_token', 'invalid_token', 'login_timeout', 'server_error', 'username_taken', 'user_not_found',
  'invalid_credentials', 'invalid_email', 'using_email', 'email_used', 'invalid_link', 'login_google',
  'verify_email', 'google_failed',
  // Posts, comments and follows
  'invalid_parent', 'comment_limit', 'invalid_comment', 'comment_not_found', 'not_author',
  'invalid_following_id', 'trying_to_follow', 'follow_yourself', 'mentions_up_to', 'groups_up_to',
  // Groups
  'max_groups', 'didnt_find_group', 'invalid_id', 'invalid_group_id', 'no_group_name',
  'need_admin', 'groupname_taken', 'not_member', 'no_pinned', 'didnt_find_pinned', 'admin_banned',
  'invalid_post', 'invalid_group', 'didnt_find_post', 'banned', 'need_request', 'no_request',
  'already_member', 'already_requested', 'admin_accept', 'user_banned', 'user_member',
  'hasnt_requested', 'admin_admin', 'isnt_member', 'already_admin', 'isnt_admin', 'admin_pin',
  'admin_ban', 'ban_owner', 'didnt_find_user', 'already_banned', 'not_banned', 'owner_delete',
  // Withdrawing a join request the caller never sent (or that was already answered).
  'no_pending_request',
  ...CLIENT_ERROR_KEYS,
  // A list asked for with a query it does not take (a page size of 0, an unknown sort).
  'invalid_query',
  // Uploads: a file that is not a decodable image, or one over the size limits.
  'only_images', 'image_too_large',
  // A post's or comment's pictures: more than it takes, or a GIF with other pictures.
  'too_many_images', 'gif_alone',
  // Account settings (language, notification switches) that are not one of the allowed values.
  'invalid_settings',
  // Web Push: a device subscription that is not one a browser gives (its endpoint or keys).
  'invalid_subscription',
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
  // Data exports of one account: each reads all its rows and images, so only a few an hour; and
  // a process sends only a few at once, whoever asks.
  'export_limit', 'export_busy',
  // Passkeys: an answer that does not prove the key, a challenge used or too old, a passkey not known.
  'passkey_failed', 'passkey_expired', 'passkey_not_found',
  // Blocks and mutes: acting on someone a block stands between, blocking or muting oneself, a
  // hashtag to mute that is not one.
  'blocked', 'block_yourself', 'mute_yourself', 'invalid_hashtag',
  // Too many passkey challenges asked for from one address or account.
  'passkey_limit',
  // Too many edits of one's posts within the hour; too many pictures uploaded by apps within the hour.
  'edit_limit', 'upload_limit',
  // Too many reports to the moderators within the hour; too many likes and unlikes within the window.
  'report_limit', 'like_limit',
  // Too many verification mails asked for, for one address or from one client.
  'verification_limit',
  // A reset link was asked for this address less than a minute ago: no new mail went.
  'reset_wait',
  // The database was busy with other work for longer than a request waits (503 with Retry-After).
  'server_busy',
  // Deleting an account: the password given is not the account's; a Google account's typed name is not its own.
  'wrong_password', 'wrong_username',
  // Federation's boundaries: a domain to block that is not a host name (or is the instance's own);
  // an inbox request from a blocked domain or a suspended remote account; too many inbox requests
  // from one server or address.
  'invalid_domain', 'remote_blocked', 'inbox_limit',
  // An inbox request with no signature, one nested deeper than any activity is, one importing a
  // JSON-LD context.
  'activity_unsigned', 'activity_too_deep', 'activity_imports_context',
  // A post into a community of another server the author does not follow (or names none known here).
  'not_following_community',
  // Registration: sign-ups closed, a reason missing or too long (by approval), an invite missing or
  // no longer valid (by invitation), an account not yet approved or refused, a Google sign-up where
  // the form is the way in; invites a member may not make, one not found or too many held, settings
  // or an invite's uses and days out of range, an application already decided.
  'registrations_closed', 'registration_reason_required', 'max_registration_reason_length', 'invite_required',
  'invalid_invite', 'registration_pending', 'registration_refused', 'google_signup_closed', 'invites_not_allowed',
  'invite_not_found', 'invite_limit', 'invalid_registration_settings', 'invalid_invite_settings',
  'application_not_found',
  // An app registering for the client API: its name missing or too long, a redirect address that is
  // neither an absolute URL nor the out-of-band one, a scope the instance does not grant, a website
  // that is not a web address; an app's token used for a call its person did not grant it.
  'invalid_app_name', 'invalid_redirect_uri', 'invalid_scope', 'invalid_app_website', 'insufficient_scope',
  // A stream of the client API's streaming endpoint that there is none of, or a hashtag's without its
  // tag; a plain request to the endpoint, which only opens a WebSocket.
  'unknown_stream', 'websocket_required',
  // Signing an app in: an app unknown or its secret wrong, a redirect address it did not register, a
  // code unknown, used or expired, a code verifier that does not match its challenge, a challenge
  // method other than S256, a refresh token unknown or used, a grant or response type not offered,
  // a request missing what it needs; an authorised app the account no longer has.
  'unknown_app', 'redirect_not_registered', 'code_invalid', 'pkce_mismatch', 'pkce_method_unsupported',
  'refresh_token_invalid', 'grant_type_unsupported', 'response_type_unsupported', 'oauth_request_invalid',
  'authorization_not_found',
  // The client API's writes: a boost (nothing is boosted here), a status for followers or named
  // people only (every post here is public, or in a private group only through that group), a
  // block or mute of a group's account, a picture named by an id that is none of the caller's uploads,
  // an edit of a comment (only posts are edited here); an upload a status carries already, an edit
  // leaving out or reordering pictures the post has (they stay as they are).
  'no_reblogs', 'visibility_unsupported', 'group_account_action', 'unknown_media', 'comment_not_editable',
  'media_attached', 'media_not_removable',
] as const;

export type ErrorKey = (typeof ERROR_KEYS)[number];
/** The keys the server may answer: the catalogue without the web app's own. */
export type ServerErrorKey = Exclude<ErrorKey, ClientErrorKey>;

export const INFO_KEYS = [
  'account_updated', 'email_send', 'bio_updated', 'account_deleted', 'signup_email', 'email_verified',
  'comment_deleted', 'created_group', 'group_updated', 'post_removed', 'you_left', 'joined_group',
  'request_send', 'request_accepted', 'request_denied', 'made_admin', 'revoked_admin', 'post_pinned',
  'post_unpinned', 'user_banned', 'user_unbanned', 'group_deleted', 'request_withdrawn',
  // The forgotten-password flow, and confirmations of deletes, follows and settings.
  'password_reset_sent', 'password_changed', 'post_deleted', 'unfollowed', 'followed',
  'notification_deleted', 'notifications_cleared', 'settings_updated', 'left_group',
  // Web Push: this device was registered for notifications, or no longer is.
  'push_subscribed', 'push_unsubscribed',
  'image_uploaded', 'owner_transferred', 'passkey_removed', 'report_received',
  // Blocks and mutes of users and hashtags.
  'user_blocked', 'user_unblocked', 'user_muted', 'user_unmuted', 'tag_muted', 'tag_unmuted',
  'report_resolved', 'user_suspended', 'user_unsuspended',
  // The instance's settings saved; the moderator role given or taken back.
  'instance_updated', 'moderator_granted', 'moderator_revoked',
  // A verification mail asked for again (the same answer for any address).
  'verification_sent',
  // A reset link checked before its form is shown still works.
  'reset_link_valid',
  // A domain blocked from federating, or no longer.
  'domain_blocked', 'domain_unblocked',
  // Registration: a sign-up waiting for the moderators, the mode changed, an application decided,
  // an invite link made or revoked.
  'signup_application', 'registration_updated', 'application_approved', 'application_refused', 'invite_created', 'invite_revoked',
  // An app's access to the account taken back.
  'app_revoked',
] as const;

export type InfoKey = (typeof INFO_KEYS)[number];

export const errorMessage = (key: ErrorKey): `error/${ErrorKey}` => `error/${key}`;
export const infoMessage = (key: InfoKey): `info/${InfoKey}` => `info/${key}`;

function isKeyOf<K extends string>(keys: readonly K[], value: string): value is K {
  return (keys as readonly string[]).includes(value);
}

export const isErrorKey = (value: string): value is ErrorKey => isKeyOf(ERROR_KEYS, value);
export const isInfoKey = (value: string): value is InfoKey => isKeyOf(INFO_KEYS, value);
export const isClientErrorKey = (value: string): value is ClientErrorKey => isKeyOf(CLIENT_ERROR_KEYS, value);

/** `<prefix>/foo` -> `foo` when foo is one of `keys`; anything else -> undefined. */
function parseMessage<K extends string>(message: unknown, prefix: string, keys: readonly K[]): K | undefined {
  if (typeof message !== 'string' || !message.startsWith(`${prefix}/`)) return undefined;
  const key = message.slice(prefix.length + 1);
  return isKeyOf(keys, key) ? key : undefined;
}

/** `error/foo` -> `foo` when foo is in the catalogue; anything else -> undefined. */
export const parseErrorMessage = (message: unknown): ErrorKey | undefined => parseMessage(message, 'error', ERROR_KEYS);
/** `info/foo` -> `foo` when foo is in the catalogue; anything else -> undefined. */
export const parseInfoMessage = (message: unknown): InfoKey | undefined => parseMessage(message, 'info', INFO_KEYS);
