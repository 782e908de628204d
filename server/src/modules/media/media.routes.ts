import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { errorMessage } from '#core/errors';
import { mediaApi, mediaFilesApi } from '#core/api/media';
import { routeOf } from '../../lib/contract.js';
import { contextOf } from '../../lib/service-context.js';
import { type MediaObject, readMedia, uploadContentImage, uploadProfilePicture } from './media.service.js';
import { readUpload, registerUploads, uploadRoute } from './uploads.js';

/**
 * Uploads under /api: POST /upload/image and POST /upload/{type} whose only type is pfp. A group's
 * avatar (POST /upload/gp/{groupId}) is served by the groups routes.
 */
export const uploadRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = contextOf(app);
  await registerUploads(app);

  app.route(uploadRoute(mediaApi.uploadImage, async (request, viewer) => uploadContentImage(ctx, viewer, await readUpload(request))));

  // Another upload type is an unknown route (404).
  // The file may come under any field name (the web app sends `pfp` or `image`).
  app.route(uploadRoute(mediaApi.uploadPfp, async (request, viewer) => uploadProfilePicture(ctx, viewer, await readUpload(request))));
};

const CACHE_CONTROL = {
  // The URL's version names these very bytes.
  immutable: 'public, max-age=31536000, immutable',
  // Without the current version the bytes may be replaced, so caches must ask again (cheap with the ETag).
  revalidate: 'public, no-cache',
} as const;

/**
 * A private image is kept by the browser only while its signature lives: a member who is banned or
 * leaves must lose it when the URL dies, not an hour later from a cache.
 */
function cacheControlOf(object: MediaObject, now = Date.now()): string {
  if (object.caching !== 'private') return CACHE_CONTROL[object.caching];
  const seconds = Math.max(0, Math.floor(((object.signedUntil ?? now) - now) / 1000));
  return `private, max-age=${seconds}`;
}

/** GET /media/{key}: stored images, at the site root (not under /api). */
export const mediaRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = contextOf(app);
  app.route({
    ...routeOf(mediaFilesApi.file),
    handler: async (request, reply) => {
      const key = request.params['*'];
      const object = await readMedia(ctx, { key, query: request.query });
      // Not kept: the object may be written a moment later, or an expired signature renewed.
      if (!object) return reply.status(404).header('Cache-Control', 'no-store').send({ message: errorMessage('not_found') });
      const etag = `W/"${object.etag}"`;
      const lastModified = object.modified.toUTCString();
      reply
        .header('Content-Type', object.contentType)
        .header('Content-Length', object.size)
        .header('Cache-Control', cacheControlOf(object))
        .header('ETag', etag)
        .header('Last-Modified', lastModified);
      // Served through a content host (MEDIA_URL), the bytes are read by another origin: the page
      // shows them (helmet's same-origin resource policy would block that) and the service worker
      // fetches them with CORS to cache them.
      if (app.config.mediaUrl) reply.header('Cross-Origin-Resource-Policy', 'cross-origin').header('Access-Control-Allow-Origin', '*');
      const ifNoneMatch = request.headers['if-none-match'];
      const ifModifiedSince = request.headers['if-modified-since'];
      const notModified = ifNoneMatch
        ? ifNoneMatch.split(',').some((tag) => tag.trim() === etag || tag.trim() === '*')
        : !!ifModifiedSince && Math.floor(object.modified.getTime() / 1000) <= Math.floor(Date.parse(ifModifiedSince) / 1000);
      if (notModified) {
        // The stored bytes are not sent: let go of the file or the connection to the bucket.
        object.body.destroy();
        // A 304 has no body, so no reply schema types it.
        return (reply as FastifyReply).status(304).removeHeader('Content-Length').send();
      }
      // Streamed from storage as it is read; a reader who goes away ends the read.
      return reply.send(object.body);
    },
  });
};
