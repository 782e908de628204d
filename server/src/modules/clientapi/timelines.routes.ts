import type { FastifyInstance } from 'fastify';
import { clientReadsApi } from '#core/api/client-reads';
import { contextOf } from '../../lib/service-context.js';
import { clientCaller, requireScope } from './client-caller.js';
import type { ClientPageQuery } from './client-paging.js';
import { entityRoute, pagedStatuses, readerOf } from './client-route.js';
import { type PublicQuery, favourites, homeTimeline, publicTimeline, tagTimeline, trendingStatuses } from './timelines.service.js';

type TimelineQuery = ClientPageQuery & { only_media?: boolean };

/** The timelines: everyone's posts, a hashtag's, the caller's home and likes, and what is popular. */
export function timelineRoutes(app: FastifyInstance): void {
  app.route({
    ...entityRoute(clientReadsApi.publicTimeline),
    handler: async (request, reply) => {
      const page = await publicTimeline(contextOf(app), await readerOf(request), request.query as PublicQuery);
      return pagedStatuses(request, reply, { items: page.statuses, full: page.full });
    },
  });
  app.route({
    ...entityRoute(clientReadsApi.tagTimeline),
    handler: async (request, reply) => {
      const input = { tag: (request.params as { hashtag: string }).hashtag, query: request.query as TimelineQuery };
      const page = await tagTimeline(contextOf(app), await readerOf(request), input);
      return pagedStatuses(request, reply, { items: page.statuses, full: page.full });
    },
  });
  app.route({
    ...entityRoute(clientReadsApi.homeTimeline),
    handler: async (request, reply) => {
      const page = await homeTimeline(contextOf(app), await requireScope(request, 'read:statuses'), request.query as ClientPageQuery);
      return pagedStatuses(request, reply, { items: page.statuses, full: page.full });
    },
  });
  app.route({
    ...entityRoute(clientReadsApi.favourites),
    handler: async (request, reply) => {
      // A visitor has liked nothing; a signed-in app needs the scope to read the likes.
      const viewer = (await clientCaller(request)) ? await requireScope(request, 'read:favourites') : null;
      const page = await favourites(contextOf(app), viewer, request.query as ClientPageQuery);
      return pagedStatuses(request, reply, { items: page.statuses, full: page.full, first: page.first, last: page.last });
    },
  });
  app.route({
    ...entityRoute(clientReadsApi.trendingStatuses),
    handler: async (request) => trendingStatuses(contextOf(app), request.query as ClientPageQuery),
  });
}
