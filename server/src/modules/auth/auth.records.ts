import type { NewUser, UserUpdate } from '../../db/schema.js';

/** An account's row as the rules read it, shared with the modules that show or change an account. */

export type { UserRecord } from '../../lib/viewer.js';
/** A new account; `verified` when its address is proven already (Google vouched for it). */
export type NewUserRecord = Omit<NewUser, 'verified'> & { verified: boolean };
/** Changes to an account's row. */
export type UserChanges = Omit<UserUpdate, 'verified'> & { verified?: boolean };
