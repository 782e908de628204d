import type { FastifyInstance } from 'fastify';
import { clientWritesApi } from '#core/api/client-writes';
import { contextOf, inNewTransaction } from '../../lib/service-context.js';
import { removePostMedia } from '../posts/posts.service.js';
import { prepareTypedMentions } from '../remote/typed-mentions.js';
import { requireScope } from './client-caller.js';
import { entityRoute, idOf, readByIdRoute } from './client-route.js';
import { clientWrite } from './client-write-route.js';
import {
  type NewStatusBody,
  type StatusEditBody,
  createStatus,
  deleteStatus,
  editStatus,
  reblog,
  setFavourite,
  statusHistory,
  statusSource,
} from './statuses-write.service.js';

/** Statuses written by apps: new ones, edits (with the history and source they read), deleting, liking, and the refused boost. */
export function statusWriteRoutes(app: FastifyInstance): void {
  app.route({
    ...entityRoute(clientWritesApi.createStatus),
    handler: clientWrite(
      app,
      'write:statuses',
      (ctx, request, viewer) => createStatus(ctx, viewer, request.body as NewStatusBody),
      // The accounts of other servers a text names are looked up before its transaction opens.
      (request, viewer) => prepareTypedMentions(app, viewer, (request.body as NewStatusBody).status),
    ),
  });
  app.route({
    ...entityRoute(clientWritesApi.editStatus),
    handler: clientWrite(
      app,
      'write:statuses',
      (ctx, request, viewer) => editStatus(ctx, viewer, { id: idOf(request), body: request.body as StatusEditBody }),
      (request, viewer) => prepareTypedMentions(app, viewer, (request.body as StatusEditBody).status),
    ),
  });
  app.route(readByIdRoute(app, clientWritesApi.statusHistory, statusHistory));
  app.route({
    ...entityRoute(clientWritesApi.statusSource),
    handler: async (request) => statusSource(contextOf(app), await requireScope(request, 'read:statuses'), idOf(request)),
  });
  app.route({
    ...entityRoute(clientWritesApi.deleteStatus),
    handler: async (request) => {
      const viewer = await requireScope(request, 'write:statuses');
      const { status, keys } = await inNewTransaction(app, (ctx) => deleteStatus(ctx, viewer, idOf(request)));
      await removePostMedia(app.storage, keys, request.log);
      return status;
    },
  });
  for (const [entry, liked] of [[clientWritesApi.favourite, true], [clientWritesApi.unfavourite, false]] as const) {
    app.route({
      ...entityRoute(entry),
      handler: clientWrite(app, 'write:favourites', (ctx, request, viewer) => setFavourite(ctx, viewer, { id: idOf(request), liked })),
    });
  }
  app.route({
    ...entityRoute(clientWritesApi.reblog),
    handler: async (request) => {
      await requireScope(request, 'write:statuses');
      return reblog();
    },
  });
}
