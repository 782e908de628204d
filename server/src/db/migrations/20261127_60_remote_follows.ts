import type { Kysely } from 'kysely';
import { createKeyedTable, createPairTable } from './table-shapes.js';

/**
 * Federation: the remote actors the instance has heard from (their inboxes, where it delivers), and
 * which of them follow a local user or public group. A remote actor's id is its IRI, which never
 * changes; a follow is kept once per pair however often its Follow is sent again.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await createKeyedTable(db, 'remote_actors')
    .addColumn('inbox', 'text', (c) => c.notNull())
    .addColumn('shared_inbox', 'text')
    .addColumn('handle', 'text')
    .addColumn('fetched_at', 'bigint', (c) => c.notNull())
    .execute();
  await createPairTable(db, 'remote_follows', ['remote_actor_id', 'remote_actors.id'], ['local_id'])
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  // The followers collection of a local actor is read by its id.
  await db.schema.createIndex('remote_follows_local_idx').on('remote_follows').columns(['local_id', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('remote_follows').ifExists().execute();
  await db.schema.dropTable('remote_actors').ifExists().execute();
}
