import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import { redactUrl } from './log.js';

/**
 * One log line per request, written when its answer has gone: method, route pattern (or, for a
 * path no route takes, the address with credentials hidden), status and time taken, with the
 * request id as `reqId` like every line the request logs. Fastify's own pair (incoming,
 * completed) halved what a busy server could write for the same information.
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const route = request.routeOptions.url;
    const line = {
      method: request.method,
      ...(route ? { route } : { url: redactUrl(request.url) }),
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
    };
    // An error here is the answer failing on its way out (the client gone mid-stream).
    if (error) request.log.error({ ...line, err: error }, 'request');
    else request.log.info(line, 'request');
  }
}
