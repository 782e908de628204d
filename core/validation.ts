import type { ErrorKey } from './errors';
import { LIMITS } from './limits';
import { containsProfanity } from './profanity';

/**
 * Validation rules of 000 §5 and 001 §5. Each check answers the first broken rule as a catalogue
 * key, or null. The server enforces them; the web app runs the same functions before sending.
 */
export type Check = ErrorKey | null;

export function lineCount(text: string): number {
  return text.split(/\r\n|\r|\n/).length;
}

export function validateUsername(username: unknown): Check {
  if (typeof username !== 'string' || username.trim() === '') return 'new_username';
  const length = [...username].length;
  if (length < LIMITS.usernameMin) return 'min_username_length';
  if (length > LIMITS.usernameMax) return 'max_username_length';
  if (username.includes('@')) return 'username_at';
  if (containsProfanity(username)) return 'username_profanity';
  return null;
}

export function validateGroupName(name: unknown): Check {
  if (typeof name !== 'string' || name.trim() === '') return 'new_groupname';
  const length = [...name].length;
  if (length < LIMITS.groupNameMin) return 'min_groupname_length';
  if (length > LIMITS.groupNameMax) return 'max_groupname_length';
  if (name.includes('&')) return 'group_and';
  if (containsProfanity(name)) return 'groupname_profanity';
  return null;
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

type TextKeys = { blank?: ErrorKey; length: ErrorKey; lines: ErrorKey };

function validateText(text: unknown, keys: TextKeys, maxLength: number = LIMITS.textMaxLength): Check {
  if (typeof text !== 'string') return keys.blank ?? keys.length;
  if (keys.blank && text.trim() === '') return keys.blank;
  if ([...text].length > maxLength) return keys.length;
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

/** Mentions and group slots of a post: at most 10 each (000 §5). */
export function validateSlots(mentions: readonly string[], groups: readonly string[]): Check {
  if (mentions.length > LIMITS.mentionsPerPost) return 'mentions_up_to';
  if (groups.length > LIMITS.groupsPerPost) return 'groups_up_to';
  return null;
}
