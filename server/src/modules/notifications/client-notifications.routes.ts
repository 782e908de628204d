import type { FastifyInstance } from 'fastify';
import { type NotificationsQuery, clientNotificationsApi } from '#core/api/client-notifications';
import { contextOf } from '../../lib/service-context.js';
import { requireScope } from '../clientapi/client-caller.js';
import { entityRoute, listOf, paged } from '../clientapi/client-route.js';
import {
  clearNotifications,
  dismissNotification,
  getClientNotification,
  listClientNotifications,
  unreadNotificationCount,
} from './client-notifications.service.js';

type IdParams = { id: string };

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
      const types = [...listOf(query['types[]']), ...listOf(query.types)];
      const excluded = [...listOf(query['exclude_types[]']), ...listOf(query.exclude_types)];
      const page = await listClientNotifications(ctx, viewer, { query, types, excluded });
      return paged(request, reply, { items: page.notifications, full: page.full, first: page.first, last: page.last });
    },
  });
  app.route({
    ...entityRoute(clientNotificationsApi.unreadCount),
    handler: async (request) => unreadNotificationCount(ctx, await requireScope(request, 'read:notifications')),
  });
  app.route({
    ...entityRoute(clientNotificationsApi.notification),
    handler: async (request) => getClientNotification(ctx, await requireScope(request, 'read:notifications'), (request.params as IdParams).id),
  });
  app.route({
    ...entityRoute(clientNotificationsApi.dismiss),
    handler: async (request) => dismissNotification(ctx, await requireScope(request, 'write:notifications'), (request.params as IdParams).id),
  });
  app.route({
    ...entityRoute(clientNotificationsApi.clear),
    handler: async (request) => clearNotifications(ctx, await requireScope(request, 'write:notifications')),
  });
}
