import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { groupsApi } from '#core/api/groups';
import { reportsApi } from '#core/api/reports';
import { actionRoute, message, onceRoute, viewerRoute } from '../../lib/handlers.js';
import { contextOf, inNewTransaction } from '../../lib/service-context.js';
import { removePostMedia } from '../posts/posts.service.js';
import * as moderation from './moderation.service.js';
import * as service from './reports.service.js';

/**
 * POST /report: a post, comment or user reported to the moderators; the instance moderators'
 * queue of open reports, the actions on them and the moderation log; and a group's own queue, log
 * and actions (under /group/{name}/reports), settled by its owner and admins.
 */
export const reportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // An offline client resends with its Idempotency-Key: the lost answer is replayed, not refused as already reported.
  app.route(
    onceRoute(
      app,
      reportsApi.report,
      async (ctx, request, viewer) => {
        await service.storeReport(ctx, viewer, request.body);
        return message('report_received');
      },
      { before: (request, viewer) => service.checkReport(contextOf(app), viewer, request.body) },
    ),
  );

  app.route(viewerRoute(reportsApi.queue, (request, viewer) => moderation.moderatorQueue(contextOf(app), viewer, request.query)));
  app.route(viewerRoute(reportsApi.log, (request, viewer) => moderation.moderatorLog(contextOf(app), viewer, request.query)));
  app.route(
    viewerRoute(reportsApi.act, async (request, viewer) => {
      const input = { reportId: request.params.reportId, action: request.body.action };
      const done = await inNewTransaction(app, (ctx) => moderation.moderatorAct(ctx, viewer, input));
      // The content's media goes once the deletion has committed.
      await removePostMedia(app.storage, done.mediaKeys, request.log);
      return message(done.info);
    }),
  );
  const suspensionRoute = (e: typeof reportsApi.suspend | typeof reportsApi.unsuspend, suspend: boolean) =>
    actionRoute(e, suspend ? 'user_suspended' : 'user_unsuspended', (request, viewer) =>
      inNewTransaction(app, (ctx) => moderation.setSuspension(ctx, viewer, { userId: request.params.userId, suspend })),
    );
  app.route(suspensionRoute(reportsApi.suspend, true));
  app.route(suspensionRoute(reportsApi.unsuspend, false));

  app.route(
    viewerRoute(groupsApi.reportQueue, (request, viewer) =>
      moderation.groupQueue(contextOf(app), viewer, { nameOrId: request.params.name, query: request.query }),
    ),
  );
  app.route(
    viewerRoute(groupsApi.reportLog, (request, viewer) => moderation.groupLog(contextOf(app), viewer, { nameOrId: request.params.name, query: request.query })),
  );
  app.route(
    viewerRoute(groupsApi.actOnReport, async (request, viewer) => {
      const input = { nameOrId: request.params.name, reportId: request.params.reportId, action: request.body.action };
      const done = await inNewTransaction(app, (ctx) => moderation.groupAct(ctx, viewer, input));
      await removePostMedia(app.storage, done.mediaKeys, request.log);
      return message(done.info);
    }),
  );
};
