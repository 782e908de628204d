import type { PasskeyItem } from '#core/api/passkeys';
import type { PasskeyRow } from './passkeys.repository.js';

export const toPasskeyItem = (row: PasskeyRow): PasskeyItem => ({
  _id: row.id,
  name: row.name,
  createdAt: Number(row.created_at),
  lastUsedAt: row.last_used_at == null ? null : Number(row.last_used_at),
});

/** The transports the authenticator named, as stored (a JSON array). */
export function transportsOf(row: Pick<PasskeyRow, 'transports'>): string[] {
  try {
    const parsed: unknown = JSON.parse(row.transports);
    return Array.isArray(parsed) ? parsed.filter((t): t is string => typeof t === 'string') : [];
  } catch {
    return [];
  }
}
