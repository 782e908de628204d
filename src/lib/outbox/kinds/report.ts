import { reportsApi } from '#core/api/reports';
import { callApi } from '../../api/client';
import { type KruhDb, getDb } from '../../db/db';
import { withRoom } from '../../db/prune';
import { toast } from '../../toast';
import { freshRow, sendQueued } from '../queue';
import { type OutboxHandler, type OutboxRowOf, idempotent } from './handler';

/** A report to the moderators: what is reported and the reporter's reason. */
export interface ReportPayload {
  kind: 'post' | 'comment' | 'user';
  /** The post's, the comment's or the user's id. */
  id: string;
  reason: string;
}

declare module '../../db/db' {
  interface OutboxKinds {
    report: { payload: ReportPayload; target: string };
  }
}

/**
 * Reports a post, comment or user to the moderators. A second report of the same target while the
 * first still waits is not queued again: the server would only refuse it as already reported.
 */
export async function queueReport(payload: ReportPayload, db: KruhDb = getDb()): Promise<void> {
  const target = `report:${payload.kind}:${payload.id}`;
  await withRoom(db, () => db.transaction('rw', db.outbox, async () => {
    if ((await db.outbox.where('target').equals(target).count()) > 0) return;
    await db.outbox.add({ ...freshRow(), kind: 'report', target, payload, images: [] });
  }));
  sendQueued();
}

/**
 * A report to the moderators. Nothing local changes with the answer, so the reporter is told it
 * arrived; a refusal (already reported, one's own) is shown by the drain like any other.
 */
export const reportHandler: OutboxHandler<OutboxRowOf<'report'>> = {
  async send(_db, row) {
    await callApi(reportsApi.report, { body: row.payload }, idempotent(row));
    toast.info('info/report_received');
  },

  refusedFallback: 'invalid_report',

  // The reason was the reporter's only input and the toast says why it was refused; nothing to restore.
  giveBack: async () => {},
};
