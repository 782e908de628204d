import type { ReportKind } from '#core/api/reports';
import type { Executor } from '../../db/schema.js';
import { newId } from '../../lib/ids.js';

export interface NewReport {
  reporterId: string;
  kind: ReportKind;
  targetId: string;
  reason: string;
}

/** Stores the report; false when this reporter already reported this target (nothing changes). */
export async function insertReport(db: Executor, report: NewReport): Promise<boolean> {
  const result = await db
    .insertInto('reports')
    .values({
      id: newId(),
      reporter_id: report.reporterId,
      target_kind: report.kind,
      target_id: report.targetId,
      reason: report.reason,
      created_at: Date.now(),
    })
    .onConflict((oc) => oc.columns(['reporter_id', 'target_kind', 'target_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}
