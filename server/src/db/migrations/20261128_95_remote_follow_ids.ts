import type { Kysely } from 'kysely';

/**
 * The id of the Follow that made each remote follow: some servers take a follow back with an Undo
 * naming only that id, and the follow is then found by it. Follows kept before have none.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('remote_follows').addColumn('follow_id', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('remote_follows').dropColumn('follow_id').execute();
}
