import type { Kysely } from 'kysely';
import { createKeyedTable, msType, ownedBy } from './table-shapes.js';

/**
 * Reports to the moderators: who reported which post, comment or user, and why. One report per
 * reporter and target (the unique index is the rule, so two processes cannot both take a second).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ms = msType(db);
  await createKeyedTable(db, 'reports')
    .addColumn('reporter_id', 'text', ownedBy('users.id'))
    .addColumn('target_kind', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('open'))
    .addColumn('created_at', ms, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('reports_once').on('reports').columns(['reporter_id', 'target_kind', 'target_id']).unique().execute();
  await db.schema.createIndex('reports_queue').on('reports').columns(['status', 'created_at']).execute();
  await db.schema.createIndex('reports_target').on('reports').columns(['target_kind', 'target_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('reports').ifExists().execute();
}
