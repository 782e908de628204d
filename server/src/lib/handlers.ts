import type { FastifyRequest } from 'fastify';
import { type InfoKey, infoMessage } from '#core/errors';
import type { MessageReplies, MessageReply } from '#core/api/common';
import type { BodyOf, Endpoint, ParamsOf, QueryOf, ReplyOf } from '#core/api/endpoint';
import type { Viewer } from './viewer.js';
import { routeOf } from './contract.js';

/** `{message: "info/<key>"}`: the answer of a call that reports only what was done. */
export const message = (key: InfoKey): MessageReply => ({ message: infoMessage(key) });

/** The request of a route served from the contract entry `E`, typed by its schemas. */
export type RequestOf<E extends Endpoint> = FastifyRequest<{ Params: ParamsOf<E>; Querystring: QueryOf<E>; Body: BodyOf<E> }>;

/**
 * The route of a signed-in caller's call: the caller must be signed in (no token answers
 * no_token), and `answer` gets the request and the caller and gives the call's answer.
 * Spread into `app.route(...)` like routeOf.
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
