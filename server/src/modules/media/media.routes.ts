import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorMessage, infoMessage } from '#core/errors';
import { readMedia, uploadContentImage, uploadProfilePicture } from './media.service';
import { UploadReplies, readUpload, registerUploads } from './uploads';

const uploadSchema = { response: UploadReplies };

/** Uploads under /api: POST /upload/image, and POST /upload/{type} whose only type is pfp. */
export const uploadRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await registerUploads(app);

  app.post('/upload/image', { schema: uploadSchema }, async (request, reply) => {
    const viewer = await request.requireViewer();
    const url = await uploadContentImage(app, viewer, await readUpload(request));
    return reply.status(201).send({ message: infoMessage('image_uploaded'), url });
  });

  // Another upload type is an unknown route (404).
  // The file may come under any field name (the web app sends `pfp` or `image`).
  app.post('/upload/pfp', { schema: uploadSchema }, async (request, reply) => {
    const viewer = await request.requireViewer();
    const url = await uploadProfilePicture(app, viewer, await readUpload(request));
    return reply.status(201).send({ message: infoMessage('image_uploaded'), url });
  });
};

const CACHE_CONTROL = {
  // The URL's version names these very bytes.
  immutable: 'public, max-age=31536000, immutable',
  // Without the current version the bytes may be replaced, so caches must ask again (cheap with the ETag).
  revalidate: 'public, no-cache',
  private: 'private, max-age=3600',
} as const;

/** GET /media/{key}: stored images, mounted at the site root (not under /api). */
export const mediaRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/*',
    {
      schema: {
        querystring: Type.Object({ v: Type.Optional(Type.String()), exp: Type.Optional(Type.String()), sig: Type.Optional(Type.String()) }),
      },
    },
    async (request, reply) => {
      const key = (request.params as { '*': string })['*'];
      const object = await readMedia(app, key, request.query);
      // Not kept: the object may be written a moment later, or an expired signature renewed.
      if (!object) return reply.status(404).header('Cache-Control', 'no-store').send({ message: errorMessage('not_found') });
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
