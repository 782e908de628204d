import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { MessageReply } from '../../lib/schemas';
import { CategoriesQuery, FeaturedQuery, FileQuery, GifCategories, GifPage, SearchQuery, ShareBody } from './gifs.schemas';
import { featuredGifs, gifCategories, gifFile, registerShare, searchGifs } from './gifs.service';

const Failures = { 400: MessageReply, 401: MessageReply, 404: MessageReply, 413: MessageReply, 502: MessageReply } as const;

/**
 * The GIF picker's calls, proxied to Tenor so its key stays here. Signed-in users only:
 * the picker lives in the composer, and the key's quota is not for anonymous callers.
 */
export const gifRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/gif/categories', { schema: { querystring: CategoriesQuery, response: { 200: GifCategories, ...Failures } } }, async (request) => {
    await request.requireViewer();
    return { categories: await gifCategories(app.config, request.query.locale) };
  });

  app.get(
    '/gif/search',
    { schema: { querystring: SearchQuery, response: { 200: GifPage, ...Failures } }, config: { invalidKey: 'while_loading' } },
    async (request) => {
      await request.requireViewer();
      const { q, pos, locale } = request.query;
      return searchGifs(app.config, q, pos, locale);
    },
  );

  app.get('/gif/featured', { schema: { querystring: FeaturedQuery, response: { 200: GifPage, ...Failures } } }, async (request) => {
    await request.requireViewer();
    return featuredGifs(app.config, request.query.pos, request.query.locale);
  });

  // The GIF's bytes, so the client attaches it like a picked image and the upload re-encodes it.
  app.get(
    '/gif/file',
    { schema: { querystring: FileQuery, response: { 200: Type.Unsafe<Buffer>({}), ...Failures } }, config: { invalidKey: 'gif_not_found' } },
    async (request, reply) => {
      await request.requireViewer();
      const data = await gifFile(app.config, request.query.id);
      return reply.header('Content-Type', 'image/gif').send(data);
    },
  );

  app.post(
    '/gif/share',
    { schema: { body: ShareBody, response: { 204: Type.Null(), ...Failures } }, config: { invalidKey: 'gif_not_found' } },
    async (request, reply) => {
      await request.requireViewer();
      const { id, q, locale } = request.body;
      await registerShare(app.config, id, q, locale);
      return reply.status(204).send(null);
    },
  );
};
