import type { Kysely } from 'kysely';

/**
 * Federation: the remote actors the instance has heard from (their inboxes, where it delivers), and
 * which of them follow a local user or public group. A remote actor's id is its IRI, which never
 * changes; a follow is kept once per pair however often its Follow is sent again.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('remote_actors')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('inbox', 'text', (c) => c.notNull())
    .addColumn('shared_inbox', 'text')
    .addColumn('handle', 'text')
    .addColumn('fetched_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('remote_follows')
    .addColumn('remote_actor_id', 'text', (c) => c.notNull().references('remote_actors.id').onDelete('cascade'))
    .addColumn('local_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('remote_follows_pk', ['remote_actor_id', 'local_id'])
    .execute();
  // The followers collection of a local actor is read by its id.
  await db.schema.createIndex('remote_follows_local_idx').on('remote_follows').columns(['local_id', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('remote_follows').ifExists().execute();
  await db.schema.dropTable('remote_actors').ifExists().execute();
}
