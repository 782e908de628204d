import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { reportsApi } from '#core/api/reports';
import { routeOf } from '../../lib/contract.js';
import { actionRoute, message, viewerRoute } from '../../lib/handlers.js';
import { idempotentRequest, runOnce } from '../../lib/idempotency.js';
import * as moderation from './moderation.service.js';
import * as service from './reports.service.js';

/**
 * POST /report: a post, comment or user reported to the moderators; the instance moderators'
 * queue of open reports, the actions on them and the moderation log. A group's own queue and log
 * (under /group/{name}/reports) are served by the groups module's routes through this module's
 * moderation service.
 */
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

  app.route(viewerRoute(reportsApi.queue, (request, viewer) => moderation.moderatorQueue(app, viewer, request.query)));
  app.route(viewerRoute(reportsApi.log, (request, viewer) => moderation.moderatorLog(app, viewer, request.query)));
  app.route({
    ...routeOf(reportsApi.act),
    handler: async (request) => {
      const viewer = await request.requireViewer();
      return message(await moderation.moderatorAct(app, viewer, request.params.reportId, request.body.action));
    },
  });
  app.route(actionRoute(reportsApi.suspend, 'user_suspended', (request, viewer) => moderation.setSuspension(app, viewer, request.params.userId, true)));
  app.route(actionRoute(reportsApi.unsuspend, 'user_unsuspended', (request, viewer) => moderation.setSuspension(app, viewer, request.params.userId, false)));
};
