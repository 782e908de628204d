import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { infoMessage } from '#core/errors';
import { unauthorized } from '../../lib/app-error';
import { PageQuery } from '../../lib/paging';
import { ErrorReplies, IdParams, MessageReply } from '../../lib/schemas';
import { NotificationList, StreamQuery, UnreadReply } from './notifications.schemas';
import * as service from './notifications.service';
import { openUnreadStream } from './notifications.stream';

/** The stream is written by hand, not serialised; its 200 is declared so the API document shows it. */
const StreamReplies = {
  200: { description: 'Server-Sent Events: `event: unread` with {count}', content: { 'text/event-stream': { schema: Type.String() } } },
  ...ErrorReplies,
};

/** Notifications plus the unread badge, mark-all-seen and a live stream of the count. */
export const notificationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const listOptions = {
    schema: { querystring: PageQuery, response: { 200: NotificationList, ...ErrorReplies } },
    config: { invalidKey: 'invalid_id' as const },
  };
  const listHandler = async (request: FastifyRequest<{ Querystring: PageQuery }>) => {
    const viewer = await request.requireViewer();
    return service.listNotifications(app, viewer, request.query);
  };
  // The spec's path has the trailing slash; the bare path answers the same.
  app.get('/notification/', listOptions, listHandler);
  app.get('/notification', listOptions, listHandler);

  app.get('/notification/unread', { schema: { response: { 200: UnreadReply, ...ErrorReplies } } }, async (request) => {
    const viewer = await request.requireViewer();
    return { count: await service.unreadCount(app, viewer.id) };
  });

  app.patch('/notification/seen', { schema: { response: { 200: UnreadReply, ...ErrorReplies } } }, async (request) => {
    const viewer = await request.requireViewer();
    await service.markAllSeen(app, viewer);
    return { count: 0 };
  });

  // EventSource cannot send headers, so the token may come in the query string.
  app.get('/notification/stream', { schema: { querystring: StreamQuery, response: StreamReplies } }, async (request, reply) => {
    const token = request.query.token;
    const viewer = token ? await app.viewerFromToken(token) : await request.viewer();
    if (!viewer) throw unauthorized('no_token');
    await openUnreadStream(app, viewer, reply);
    return reply;
  });

  app.delete('/notification/all', { schema: { response: { 200: MessageReply, ...ErrorReplies } } }, async (request) => {
    const viewer = await request.requireViewer();
    await service.deleteAllNotifications(app, viewer);
    return { message: infoMessage('notifications_cleared') };
  });

  app.delete(
    '/notification/:id',
    { schema: { params: IdParams, response: { 200: MessageReply, ...ErrorReplies } }, config: { invalidKey: 'invalid_id' } },
    async (request) => {
      const viewer = await request.requireViewer();
      await service.deleteNotification(app, viewer, request.params.id);
      return { message: infoMessage('notification_deleted') };
    },
  );
};
