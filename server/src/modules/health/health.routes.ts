import { Type } from '@sinclair/typebox';
import { sql } from 'kysely';
import type { FastifyPluginAsync } from 'fastify';

/** 200 once the database answers: what a load balancer polls before sending traffic. */
export const healthRoutes: FastifyPluginAsync = async (app) => {
  app.get(
    '/health',
    {
      schema: {
        response: {
          200: Type.Object({ status: Type.Literal('ok'), database: Type.String() }),
          503: Type.Object({ message: Type.String() }),
        },
      },
    },
    async (_request, reply) => {
      try {
        await sql`select 1`.execute(app.db);
        return { status: 'ok' as const, database: app.dialect };
      } catch (err) {
        app.log.error({ err }, 'health check: database unreachable');
        return reply.status(503).send({ message: 'error/server_error' });
      }
    },
  );
};
