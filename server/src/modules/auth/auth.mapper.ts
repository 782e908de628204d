import type { SessionUser } from '#core/api/auth';
import type { UserRow } from '../../db/schema.js';

export const toSessionUser = (row: Pick<UserRow, 'id' | 'username'>): SessionUser => ({ _id: row.id, username: row.username });

/**
 * An account without a password signs in through Google only, and manages neither email nor
 * password here. One linked to Google later keeps its password, and with it the right to change the
 * password and the address and to get the ordinary reset mail: Google is one more way in, and a
 * leaked password must stay replaceable.
 */
export const isGoogleOnlyAccount = (row: Pick<UserRow, 'password_hash'>) => row.password_hash === null;
