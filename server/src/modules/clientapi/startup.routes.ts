import type { FastifyInstance } from 'fastify';
import type { Endpoint } from '#core/api/endpoint';
import { clientReadsApi } from '#core/api/client-reads';
import type { MarkerTimeline } from '#core/api/client-entities';
import { contextOf, inNewTransaction } from '../../lib/service-context.js';
import { requireScope } from './client-caller.js';
import { pageSize } from './client-paging.js';
import { arrayParam, entityRoute, readerOf } from './client-route.js';
import { extendedDescription, markers, preferences, saveMarkers, suggestions } from './startup.service.js';

/** What Kruh has none of: apps ask at start and are answered an empty list, never an error. */
const NOTHING_HERE: readonly Endpoint[] = [
  clientReadsApi.customEmojis,
  clientReadsApi.filters,
  clientReadsApi.lists,
  clientReadsApi.followedTags,
  clientReadsApi.trendingTags,
  clientReadsApi.trendingLinks,
  clientReadsApi.announcements,
  clientReadsApi.bookmarks,
  clientReadsApi.conversations,
  clientReadsApi.domainBlocks,
];

type MarkersBody = Partial<Record<MarkerTimeline, { last_read_id: string }>> & Partial<Record<`${MarkerTimeline}[last_read_id]`, string>>;

/** The calls apps make as they start: empty lists, suggestions, the about text, preferences, read positions. */
export function startupRoutes(app: FastifyInstance): void {
  for (const entry of NOTHING_HERE) app.route({ ...entityRoute(entry), handler: async () => [] });
  app.route({
    ...entityRoute(clientReadsApi.suggestions),
    handler: async (request) => suggestions(contextOf(app), await readerOf(request), pageSize(request.query as { limit?: number })),
  });
  app.route({ ...entityRoute(clientReadsApi.extendedDescription), handler: async () => extendedDescription(contextOf(app)) });
  app.route({ ...entityRoute(clientReadsApi.preferences), handler: async (request) => preferences(await requireScope(request, 'read:accounts')) });
  app.route({
    ...entityRoute(clientReadsApi.markers),
    handler: async (request) => {
      const viewer = await requireScope(request, 'read:statuses');
      return markers(contextOf(app), viewer, arrayParam(request.query, 'timeline'));
    },
  });
  app.route({
    ...entityRoute(clientReadsApi.saveMarkers),
    handler: async (request) => {
      const viewer = await requireScope(request, 'write:statuses');
      // JSON nests the position, a form names it `home[last_read_id]`.
      const body = (request.body ?? {}) as MarkersBody;
      const positions = {
        home: body.home?.last_read_id ?? body['home[last_read_id]'],
        notifications: body.notifications?.last_read_id ?? body['notifications[last_read_id]'],
      };
      return inNewTransaction(app, (ctx) => saveMarkers(ctx, viewer, positions));
    },
  });
}
