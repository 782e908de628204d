import type { UserRow } from '../db/schema.js';

/** An account as the rules read it: `verified` is true once its address was proven. */
export type UserRecord = Omit<UserRow, 'verified'> & { verified: boolean };

/**
 * The signed-in user a request acts for. It sits below the plugins and modules so the rules of
 * who may see or do what (policy/) can name it without reaching up into the auth plugin.
 */
export interface Viewer {
  id: string;
  username: string;
  user: UserRecord;
}
