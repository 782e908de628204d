import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { dialectOf } from '../../db/dialect.js';
import { type ReadyReply, ReadyReply as ReadySchema, healthApi } from '#core/api/health';
import { routeOf, routeWithFaults, routeWithReplies } from '../../lib/contract.js';

/** How long a readiness probe waits for each check: a hung database must fail the probe, not hold it. */
const CHECK_TIMEOUT_MS = 3_000;

type Check = 'database' | 'storage';

async function databaseAnswers(app: FastifyInstance): Promise<void> {
  await sql`select 1`.execute(app.db);
}

/** 'ok' when `probe` resolves in time; otherwise logged, and 'unavailable'. */
async function check(app: FastifyInstance, name: Check, probe: () => Promise<void>): Promise<ReadyReply['status']> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([probe(), late]);
    return 'ok';
  } catch (err) {
    app.log.error({ err }, `health check: ${name} unavailable`);
    return 'unavailable';
  } finally {
    clearTimeout(timer);
  }
}

/**
 * What a load balancer or an orchestrator polls: /health (the database answers), /health/live (the
 * process answers: restart it when this fails) and /health/ready (every thing a request needs
 * answers: send it traffic only while this holds).
 */
export const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.route({
    // A server fault rather than a refusal, so the contract's replies (successes) do not hold it.
    ...routeWithFaults(healthApi.check, [503]),
    handler: async (_request, reply) => {
      if ((await check(app, 'database', () => databaseAnswers(app))) === 'ok') return { status: 'ok' as const, database: dialectOf(app.db) };
      return reply.status(503).send({ message: 'error/server_error' });
    },
  });

  app.route({
    ...routeOf(healthApi.live),
    handler: async () => ({ status: 'ok' as const }),
  });

  app.route({
    ...routeWithReplies(healthApi.ready, { 503: ReadySchema }),
    handler: async (_request, reply) => {
      const [database, storage] = await Promise.all([check(app, 'database', () => databaseAnswers(app)), check(app, 'storage', () => app.storage.ready())]);
      const ok = database === 'ok' && storage === 'ok';
      return reply.status(ok ? 200 : 503).send({ status: ok ? 'ok' : 'unavailable', checks: { database, storage } });
    },
  });
};
