import { sql } from 'kysely';
import type { NotificationSettings } from '#core/limits';
import type { Executor } from '../../db/schema.js';
import { storedNotificationSettings } from '../../policy/notification-prefs.js';
import { followNeighbours, recountFollows } from '../counters/account-counts.js';

/** SQL of the account module beyond the shared user reads (auth.repository.ts). */

export async function setNotificationSettings(db: Executor, userId: string, settings: NotificationSettings): Promise<void> {
  await db.updateTable('users').set({ notification_settings: storedNotificationSettings(settings) }).where('id', '=', userId).execute();
}

/**
 * The user's devices that take push notifications, oldest first: where each is sent and since when.
 * Read here for the export, since the notifications module that keeps them sits above the account.
 */
export async function pushDevicesOf(db: Executor, userId: string): Promise<Array<{ endpoint: string; created_at: number; updated_at: number }>> {
  const rows = await db
    .selectFrom('push_subscriptions')
    .select(['endpoint', 'created_at', 'updated_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((d) => ({ endpoint: d.endpoint, created_at: Number(d.created_at), updated_at: Number(d.updated_at) }));
}

/**
 * The counters a user's rows add to on rows of others, and the rows that name them: memberships
 * and bans count on the group, likes on the post or comment.
 */
const COUNTED_BY_USER = [
  { table: 'groups', counter: 'members', rows: 'group_members', names: 'group_id' },
  { table: 'groups', counter: 'bans', rows: 'group_bans', names: 'group_id' },
  { table: 'posts', counter: 'likes', rows: 'post_likes', names: 'post_id' },
  { table: 'comments', counter: 'likes', rows: 'comment_likes', names: 'comment_id' },
] as const;

/**
 * Deletes the account. Foreign keys do the rest: posts and comments keep their place with no
 * author, everything personal goes. Owned groups must have been handed over or deleted before:
 * a group still owned would go by cascade, and one whose posts still carry its tag makes the
 * database refuse the whole deletion rather than untag (and so publish) them. Counters the
 * cascade cannot see (members and bans of other groups, likes given) are lowered first, in the
 * same transaction, and the follow counts of the accounts on the other end of its follows are
 * counted again after it.
 */
export async function deleteUserCascade(db: Executor, userId: string, loginKey: string): Promise<void> {
  for (const { table, counter, rows, names } of COUNTED_BY_USER) {
    // The user's own groups are left out (handed over or deleted before, see above).
    const notOwned = table === 'groups' ? sql` and owner_id <> ${userId}` : sql``;
    await sql`update ${sql.table(table)} set ${sql.ref(counter)} = ${sql.ref(counter)} - 1
      where id in (select ${sql.ref(names)} from ${sql.table(rows)} where user_id = ${userId})${notOwned}`.execute(db);
  }
  const neighbours = await followNeighbours(db, [userId]);
  await db.deleteFrom('login_failures').where('key', '=', loginKey).execute();
  await db.deleteFrom('users').where('id', '=', userId).execute();
  await recountFollows(db, neighbours);
}
