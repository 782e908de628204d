import type { FastifyPluginAsync } from 'fastify';
import { appPaths } from '#core/app-paths';

/**
 * The installed app's share target when no service worker answered it (a first visit, or a
 * browser that posts past the worker): the shared files cannot be kept here, so the browser is
 * sent to an empty composer rather than shown an error. The body is read and dropped unparsed,
 * within the app's body limit like any other: Fastify's own reader refuses a declared length over
 * it before reading a byte, and stops a longer body at the limit (413 request_too_large).
 */
export const shareTargetRoutes: FastifyPluginAsync = async (app) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) => done(null));
  app.post('/share', async (_request, reply) => reply.redirect(appPaths.compose(), 303));
};
