import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * URLs of stored media. Images of posts in a private group must not be readable by guessing ids,
 * and an <img> carries no bearer token, so their URLs carry an expiry and an HMAC of key and
 * expiry instead. Public images stay plain, so they can be cached forever.
 *
 * A signed URL lives only minutes: every read of a post re-signs its images, so members always
 * get a fresh one, while someone banned or gone from the group gets no new URL and the ones they
 * hold die shortly. The expiry is rounded up to a time bucket, so every read within one bucket
 * gives the same URL and browser caches still hit. The service worker keys its cache on the URL
 * without the signature, so a member keeps seeing an image offline across re-signings, as long as
 * the answer's max-age (what is left of the signature's life) allows.
 */

/** Signed URLs stay valid at least this long... */
export const SIGNED_MIN_MS = 5 * 60 * 1000;
/** ...and their expiry is rounded up to this step, so at most SIGNED_MIN_MS + SIGNED_STEP_MS. */
export const SIGNED_STEP_MS = 5 * 60 * 1000;

export const MEDIA_PREFIX = '/media/';

export type SecretSource = string | { config: { jwtSecret: string } };

const secretOf = (source: SecretSource) => (typeof source === 'string' ? source : source.config.jwtSecret);

function signature(secret: string, key: string, exp: number): string {
  return createHmac('sha256', secret).update(`media:${key}:${exp}`).digest('base64url');
}

export function signedExpiry(now: number = Date.now()): number {
  return Math.ceil((now + SIGNED_MIN_MS) / SIGNED_STEP_MS) * SIGNED_STEP_MS;
}

export interface MediaUrlOptions {
  /** The object belongs to a post in a private group: the URL carries an expiry and a signature. */
  isPrivate?: boolean;
  /** The bytes' version, as the database keeps it; 0 when unknown, and then the URL carries none. */
  version?: number;
  now?: number;
}

/** `/media/{key}`, with the bytes' version when known, signed when the object is private. */
export function mediaUrl(source: SecretSource, key: string, options: MediaUrlOptions = {}): string {
  const params = new URLSearchParams();
  if (options.version) params.set('v', String(options.version));
  if (options.isPrivate) {
    const exp = signedExpiry(options.now);
    params.set('exp', String(exp));
    params.set('sig', signature(secretOf(source), key, exp));
  }
  const query = params.toString();
  return MEDIA_PREFIX + key + (query ? `?${query}` : '');
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

/**
 * A remote post's picture is shown through this server, never straight from its server (the page
 * loads images from its own origin only): `/media/remote/{hash}?u={url}`, the hash an HMAC of the
 * address, so only addresses this server named are ever fetched, and it names the copy kept here.
 */
function remoteHash(source: SecretSource, url: string): string {
  // Hex, not base64url: a storage key's segment may not begin with `-` or `_`, which one hash in
  // thirty-two would.
  return createHmac('sha256', secretOf(source)).update(`remote-media:${url}`).digest('hex');
}

export const remoteMediaKey = (hash: string) => `remote/${hash}`;

/** The storage key of the copy kept here of the remote picture at the address. */
export const keptRemoteMediaKey = (source: SecretSource, url: string) => remoteMediaKey(remoteHash(source, url));

export function remoteMediaUrl(source: SecretSource, url: string): string {
  return `${MEDIA_PREFIX}${keptRemoteMediaKey(source, url)}?${new URLSearchParams({ u: url }).toString()}`;
}

/** Whether the hash names this address. */
export function verifyRemoteMedia(source: SecretSource, hash: string, url: unknown): boolean {
  if (typeof url !== 'string') return false;
  const expected = Buffer.from(remoteHash(source, url));
  const given = Buffer.from(hash);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** Storage key of a picture an app uploaded ahead of its status: `uploads/{id}.webp`. */
export const stagedUploadKey = (id: string) => `uploads/${id}.webp`;

/** Storage key of image `index` of a post or comment: `{id}{index}`, webp. */
export const imageKey = (ownerId: string, index: number) => `${ownerId}${index}.webp`;

/** The media URLs of a post's or comment's `count` images, all under the owner's media version. */
export function imageUrls(
  source: SecretSource,
  owner: { id: string; images: number; isPrivate: boolean; version: number },
): string[] {
  const options = { isPrivate: owner.isPrivate, version: owner.version };
  return Array.from({ length: owner.images }, (_, index) => mediaUrl(source, imageKey(owner.id, index), options));
}

export type AvatarKind = 'pfp' | 'gp';
export const avatarKey = (kind: AvatarKind, id: string) => `${kind}/${id}.jpeg`;
export const DEFAULT_AVATAR_ID = 'default';

/**
 * The URL of a user's (pfp) or group's (gp) avatar at its version; the shared default picture
 * when there is no such user or group (a deleted author). Every reply naming an avatar uses this.
 */
export function avatarUrl(kind: AvatarKind, id: string | null, version: number): string {
  if (id === null) return mediaUrl('', avatarKey(kind, DEFAULT_AVATAR_ID));
  return mediaUrl('', avatarKey(kind, id), { version });
}
