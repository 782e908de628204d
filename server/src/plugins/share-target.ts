import type { FastifyPluginAsync } from 'fastify';

/**
 * The installed app's share target when no service worker answered it (a first visit, or a
 * browser that posts past the worker): the shared files cannot be kept here, so the browser is
 * sent to an empty composer rather than shown an error. The body is read and dropped unparsed.
 */
export const shareTargetRoutes: FastifyPluginAsync = async (app) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => {
    payload.on('end', () => done(null));
    payload.on('error', done);
    payload.resume();
  });
  app.post('/share', async (_request, reply) => reply.redirect('/#/post', 303));
};
