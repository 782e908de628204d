import { reportsApi } from '#core/api/reports';
import { callApi } from '../../api/client';
import { toast } from '../../toast';
import { type OutboxHandler, type OutboxRowOf, idempotent } from './handler';

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
