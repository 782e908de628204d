import type { ServerErrorKey } from './errors.js';
import { LIMITS } from './limits.js';
import { containsProfanity } from './profanity.js';
import { hasHiddenCharacters, isBlank, isHandleName, lineCount, normalizeName, storedLength, trimText } from './text.js';

export { lineCount };

/**
 * The validation rules of usernames, group names, passwords, addresses and texts. Each check
 * answers the first broken rule as a catalogue key, or null. The server enforces them; the web app
 * runs the same functions before sending. Names and texts are judged as a person reads them:
 * names NFKC-normalised, texts trimmed, invisible characters counted as nothing.
 */
export type Check = ServerErrorKey | null;

/** The shape of the server's ids (24 lowercase hex digits). */
export const ID_PATTERN = '^[0-9a-f]{24}$';

/**
 * Whether a name could be read as an id. Group paths take a name or an id, and names match in any
 * case, so such a group name would shadow (or be shadowed by) another group's id.
 */
export function isIdShaped(name: string): boolean {
  return new RegExp(ID_PATTERN, 'i').test(name);
}

type NameKeys = { blank: ServerErrorKey; characters: ServerErrorKey; min: ServerErrorKey; max: ServerErrorKey };

/**
 * The rules usernames and group names share (present, visible characters, length), then the kind's
 * own rules on the normalised name.
 */
function checkName(input: unknown, keys: NameKeys, min: number, max: number, own: (name: string) => Check): Check {
  if (typeof input !== 'string') return keys.blank;
  const name = normalizeName(input);
  if (isBlank(name)) return keys.blank;
  if (hasHiddenCharacters(name)) return keys.characters;
  const length = [...name].length;
  if (length < min) return keys.min;
  if (length > max) return keys.max;
  return own(name);
}

const USERNAME_KEYS = { blank: 'new_username', characters: 'username_characters', min: 'min_username_length', max: 'max_username_length' } as const;

export function validateUsername(username: unknown): Check {
  return checkName(username, USERNAME_KEYS, LIMITS.usernameMin, LIMITS.usernameMax, (name) => {
    if (name.includes('@')) return 'username_at';
    if (containsProfanity(name)) return 'username_profanity';
    return null;
  });
}

/**
 * The name of an account on another server (its actor's preferredUsername), which its handle
 * carries and which is not changed here: the rules every name keeps (not blank, no character that
 * hides or reorders text), no more than a handle in a text can name (letters, digits, `_`, `.`, `-`:
 * no `@`, no space), and spelled as NFKC leaves it (a full-width look-alike of a name is not that
 * name). A sign-up's own rules (a least length, no rude words) are this instance's, not other
 * servers'; only an upper bound on the length is kept.
 */
export function validateRemoteUsername(name: unknown): Check {
  return checkName(name, USERNAME_KEYS, 1, LIMITS.remoteUsernameMax, (normalized) =>
    normalized === name && isHandleName(normalized) ? null : 'username_characters',
  );
}

const GROUP_NAME_KEYS = { blank: 'new_groupname', characters: 'groupname_characters', min: 'min_groupname_length', max: 'max_groupname_length' } as const;

export function validateGroupName(name: unknown): Check {
  return checkName(name, GROUP_NAME_KEYS, LIMITS.groupNameMin, LIMITS.groupNameMax, (normalized) => {
    if (normalized.includes('&')) return 'group_and';
    if (isIdShaped(normalized)) return 'groupname_reserved';
    if (containsProfanity(normalized)) return 'groupname_profanity';
    return null;
  });
}

/** Printable ASCII symbols a password may hold besides letters and digits. */
export const PASSWORD_SYMBOLS = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";
const PASSWORD_CHAR = /^[\p{L}\p{N}]$/u;

export function validatePassword(password: unknown, max: number = LIMITS.passwordMax): Check {
  if (typeof password !== 'string' || password === '') return 'new_password';
  if (/\s/u.test(password)) return 'password_spaces';
  for (const ch of password) {
    if (!PASSWORD_CHAR.test(ch) && !PASSWORD_SYMBOLS.includes(ch)) return 'password_invalid';
  }
  const length = [...password].length;
  if (length < LIMITS.passwordMin) return 'min_password_length';
  if (length > max) return 'max_password_length';
  return null;
}

export function validatePasswordRepeat(password: string, repeat: string): Check {
  return password === repeat ? null : 'passwords_dont_match';
}

// The WHATWG "valid email address" production, which is what the browser's email check uses.
const EMAIL = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function validateEmail(email: unknown): Check {
  if (typeof email !== 'string') return 'invalid_email';
  const normalized = normalizeEmail(email);
  return normalized.length <= 254 && EMAIL.test(normalized) ? null : 'invalid_email';
}

type TextKeys = { blank?: ServerErrorKey; length: ServerErrorKey; lines: ServerErrorKey };

/**
 * The length is measured as the text is stored, trimmed (see trimText); the lines as sent. A text
 * showing nothing is blank where blank matters.
 */
function validateText(text: unknown, keys: TextKeys, maxLength: number = LIMITS.textMaxLength): Check {
  if (typeof text !== 'string') return keys.blank ?? keys.length;
  if (keys.blank && isBlank(text)) return keys.blank;
  if (storedLength(text) > maxLength) return keys.length;
  if (lineCount(text) > LIMITS.textMaxLines) return keys.lines;
  return null;
}

export const validatePostText = (text: unknown): Check =>
  validateText(text, { blank: 'blank_post', length: 'max_post_length', lines: 'max_post_lines' });

export const validateCommentText = (text: unknown): Check =>
  validateText(text, { blank: 'blank_comment', length: 'max_comment_length', lines: 'max_comment_lines' });

export const validateBio = (bio: unknown): Check =>
  validateText(bio, { length: 'max_bio_length', lines: 'max_bio_lines' }, LIMITS.bioMaxLength);

export const validateDescription = (description: unknown): Check =>
  validateText(description, { length: 'max_desc_length', lines: 'max_desc_lines' }, LIMITS.descriptionMaxLength);

/** Mentions and group slots of a post: at most 10 each. */
export function validateSlots(mentions: readonly string[], groups: readonly string[]): Check {
  if (mentions.length > LIMITS.mentionsPerPost) return 'mentions_up_to';
  if (groups.length > LIMITS.groupsPerPost) return 'groups_up_to';
  return null;
}

/**
 * How many pictures a post takes: a reply (a post answering another) one, as a comment does,
 * any other post LIMITS.imagesPerPost.
 */
export const postImagesMax = (isReply: boolean): number => (isReply ? LIMITS.imagesPerComment : LIMITS.imagesPerPost);

/**
 * The pictures of one post or comment: at most `max`, and an animation (a GIF) only alone, so a
 * post shows photos or a GIF, never both.
 */
export function validateImages(images: readonly { animated: boolean }[], max: number): Check {
  if (images.length > max) return 'too_many_images';
  if (images.length > 1 && images.some((image) => image.animated)) return 'gif_alone';
  return null;
}

/** An image's description as stored: trimmed, as the other texts. */
export const normalizeImageAlt = (alt: string): string => trimText(alt);

/** The description (alt text) of one image: optional, at most LIMITS.imageAltMaxLength characters. */
export function validateImageAlt(alt: unknown): Check {
  if (alt === undefined || alt === null) return null;
  if (typeof alt !== 'string') return 'max_alt_length';
  return [...normalizeImageAlt(alt)].length > LIMITS.imageAltMaxLength ? 'max_alt_length' : null;
}

/**
 * A content warning as stored: one line (any run of whitespace becomes one space), trimmed; a
 * warning showing nothing is no warning (null).
 */
export function normalizeContentWarning(warning: string | null | undefined): string | null {
  if (typeof warning !== 'string') return null;
  const line = trimText(warning.replace(/\s+/gu, ' '));
  return isBlank(line) ? null : line;
}

/** Why someone asks to join (sign-ups by approval): required (not blank), at most LIMITS.registrationReasonMaxLength characters. */
export function validateRegistrationReason(reason: unknown): Check {
  if (typeof reason !== 'string' || isBlank(reason)) return 'registration_reason_required';
  return storedLength(reason) > LIMITS.registrationReasonMaxLength ? 'max_registration_reason_length' : null;
}

/** Why something is reported: required (not blank), at most LIMITS.reportReasonMaxLength characters. */
export function validateReportReason(reason: unknown): Check {
  if (typeof reason !== 'string' || isBlank(reason)) return 'report_reason_required';
  return storedLength(reason) > LIMITS.reportReasonMaxLength ? 'max_report_reason_length' : null;
}

/** A post's content warning: optional, at most LIMITS.contentWarningMaxLength characters. */
export function validateContentWarning(warning: unknown): Check {
  if (warning === undefined || warning === null) return null;
  if (typeof warning !== 'string') return 'max_content_warning_length';
  const line = normalizeContentWarning(warning) ?? '';
  return [...line].length > LIMITS.contentWarningMaxLength ? 'max_content_warning_length' : null;
}
