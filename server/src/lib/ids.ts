import { randomBytes } from 'node:crypto';
import { ID_PATTERN } from '#core/validation';

/**
 * Opaque 24-hex ids, the `_id` of every reply: seconds since the epoch, then 8 random bytes. Ordering by id roughly follows creation, which keeps index pages local.
 */
export function newId(now: number = Date.now()): string {
  const seconds = Math.floor(now / 1000).toString(16).padStart(8, '0');
  return seconds + randomBytes(8).toString('hex');
}

// The shape lives in core so the web app can refuse a group name that would read as an id.
export { ID_PATTERN };
const ID = new RegExp(ID_PATTERN);

export function isId(value: unknown): value is string {
  return typeof value === 'string' && ID.test(value);
}
