import type { Executor, InvitesTable, RegistrationApplicationsTable } from '../../db/schema.js';
import { changedRows, toBool } from '../../db/helpers.js';
import type { PageWindow } from '../../lib/paging.js';

/** Every SQL of registration: its settings row, the applications waiting for approval, the invite links. */

const SETTINGS_ROW = 'registration';

/** The stored settings (JSON), or undefined while no moderator has set any. */
export async function readSettingsRow(db: Executor): Promise<string | undefined> {
  const row = await db.selectFrom('server_settings').select('value').where('name', '=', SETTINGS_ROW).executeTakeFirst();
  return row?.value;
}

export async function writeSettingsRow(db: Executor, value: string, now: number): Promise<void> {
  await db
    .insertInto('server_settings')
    .values({ name: SETTINGS_ROW, value, created_at: now })
    .onConflict((oc) => oc.column('name').doUpdateSet({ value }))
    .execute();
}

export type ApplicationStatus = RegistrationApplicationsTable['status'];

export async function insertApplication(db: Executor, userId: string, reason: string, now: number): Promise<void> {
  await db.insertInto('registration_applications').values({ user_id: userId, reason, status: 'pending', created_at: now }).execute();
}

/** Where the account's sign-up stands: undefined for an account that never waited for approval. */
export async function applicationStatus(db: Executor, userId: string): Promise<ApplicationStatus | undefined> {
  const row = await db.selectFrom('registration_applications').select('status').where('user_id', '=', userId).executeTakeFirst();
  return row?.status;
}

/** Decides a waiting application; false when there is none (already decided, or never made). */
export async function decideApplication(db: Executor, userId: string, status: 'approved' | 'refused', by: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('registration_applications')
    .set({ status, decided_by: by, decided_at: now })
    .where('user_id', '=', userId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return changedRows(result);
}

/** Waiting applications, oldest first, with their accounts. */
export async function pendingApplications(db: Executor, window: PageWindow) {
  const rows = await db
    .selectFrom('registration_applications as a')
    .innerJoin('users as u', 'u.id', 'a.user_id')
    .select(['a.user_id', 'a.reason', 'a.created_at', 'u.username', 'u.email', 'u.verified'])
    .where('a.status', '=', 'pending')
    .orderBy('a.created_at', 'asc')
    .orderBy('a.user_id', 'asc')
    .limit(window.fetch)
    .offset(window.offset)
    .execute();
  return rows.map((row) => ({ ...row, created_at: Number(row.created_at), verified: toBool(row.verified) }));
}

export type InviteRow = Omit<InvitesTable, 'uses'> & { uses: number };

const inviteOf = (row: InviteRow): InviteRow => ({
  ...row,
  max_uses: Number(row.max_uses),
  uses: Number(row.uses),
  expires_at: Number(row.expires_at),
  created_at: Number(row.created_at),
});

export async function insertInvite(db: Executor, invite: InviteRow): Promise<void> {
  await db.insertInto('invites').values(invite).execute();
}

export async function findInvite(db: Executor, id: string): Promise<InviteRow | undefined> {
  const row = await db.selectFrom('invites').selectAll().where('id', '=', id).executeTakeFirst();
  return row && inviteOf(row);
}

export async function findInviteByCode(db: Executor, code: string): Promise<InviteRow | undefined> {
  const row = await db.selectFrom('invites').selectAll().where('code', '=', code).executeTakeFirst();
  return row && inviteOf(row);
}

/**
 * Takes one use of the invite if it can still admit someone. One statement, so two sign-ups racing
 * for its last use cannot both have it. False when it cannot.
 */
export async function takeInviteUse(db: Executor, code: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('invites')
    .set((eb) => ({ uses: eb('uses', '+', 1) }))
    .where('code', '=', code)
    .where('expires_at', '>', now)
    .where((eb) => eb('uses', '<', eb.ref('max_uses')))
    .executeTakeFirst();
  return changedRows(result);
}

/** The maker's invite links, newest first. */
export async function invitesOf(db: Executor, userId: string, window: PageWindow): Promise<InviteRow[]> {
  const rows = await db
    .selectFrom('invites')
    .selectAll()
    .where('created_by', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(window.fetch)
    .offset(window.offset)
    .execute();
  return rows.map(inviteOf);
}

/** How many of the maker's invite links can still admit someone. */
export async function usableInviteCount(db: Executor, userId: string, now: number): Promise<number> {
  const row = await db
    .selectFrom('invites')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('created_by', '=', userId)
    .where('expires_at', '>', now)
    .where((eb) => eb('uses', '<', eb.ref('max_uses')))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function deleteInvite(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('invites').where('id', '=', id).execute();
}
