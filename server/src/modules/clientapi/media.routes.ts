import type { FastifyPluginAsync } from 'fastify';
import { ClientError } from '#core/api/client';
import { clientMediaApi } from '#core/api/client-media';
import { contextOf } from '../../lib/service-context.js';
import { readUpload, registerUploads } from '../media/uploads.js';
import { requireScope } from './client-caller.js';
import { untypedRoute } from './client-errors.js';
import { CLIENT_ERRORS, idOf } from './client-route.js';
import { type MediaFields, getMedia, updateMedia, uploadMedia } from './media.service.js';

/** The adapter's refusals, and a file too large. */
const REFUSALS = { ...CLIENT_ERRORS, 413: ClientError } as const;

/**
 * Pictures apps upload before their status (POST /api/v2/media and /api/v1/media), read and changed
 * while no status carries them. Registered inside the adapter's scope (its refusals' shape), in a
 * scope of its own so only these calls read multipart forms.
 */
export const clientMediaRoutes: FastifyPluginAsync = async (app) => {
  await registerUploads(app);
  const ctx = contextOf(app);
  for (const entry of [clientMediaApi.uploadV2, clientMediaApi.uploadV1]) {
    app.route({
      ...untypedRoute(entry, REFUSALS),
      handler: async (request) => uploadMedia(ctx, await requireScope(request, 'write:media'), await readUpload(request)),
    });
  }
  app.route({
    ...untypedRoute(clientMediaApi.media, REFUSALS),
    handler: async (request) => getMedia(ctx, await requireScope(request, 'write:media'), idOf(request)),
  });
  app.route({
    ...untypedRoute(clientMediaApi.updateMedia, REFUSALS),
    handler: async (request) => {
      const viewer = await requireScope(request, 'write:media');
      // Some apps send the new description as a multipart form, as they sent the picture.
      const fields: MediaFields = request.isMultipart() ? (await readUpload(request)).fields : ((request.body as MediaFields | undefined) ?? {});
      return updateMedia(ctx, viewer, { id: idOf(request), fields });
    },
  });
};
