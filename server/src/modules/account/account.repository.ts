import type { Executor } from '../../db/schema';

/** SQL of the account module beyond the shared user reads (auth.repository.ts). */

export async function setNotificationSettings(db: Executor, userId: string, settings: boolean[]): Promise<void> {
  await db.updateTable('users').set({ notification_settings: JSON.stringify(settings) }).where('id', '=', userId).execute();
}

/**
 * Deletes the account. Foreign keys do the rest: posts and comments keep their place with no
 * author, everything personal goes. Owned groups must have been handed over or deleted before
 * (the cascade would drop a group without its private posts, publishing them). Counters the
 * cascade cannot see (members and bans of other groups, likes given) are lowered first, in the
 * same transaction.
 */
export async function deleteUserCascade(db: Executor, userId: string, loginKey: string): Promise<void> {
  await db
    .updateTable('groups')
    .set((eb) => ({ members: eb('members', '-', 1) }))
    .where('owner_id', '<>', userId)
    .where('id', 'in', (eb) => eb.selectFrom('group_members').select('group_id').where('user_id', '=', userId))
    .execute();
  await db
    .updateTable('groups')
    .set((eb) => ({ bans: eb('bans', '-', 1) }))
    .where('owner_id', '<>', userId)
    .where('id', 'in', (eb) => eb.selectFrom('group_bans').select('group_id').where('user_id', '=', userId))
    .execute();
  await db
    .updateTable('posts')
    .set((eb) => ({ likes: eb('likes', '-', 1) }))
    .where('id', 'in', (eb) => eb.selectFrom('post_likes').select('post_id').where('user_id', '=', userId))
    .execute();
  await db
    .updateTable('comments')
    .set((eb) => ({ likes: eb('likes', '-', 1) }))
    .where('id', 'in', (eb) => eb.selectFrom('comment_likes').select('comment_id').where('user_id', '=', userId))
    .execute();
  await db.deleteFrom('login_failures').where('key', '=', loginKey).execute();
  await db.deleteFrom('users').where('id', '=', userId).execute();
}
