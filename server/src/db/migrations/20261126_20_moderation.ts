import type { Kysely } from 'kysely';
import { createKeyedTable, msType } from './table-shapes.js';

/**
 * Moderation: a role on users (instance moderators), an account's suspension, how a report was
 * settled, and the log of every moderation action (by a moderator or a group's admin).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ms = msType(db);
  await db.schema.alterTable('users').addColumn('role', 'text', (c) => c.notNull().defaultTo('user')).execute();
  await db.schema.alterTable('users').addColumn('suspended_at', ms).execute();
  await db.schema.alterTable('reports').addColumn('resolved_by', 'text').execute();
  await db.schema.alterTable('reports').addColumn('resolved_at', ms).execute();
  await createKeyedTable(db, 'moderation_actions')
    // Kept when the moderator's account goes: the log says an action happened, by someone gone.
    .addColumn('actor_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('group_id', 'text', (c) => c.references('groups.id').onDelete('cascade'))
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_kind', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text', (c) => c.notNull())
    .addColumn('report_id', 'text')
    .addColumn('created_at', ms, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('moderation_actions_log').on('moderation_actions').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('moderation_actions_group').on('moderation_actions').columns(['group_id', 'created_at', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('moderation_actions').ifExists().execute();
  await db.schema.alterTable('reports').dropColumn('resolved_at').execute();
  await db.schema.alterTable('reports').dropColumn('resolved_by').execute();
  await db.schema.alterTable('users').dropColumn('suspended_at').execute();
  await db.schema.alterTable('users').dropColumn('role').execute();
}
