import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type InfoKey, infoMessage } from '#core/errors';
import type { MessageReplies, MessageReply } from '#core/api/common';
import type { BodyOf, Endpoint, ParamsOf, QueryOf, ReplyOf } from '#core/api/endpoint';
import type { Viewer } from './viewer.js';
import { routeOf } from './contract.js';
import { idempotentRequest, runOnce } from './idempotency.js';
import { type ServiceContext, contextOf } from './service-context.js';

/** `{message: "info/<key>"}`: the answer of a call that reports only what was done. */
export const message = (key: InfoKey): MessageReply => ({ message: infoMessage(key) });

/** The request of a route served from the contract entry `E`, typed by its schemas. */
export type RequestOf<E extends Endpoint> = FastifyRequest<{ Params: ParamsOf<E>; Querystring: QueryOf<E>; Body: BodyOf<E> }>;

/**
 * The shorthands of a signed-in caller's route, each built on routeOf: the caller must be signed
 * in (no token answers no_token) before any of the call's work. Three, because what the handler
 * must do around the service differs, not only its words:
 * - viewerRoute: the service's value is the answer;
 * - actionRoute: the answer only reports what was done (`{message: "info/<key>"}`), the commonest
 *   shape of a change, so its route names the key and the change and nothing else;
 * - onceRoute: a write an offline client may send again, kept once per Idempotency-Key.
 * A route a visitor may call, or whose handler answers through `reply`, spreads routeOf itself.
 */

/**
 * The route of a signed-in caller's call: `answer` gets the request and the caller and gives the
 * call's answer.
 */
export function viewerRoute<const E extends Endpoint>(e: E, answer: (request: RequestOf<E>, viewer: Viewer) => Promise<ReplyOf<E>> | ReplyOf<E>) {
  return {
    ...routeOf(e),
    handler: async (request: RequestOf<E>): Promise<ReplyOf<E>> => answer(request, await request.requireViewer()),
  };
}

/**
 * The route of a signed-in caller's call that answers only what was done: `run` makes the
 * change, and the answer is the message of `info`.
 */
export function actionRoute<const E extends Endpoint>(
  e: E & { replies: typeof MessageReplies },
  info: InfoKey,
  run: (request: RequestOf<E>, viewer: Viewer) => Promise<unknown>,
) {
  return {
    ...routeOf(e),
    handler: async (request: RequestOf<E>): Promise<MessageReply> => {
      await run(request, await request.requireViewer());
      return message(info);
    },
  };
}

/** How a route kept once per key answers and what runs before its transaction (see onceRoute). */
export interface OnceOptions<E extends Endpoint> {
  /** The status of a first answer (a replay answers the stored one): 201 for a call that creates. */
  status?: 200 | 201;
  /** The route's own settings (visitorCacheWrite). */
  config?: FastifyContextConfig;
  /**
   * Work before the transaction, outside it: a check on the pool, or fetching what the write will
   * name from another server, which must not hold a transaction open while it waits.
   */
  before?: (request: RequestOf<E>, viewer: Viewer) => Promise<void>;
}

/**
 * The route of a signed-in caller's write that an offline client may send again: `write` runs on
 * a transaction kept once per Idempotency-Key (runOnce in idempotency.ts), so a request sent again
 * with its key gets the stored answer instead of making the change twice, and a refused one rolls
 * back with its key. Every such write of the API goes through here.
 */
export function onceRoute<const E extends Endpoint>(
  app: FastifyInstance,
  e: E,
  write: (ctx: ServiceContext, request: RequestOf<E>, viewer: Viewer) => Promise<ReplyOf<E>>,
  { status = 200, config, before }: OnceOptions<E> = {},
) {
  return {
    ...routeOf(e, config),
    handler: async (request: RequestOf<E>, reply: FastifyReply): Promise<ReplyOf<E>> => {
      const viewer = await request.requireViewer();
      if (before) await before(request, viewer);
      const result = await runOnce(app.db, viewer.id, idempotentRequest(request), async (trx) => ({
        status,
        body: await write(contextOf(app, trx), request, viewer),
      }));
      reply.status(result.status);
      return result.body;
    },
  };
}
