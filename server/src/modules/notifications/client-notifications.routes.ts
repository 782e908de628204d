import type { FastifyInstance } from 'fastify';
import { type NotificationsQuery, clientNotificationsApi } from '#core/api/client-notifications';
import { contextOf } from '../../lib/service-context.js';
import { requireScope } from '../clientapi/client-caller.js';
import { arrayParam, entityRoute, idOf, paged } from '../clientapi/client-route.js';
import {
  clearNotifications,
  dismissNotification,
  getClientNotification,
  listClientNotifications,
  unreadNotificationCount,
} from './client-notifications.service.js';

/**
 * The caller's notifications in the client API: the list by types, one, dismissing one or all, and
 * the unread count. Added to the client API's scope by the composition root, since no module
 * imports notifications.
 */
export function clientNotificationRoutes(app: FastifyInstance): void {
  const ctx = contextOf(app);
  app.route({
    ...entityRoute(clientNotificationsApi.notifications),
    handler: async (request, reply) => {
      const viewer = await requireScope(request, 'read:notifications');
      const query = request.query as NotificationsQuery;
      const page = await listClientNotifications(ctx, viewer, { query, types: arrayParam(query, 'types'), excluded: arrayParam(query, 'exclude_types') });
      return paged(request, reply, { items: page.notifications, full: page.full, first: page.first, last: page.last });
    },
  });
  app.route({
    ...entityRoute(clientNotificationsApi.unreadCount),
    handler: async (request) => unreadNotificationCount(ctx, await requireScope(request, 'read:notifications')),
  });
  app.route({
    ...entityRoute(clientNotificationsApi.notification),
    handler: async (request) => getClientNotification(ctx, await requireScope(request, 'read:notifications'), idOf(request)),
  });
  app.route({
    ...entityRoute(clientNotificationsApi.dismiss),
    handler: async (request) => dismissNotification(ctx, await requireScope(request, 'write:notifications'), idOf(request)),
  });
  app.route({
    ...entityRoute(clientNotificationsApi.clear),
    handler: async (request) => clearNotifications(ctx, await requireScope(request, 'write:notifications')),
  });
}
