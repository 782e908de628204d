import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { idempotentRequest, runOnce } from '../../lib/idempotency.js';
import { type ServiceContext, contextOf } from '../../lib/service-context.js';
import type { Viewer } from '../../lib/viewer.js';
import { requireScope } from './client-caller.js';

/**
 * A write of the client API: the token must grant `scope`, `before` runs outside the transaction
 * (looking up accounts of other servers), and the change runs on a transaction kept once per
 * Idempotency-Key, as every write of the REST API is, so an app sending a status again gets the
 * same one back.
 */
export function clientWrite<T>(
  app: FastifyInstance,
  scope: string,
  write: (ctx: ServiceContext, request: FastifyRequest, viewer: Viewer) => Promise<T>,
  before?: (request: FastifyRequest, viewer: Viewer) => Promise<void>,
) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<T> => {
    const viewer = await requireScope(request, scope);
    if (before) await before(request, viewer);
    const result = await runOnce(app.db, viewer.id, idempotentRequest(request), async (trx) => ({ status: 200, body: await write(contextOf(app, trx), request, viewer) }));
    reply.status(result.status);
    return result.body;
  };
}
