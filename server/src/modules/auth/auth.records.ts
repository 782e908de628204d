import type { NewUser, UserRow, UserUpdate } from '../../db/schema.js';

/** An account's row as the rules read it, shared with the modules that show or change an account. */

/** An account as the rules read it: `verified` is true once its address was proven. */
export type UserRecord = Omit<UserRow, 'verified'> & { verified: boolean };
/** A new account; `verified` when its address is proven already (Google vouched for it). */
export type NewUserRecord = Omit<NewUser, 'verified'> & { verified: boolean };
/** Changes to an account's row. */
export type UserChanges = Omit<UserUpdate, 'verified'> & { verified?: boolean };
