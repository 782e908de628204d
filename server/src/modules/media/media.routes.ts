import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { infoMessage } from '#core/errors';
import { readMedia, uploadContentImage, uploadProfilePicture } from './media.service';
import { UploadReplies, readUpload, registerUploads } from './uploads';

const uploadSchema = { response: UploadReplies };

/** Uploads under /api (000 §7 POST /upload/image, 001 §7 POST /upload/{type} with type pfp). */
export const uploadRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await registerUploads(app);

  app.post('/upload/image', { schema: uploadSchema }, async (request, reply) => {
    const viewer = await request.requireViewer();
    const url = await uploadContentImage(app, viewer, await readUpload(request));
    return reply.status(201).send({ message: infoMessage('image_uploaded'), url });
  });

  // POST /upload/{type} of 001 §7, whose only type is pfp; another type is an unknown route (404).
  // The file may come under any field name (the web app sends `pfp` or `image`).
  app.post('/upload/pfp', { schema: uploadSchema }, async (request, reply) => {
    const viewer = await request.requireViewer();
    const url = await uploadProfilePicture(app, viewer, await readUpload(request));
    return reply.status(201).send({ message: infoMessage('image_uploaded'), url });
  });
};

const CACHE_CONTROL = {
  immutable: 'public, max-age=31536000, immutable',
  // Avatars are replaced under the same key, so caches must ask again (cheap with the ETag).
  revalidate: 'public, no-cache',
  private: 'private, max-age=3600',
} as const;

/** GET /media/{key}: stored images, mounted at the site root (not under /api). */
export const mediaRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/*',
    { schema: { querystring: Type.Object({ exp: Type.Optional(Type.String()), sig: Type.Optional(Type.String()) }) } },
    async (request, reply) => {
      const key = (request.params as { '*': string })['*'];
      const object = await readMedia(app, key, request.query);
      if (!object) return reply.status(404).send({ message: 'error/server_error' });
      const etag = `W/"${object.data.length.toString(16)}-${object.modified.getTime().toString(16)}"`;
      const lastModified = object.modified.toUTCString();
      reply
        .header('Content-Type', object.contentType)
        .header('Cache-Control', CACHE_CONTROL[object.caching])
        .header('ETag', etag)
        .header('Last-Modified', lastModified);
      const ifNoneMatch = request.headers['if-none-match'];
      const ifModifiedSince = request.headers['if-modified-since'];
      const notModified = ifNoneMatch
        ? ifNoneMatch.split(',').some((tag) => tag.trim() === etag || tag.trim() === '*')
        : !!ifModifiedSince && Math.floor(object.modified.getTime() / 1000) <= Math.floor(Date.parse(ifModifiedSince) / 1000);
      if (notModified) return reply.status(304).send();
      return reply.send(object.data);
    },
  );
};
