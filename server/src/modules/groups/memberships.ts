import type { Executor } from '../../db/schema.js';
import { type MembershipRow, findMembershipsOf } from './groups.repository.js';

/** The groups a user belongs to, for the data export: the account module reads them here, not from the repository. */
export type { MembershipRow };

/** Every group the user is in, with their role and switches. */
export function membershipsOf(db: Executor, userId: string): Promise<MembershipRow[]> {
  return findMembershipsOf(db, userId);
}
