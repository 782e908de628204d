import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { reportsApi } from '#core/api/reports';
import { actionRoute } from '../../lib/handlers.js';
import * as service from './reports.service.js';

/** POST /report: a post, comment or user reported to the moderators. */
export const reportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.route(actionRoute(reportsApi.report, 'report_received', (request, viewer) => service.report(app, viewer, request.body)));
};
