import { randomBytes } from 'node:crypto';

/**
 * Opaque 24-hex ids, time-prefixed like the `_id`s the spec shows: seconds since the epoch, then
 * 8 random bytes. Ordering by id roughly follows creation, which keeps index pages local.
 */
export function newId(now: number = Date.now()): string {
  const seconds = Math.floor(now / 1000).toString(16).padStart(8, '0');
  return seconds + randomBytes(8).toString('hex');
}

export const ID_PATTERN = '^[0-9a-f]{24}$';

export function isId(value: unknown): value is string {
  return typeof value === 'string' && /^[0-9a-f]{24}$/.test(value);
}
