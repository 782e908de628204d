import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { notificationsApi } from '#core/api/notifications';
import { unauthorized } from '../../lib/app-error.js';
import { routeOf } from '../../lib/contract.js';
import { contextOf } from '../../lib/service-context.js';
import { type RequestOf, actionRoute, viewerRoute } from '../../lib/handlers.js';
import { bearer, type Viewer } from '../../plugins/auth.js';
import * as service from './notifications.service.js';
import { openUnreadStream, streamCookie, streamCookieOf } from './notifications.stream.js';

/** Notifications plus the unread badge, mark-all-seen and a live stream of the count. */
export const notificationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = contextOf(app);
  // The documented path has the trailing slash; the bare path answers the same, by one handler.
  const list = (request: RequestOf<typeof notificationsApi.list>, viewer: Viewer) => service.listNotifications(ctx, viewer, request.query);
  app.route(viewerRoute<typeof notificationsApi.list>(notificationsApi.list, list));
  app.route(viewerRoute<typeof notificationsApi.listBare>(notificationsApi.listBare, list));

  app.route(viewerRoute(notificationsApi.unread, async (_request, viewer) => ({ count: await service.unread(ctx, viewer) })));

  app.route(
    viewerRoute(notificationsApi.seen, async (_request, viewer) => {
      await service.markAllSeen(ctx, viewer);
      return { count: 0 };
    }),
  );

  // The stream is written by hand, not serialised: its 200 is declared under its own content type
  // (not JSON) so the API document shows what the browser's EventSource reads.
  const stream = routeOf(notificationsApi.stream);
  app.route({
    ...stream,
    schema: {
      ...stream.schema,
      response: {
        ...stream.schema.response,
        200: {
          description: notificationsApi.stream.replies[200].description,
          content: { 'text/event-stream': { schema: notificationsApi.stream.replies[200] } },
        },
      },
    },
    // EventSource cannot send headers: the session comes in the stream's own cookie (or, from
    // clients before it, in the query string).
    handler: async (request, reply) => {
      const token = streamCookieOf(request.headers.cookie) ?? request.query.token;
      const viewer = token ? await app.viewerFromToken(token) : await request.viewer();
      if (!viewer) throw unauthorized('no_token');
      await openUnreadStream(ctx, viewer, request.ip, reply);
      return reply;
    },
  });

  // The cookie is sent on the stream's path alone, never to scripts (HttpOnly) nor from another
  // site; the stream checks the session it carries as any request's.
  app.route({
    ...routeOf(notificationsApi.streamCookie),
    handler: async (request, reply) => {
      const viewer = await request.requireViewer();
      const secure = app.config.publicUrl.startsWith('https:');
      void reply.header('set-cookie', streamCookie(bearer(request)!, notificationsApi.stream.path, secure));
      return { count: await service.unread(ctx, viewer) };
    },
  });

  app.route(actionRoute(notificationsApi.deleteAll, 'notifications_cleared', (_request, viewer) => service.deleteAllNotifications(ctx, viewer)));
  app.route(actionRoute(notificationsApi.delete, 'notification_deleted', (request, viewer) => service.deleteNotification(ctx, viewer, request.params.id)));
};
