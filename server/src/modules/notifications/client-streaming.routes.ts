import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { type StreamingQuery, clientStreamingApi } from '#core/api/client-streaming';
import { AppError } from '../../lib/app-error.js';
import { contextOf } from '../../lib/service-context.js';
import { type ClientCaller, clientCaller } from '../clientapi/client-caller.js';
import { entityRoute } from '../clientapi/client-route.js';
import { tokenHolder } from '../clientapi/oauth.service.js';
import { ClientStream, mayStream, subscriptionOf } from './client-streaming.service.js';
import { streamTiming } from './notifications.stream.js';

/** Messages an app may send before its stream is set up; later ones wait for nothing. */
const EARLY_MESSAGES = 16;

/**
 * The token of a socket's opening request when its Authorization header has none: browsers cannot
 * set headers on a WebSocket, so apps send it as the WebSocket protocol or in the address.
 */
function socketToken(request: FastifyRequest): string | undefined {
  const protocol = request.headers['sec-websocket-protocol']?.split(',')[0]?.trim();
  return (request.query as StreamingQuery).access_token || protocol || undefined;
}

/** The app's caller, refused unless its token may read statuses or notifications. */
async function streamingCaller(request: FastifyRequest): Promise<ClientCaller> {
  const caller = await clientCaller(request, socketToken(request));
  if (!caller) throw new AppError(401, 'no_token');
  if (!mayStream(caller.scopes)) throw new AppError(403, 'insufficient_scope');
  return caller;
}

/**
 * GET /api/v1/streaming: the live statuses and notifications of fediverse apps, over a WebSocket
 * (and its health check). Lives beside the notifications, which it streams and which no other
 * module may import.
 */
export function clientStreamingRoutes(app: FastifyInstance): void {
  const ctx = contextOf(app);
  app.route({
    ...entityRoute(clientStreamingApi.health),
    handler: async (_request, reply) => reply.type('text/plain; charset=utf-8').send('OK'),
  });
  app.route({
    ...entityRoute(clientStreamingApi.streaming),
    // Refusals answer the opening request in plain HTTP, before any socket is opened.
    preHandler: async (request) => {
      const caller = await streamingCaller(request);
      const query = request.query as StreamingQuery;
      if (query.stream !== undefined) subscriptionOf(caller.viewer, caller.scopes, query);
    },
    handler: async () => {
      throw new AppError(400, 'websocket_required');
    },
    wsHandler: (socket: WebSocket, request: FastifyRequest) => serve(socket, request),
  });

  /**
   * One app's socket, from its opening to its closing: the signals of posts and of its viewer's
   * notifications reach its stream while it is open, within its owner's caps on open streams.
   */
  function serve(socket: WebSocket, request: FastifyRequest): void {
    const opened = Date.now();
    const log = request.log.child({ address: request.ip });
    let open = true;
    let stream: ClientStream | null = null;
    // Messages may come before the stream is set up: a few wait for it, in order.
    const early: string[] = [];
    const closers: (() => void)[] = [];
    const closeAll = () => {
      for (const close of closers.splice(0)) close();
    };
    socket.on('message', (data) => {
      const text = data.toString();
      if (stream) stream.received(text);
      else if (early.length < EARLY_MESSAGES) early.push(text);
    });
    socket.on('close', () => {
      open = false;
      closeAll();
      log.debug({ ms: Date.now() - opened }, 'client stream closed');
    });

    const start = async () => {
      // Asked in the opening request's hook already: this is that answer, kept for the request.
      const caller = await streamingCaller(request);
      const outlet = { send: (message: string) => open && socket.send(message), get open() { return open; } };
      const current = new ClientStream(ctx, caller, outlet);
      closers.push(app.clientStreams.track({ end: () => socket.close(1000) }, { userId: caller.viewer.id, address: request.ip }));
      // Listening before the first subscription reads where the notifications stand, so none falls between.
      closers.push(await app.postSignals.subscribe((change, postId) => current.postChanged(change, postId)));
      closers.push(await app.notificationHub.subscribe(caller.viewer.id, () => current.notificationsChanged()));
      const heartbeat = setInterval(() => void stillSignedIn(caller.token.secret).then((valid) => (valid ? socket.ping() : socket.close(1008))), streamTiming.heartbeatMs);
      closers.push(() => clearInterval(heartbeat));
      if (!open) return closeAll();
      stream = current;
      log.debug({ userId: caller.viewer.id }, 'client stream opened');
      const query = request.query as StreamingQuery;
      if (query.stream !== undefined) current.received(JSON.stringify({ type: 'subscribe', stream: query.stream, tag: query.tag }));
      for (const message of early.splice(0)) current.received(message);
    };
    start().catch((err: unknown) => {
      log.warn({ err }, 'client stream could not open');
      socket.close(1011);
    });
  }

  /** Whether the socket's token is still in force: a revoked token or a changed password ends the stream. */
  async function stillSignedIn(token: string): Promise<boolean> {
    // A failed read is no proof the token went: the stream stays until the next heartbeat asks again.
    return (await tokenHolder(ctx, token).catch(() => 'unknown' as const)) !== null;
  }
}
