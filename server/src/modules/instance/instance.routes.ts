import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { instanceApi } from '#core/api/instance';
import { routeOf } from '../../lib/contract.js';
import { infoMessage } from '#core/errors';
import { viewerRoute } from '../../lib/handlers.js';
import { contextOf, inNewTransaction } from '../../lib/service-context.js';
import * as service from './instance.service.js';

/** /instance: what the instance says about itself, read by anyone and set by its moderators. */
export const instanceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.route({ ...routeOf(instanceApi.get), handler: () => service.instanceSettings(contextOf(app)) });
  app.route(
    viewerRoute(instanceApi.update, async (request, viewer) => {
      const instance = await inNewTransaction(app, (ctx) => service.updateInstanceSettings(ctx, viewer, request.body));
      return { message: infoMessage('instance_updated'), instance };
    }),
  );
};
