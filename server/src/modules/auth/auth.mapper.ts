import type { SessionUser } from '#core/api/auth';
import type { UserRow } from '../../db/schema.js';

export const toSessionUser = (row: Pick<UserRow, 'id' | 'username'>): SessionUser => ({ _id: row.id, username: row.username });

/** A Google account signs in through Google and manages neither email nor password here. */
export const isGoogleAccount = (row: Pick<UserRow, 'google_sub' | 'password_hash'>) => row.google_sub !== null || row.password_hash === null;
