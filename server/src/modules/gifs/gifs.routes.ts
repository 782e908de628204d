import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Endpoint } from '#core/api/endpoint';
import { GifFile, gifsApi } from '#core/api/gifs';
import { routeWithFaults } from '../../lib/contract.js';
import { contextOf } from '../../lib/service-context.js';
import { featuredGifs, gifCategories, gifFile, registerShare, searchGifs } from './gifs.service.js';

/**
 * A GIF route from its contract entry, with the refusals only Tenor's proxy answers: a GIF over
 * the image size (413) and Tenor failing (502).
 */
function gifRoute<const E extends Endpoint>(e: E) {
  return routeWithFaults(e, [413, 502]);
}

/**
 * The GIF picker's calls, proxied to Tenor so its key stays here. Signed-in users only:
 * the picker lives in the composer, and the key's quota is not for anonymous callers.
 */
export const gifRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = contextOf(app);
  app.route({
    ...gifRoute(gifsApi.categories),
    handler: async (request) => {
      await request.requireViewer();
      return { categories: await gifCategories(ctx, request.query.locale) };
    },
  });

  app.route({
    ...gifRoute(gifsApi.search),
    handler: async (request) => {
      await request.requireViewer();
      return searchGifs(ctx, request.query);
    },
  });

  app.route({
    ...gifRoute(gifsApi.featured),
    handler: async (request) => {
      await request.requireViewer();
      return featuredGifs(ctx, request.query);
    },
  });

  // The GIF's bytes, so the client attaches it like a picked image and the upload re-encodes it.
  // They are sent as they are, not serialised: the 200 is declared under image/gif, not JSON.
  const file = gifRoute(gifsApi.file);
  app.route({
    ...file,
    schema: {
      ...file.schema,
      response: {
        ...file.schema.response,
        200: { description: GifFile.description, content: { 'image/gif': { schema: GifFile } } },
      },
    },
    handler: async (request, reply) => {
      await request.requireViewer();
      const data = await gifFile(ctx, request.query.id);
      return reply.header('Content-Type', 'image/gif').send(data);
    },
  });

  app.route({
    ...gifRoute(gifsApi.share),
    handler: async (request, reply) => {
      await request.requireViewer();
      await registerShare(ctx, request.body);
      return reply.status(204).send(null);
    },
  });
};
