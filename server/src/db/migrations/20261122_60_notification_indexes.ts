import type { Kysely } from 'kysely';

/**
 * Indexes the notification fan-out and the notification list lean on: the unread badge, the
 * per-post de-duplication of recipients, the followers who asked to be notified (walked in
 * user-id order by the fan-out cursor), and the foreign keys whose cascades would otherwise scan
 * every notification when a post, comment, group or account is deleted.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('notifications_unread').on('notifications').columns(['user_id', 'seen']).execute();
  await db.schema.createIndex('notifications_post').on('notifications').columns(['post_id', 'user_id']).execute();
  await db.schema.createIndex('notifications_comment').on('notifications').column('comment_id').execute();
  await db.schema.createIndex('notifications_group').on('notifications').columns(['group_id', 'type', 'actor_id']).execute();
  await db.schema.createIndex('notifications_actor').on('notifications').column('actor_id').execute();
  await db.schema.createIndex('follows_notify').on('follows').columns(['following_id', 'notify', 'follower_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const name of ['follows_notify', 'notifications_actor', 'notifications_group', 'notifications_comment', 'notifications_post', 'notifications_unread']) {
    await db.schema.dropIndex(name).ifExists().execute();
  }
}
