import type { Kysely } from 'kysely';
import { createPairTable, msType } from './table-shapes.js';

/**
 * report_group_settlements: a group's owner or admin settling a report of a post in their group
 * settles it for that group's queue only; the report stays open for the instance moderators
 * (reports.status is theirs). Reports a group admin had settled before are opened again for the
 * moderators, each with its group's settlement kept here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await createPairTable(db, 'report_group_settlements', ['report_id', 'reports.id'], ['group_id', 'groups.id'])
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('settled_by', 'text')
    .addColumn('settled_at', msType(db), (c) => c.notNull())
    .execute();

  const groupActions: Array<{ report_id: string; group_id: string; actor_id: string | null; created_at: number }> = await db
    .selectFrom('moderation_actions')
    .select(['report_id', 'group_id', 'actor_id', 'created_at'])
    .where('group_id', 'is not', null)
    .where('report_id', 'is not', null)
    .execute();
  for (const action of groupActions) {
    const acted = await db.selectFrom('reports').select(['target_kind', 'target_id']).where('id', '=', action.report_id).executeTakeFirst();
    if (!acted || !action.actor_id) continue;
    // The action settled every open report of its post, each marked as settled by its admin.
    const settled: Array<{ id: string; status: string; resolved_at: number | null }> = await db
      .selectFrom('reports')
      .select(['id', 'status', 'resolved_at'])
      .where('target_kind', '=', acted.target_kind)
      .where('target_id', '=', acted.target_id)
      .where('resolved_by', '=', action.actor_id)
      .where('status', '!=', 'open')
      .execute();
    for (const report of settled) {
      await db
        .insertInto('report_group_settlements')
        .values({ report_id: report.id, group_id: action.group_id, status: report.status, settled_by: action.actor_id, settled_at: Number(report.resolved_at ?? action.created_at) })
        .onConflict((oc) => oc.columns(['report_id', 'group_id']).doNothing())
        .execute();
      await db.updateTable('reports').set({ status: 'open', resolved_by: null, resolved_at: null }).where('id', '=', report.id).execute();
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('report_group_settlements').execute();
}
