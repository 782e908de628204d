import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { reportsApi } from '#core/api/reports';
import { routeOf } from '../../lib/contract.js';
import { message } from '../../lib/handlers.js';
import { idempotentRequest, runOnce } from '../../lib/idempotency.js';
import * as service from './reports.service.js';

/** POST /report: a post, comment or user reported to the moderators. */
export const reportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.route({
    ...routeOf(reportsApi.report),
    handler: async (request) => {
      const viewer = await request.requireViewer();
      await service.checkReport(app, viewer, request.body);
      // An offline client resends with its Idempotency-Key: the lost answer is replayed, not refused as already reported.
      const result = await runOnce(app.db, viewer.id, idempotentRequest(request), async (trx) => {
        await service.storeReport(trx, viewer, request.body);
        return { status: 200, body: message('report_received') };
      });
      return result.body;
    },
  });
};
