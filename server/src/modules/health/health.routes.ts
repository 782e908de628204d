import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sql } from 'kysely';
import { healthApi } from '#core/api/health';
import { routeWithFaults } from '../../lib/contract.js';

/** 200 once the database answers: what a load balancer polls before sending traffic. */
export const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.route({
    // A server fault rather than a refusal, so the contract's replies (successes) do not hold it.
    ...routeWithFaults(healthApi.check, [503]),
    handler: async (_request, reply) => {
      try {
        await sql`select 1`.execute(app.db);
        return { status: 'ok' as const, database: app.dialect };
      } catch (err) {
        app.log.error({ err }, 'health check: database unreachable');
        return reply.status(503).send({ message: 'error/server_error' });
      }
    },
  });
};
