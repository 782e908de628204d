import type { Kysely } from 'kysely';

/**
 * Deleting a post clears the pin of any group that pinned it: look those groups up by index
 * instead of scanning every group.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('groups_pinned_post').on('groups').column('pinned_post_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('groups_pinned_post').ifExists().execute();
}
