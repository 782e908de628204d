import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import { redactUrl } from './log.js';

/**
 * The status logged for a request whose client went away before any answer was sent: what nginx
 * logs for it too, so the two logs read alike.
 */
export const CLIENT_CLOSED_REQUEST = 499;

/**
 * One log line per request, written when its answer has gone: method, route pattern (or, for a
 * path no route takes, the address with credentials hidden), status, time taken and the client's
 * address (as TRUST_PROXY lets the proxy tell it), with the request id as `reqId` like every line
 * the request logs. Fastify's own pair (incoming, completed) halved what a busy server could write
 * for the same information. A request the client ends first (a notification stream closed, a page
 * left mid-download) gets its line when the connection closes, which Fastify does not log.
 */
export class OneLinePerRequest extends LogController {
  private readonly logged = new WeakSet<FastifyRequest>();

  override incomingRequest(request: FastifyRequest, reply: FastifyReply): void {
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) this.closedByClient(request, reply);
    });
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    // An error here is the answer failing on its way out (the client gone mid-stream).
    if (error) this.write(request, { ...this.line(request, reply), err: error }, 'error');
    else this.write(request, this.line(request, reply), 'info');
  }

  private closedByClient(request: FastifyRequest, reply: FastifyReply): void {
    const status = reply.raw.headersSent ? reply.raw.statusCode : CLIENT_CLOSED_REQUEST;
    this.write(request, { ...this.line(request, reply), status, closedBy: 'client' }, 'info');
  }

  private line(request: FastifyRequest, reply: FastifyReply) {
    const route = request.routeOptions.url;
    return {
      method: request.method,
      ...(route ? { route } : { url: redactUrl(request.url) }),
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
      ip: request.ip,
    };
  }

  /** Once per request, however its end is told (an answer that fails on a closing connection may be both). */
  private write(request: FastifyRequest, line: object, level: 'info' | 'error'): void {
    if (this.logged.has(request)) return;
    this.logged.add(request);
    request.log[level](line, 'request');
  }
}
