import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * URLs of stored media. Images of posts in a private group must not be readable by guessing ids,
 * and an <img> carries no bearer token, so their URLs carry an expiry and an HMAC of key and
 * expiry instead. Public images stay plain, so they can be cached forever.
 */

/** Signed URLs stay valid at least this long... */
const SIGNED_MIN_MS = 24 * 60 * 60 * 1000;
/** ...and their expiry is rounded up to this step, so repeated reads give the same URL (cacheable). */
const SIGNED_STEP_MS = 6 * 60 * 60 * 1000;

export const MEDIA_PREFIX = '/media/';

type SecretSource = string | { config: { jwtSecret: string } };

const secretOf = (source: SecretSource) => (typeof source === 'string' ? source : source.config.jwtSecret);

function signature(secret: string, key: string, exp: number): string {
  return createHmac('sha256', secret).update(`media:${key}:${exp}`).digest('base64url');
}

export function signedExpiry(now: number = Date.now()): number {
  return Math.ceil((now + SIGNED_MIN_MS) / SIGNED_STEP_MS) * SIGNED_STEP_MS;
}

/** `/media/{key}`, signed when the object belongs to a post in a private group. */
export function mediaUrl(source: SecretSource, key: string, isPrivate: boolean, now: number = Date.now()): string {
  const url = MEDIA_PREFIX + key;
  if (!isPrivate) return url;
  const exp = signedExpiry(now);
  return `${url}?exp=${exp}&sig=${signature(secretOf(source), key, exp)}`;
}

/** Whether exp and sig are a valid, unexpired signature of key. */
export function verifyMediaSignature(
  source: SecretSource,
  key: string,
  exp: unknown,
  sig: unknown,
  now: number = Date.now(),
): boolean {
  if (typeof exp !== 'string' || typeof sig !== 'string' || !/^\d{1,15}$/.test(exp)) return false;
  const expiry = Number(exp);
  if (expiry < now) return false;
  const expected = Buffer.from(signature(secretOf(source), key, expiry));
  const given = Buffer.from(sig);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** Storage key of image `index` of a post or comment (000 §3: `{id}{index}`, webp). */
export const imageKey = (ownerId: string, index: number) => `${ownerId}${index}.webp`;

/** The media URLs of a post's or comment's `count` images. */
export function imageUrls(source: SecretSource, ownerId: string, count: number, isPrivate: boolean): string[] {
  return Array.from({ length: count }, (_, index) => mediaUrl(source, imageKey(ownerId, index), isPrivate));
}

export type AvatarKind = 'pfp' | 'gp';
export const avatarKey = (kind: AvatarKind, id: string) => `${kind}/${id}.jpeg`;
