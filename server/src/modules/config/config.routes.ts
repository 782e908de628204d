import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { configApi } from '#core/api/config';
import { routeOf } from '../../lib/contract.js';

/** GET /config: the public settings of the deployment (see PublicConfig). */
export const configRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.route({
    ...routeOf(configApi.get),
    handler: async () => ({
      googleClientId: app.config.googleClientId ?? null,
      tenorEnabled: !!app.config.tenorKey,
      mediaUrl: app.config.mediaUrl ?? null,
      federation: app.config.federation,
    }),
  });
};
