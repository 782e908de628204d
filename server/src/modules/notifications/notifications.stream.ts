import type { FastifyReply } from 'fastify';
import { REQUEST_ID_HEADER } from '../../lib/request-id.js';
import type { ServiceContext } from '../../lib/service-context.js';
import type { Viewer } from '../../plugins/auth.js';
import { sessionStillValid, unread } from './notifications.service.js';

const STREAM_COOKIE = 'kruh_stream';
/** How long the browser keeps the stream's cookie: an open stream outlives it, a reconnection asks for a new one. */
const STREAM_COOKIE_SECONDS = 3600;

/** The Set-Cookie value carrying a session to the stream's path only. */
export function streamCookie(token: string, path: string, secure: boolean): string {
  return `${STREAM_COOKIE}=${token}; Path=/api${path}; Max-Age=${STREAM_COOKIE_SECONDS}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

/** The session in a request's Cookie header, if it carries the stream's cookie. */
export function streamCookieOf(header: string | undefined): string | undefined {
  for (const part of header?.split(';') ?? []) {
    const [name, ...value] = part.trim().split('=');
    if (name === STREAM_COOKIE && value.length > 0) return value.join('=') || undefined;
  }
  return undefined;
}

/** A comment line often enough that proxies and browsers keep an idle stream open (tests shorten it). */
export const streamTiming = { heartbeatMs: 25_000 };

/**
 * GET /notification/stream: Server-Sent Events. Sends `event: unread` with {count} on connect and
 * whenever the viewer's unread count changes, whichever server process made the change.
 */
export async function openUnreadStream(ctx: ServiceContext, viewer: Viewer, address: string, reply: FastifyReply): Promise<void> {
  const { app } = ctx;
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-store, no-transform',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
    // A hijacked reply sends none of the headers set on it; this one matches the stream to its logs.
    [REQUEST_ID_HEADER]: reply.request.id,
  });
  res.write('retry: 5000\n\n');

  let closed = false;
  let last = -1;
  let running = false;
  let dirty = false;
  // Signals coalesce: while a count is being read, later signals only ask for one more read.
  const refresh = async () => {
    dirty = true;
    if (running) return;
    running = true;
    try {
      while (dirty && !closed) {
        dirty = false;
        const count = await unread(ctx, viewer);
        if (count !== last && !closed) {
          last = count;
          res.write(`event: unread\ndata: ${JSON.stringify({ count })}\n\n`);
        }
      }
    } catch (err) {
      app.log.warn({ err }, 'notification stream could not read the unread count');
    } finally {
      running = false;
    }
  };

  const untrack = app.notificationHub.track(res, { userId: viewer.id, address });
  // Each heartbeat also re-checks the session: a password change (token_version bump) or a
  // deleted account ends the stream, as it would refuse the next request.
  const heartbeat = setInterval(() => {
    void sessionStillValid(ctx, viewer).then(
      (valid) => (valid ? res.write(': heartbeat\n\n') : res.end()),
      () => res.write(': heartbeat\n\n'),
    );
  }, streamTiming.heartbeatMs);
  let unsubscribe = () => {};
  res.on('close', () => {
    closed = true;
    clearInterval(heartbeat);
    unsubscribe();
    untrack();
  });
  // Subscribe before the first read, so a change between the two is not lost.
  const off = await app.notificationHub.subscribe(viewer.id, () => void refresh());
  if (closed) off();
  else unsubscribe = off;
  await refresh();
}
