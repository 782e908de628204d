import multipart from '@fastify/multipart';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LIMITS } from '#core/limits';
import { AppError, badRequest } from '../../lib/app-error';
import { ErrorReplies, MessageReply } from '../../lib/schemas';

/** Replies of every upload route: the stored image's URL, or a refusal (413 for a too large file). */
export const UploadReplies = {
  201: Type.Object({ message: Type.String(), url: Type.String() }),
  ...ErrorReplies,
  413: MessageReply,
} as const;

/**
 * Multipart uploads of one image. Registered per route plugin (encapsulated), so only upload
 * routes parse multipart bodies; every module taking an image file uses these two functions.
 */
export async function registerUploads(app: FastifyInstance): Promise<void> {
  await app.register(multipart, {
    limits: { fileSize: LIMITS.imageMaxBytes, files: 1, fields: 8, fieldSize: 1024, parts: 10, headerPairs: 50 },
  });
}

export interface Upload {
  /** The one file's bytes, whatever its field name; null when none was sent. */
  file: Buffer | null;
  fields: Record<string, string>;
}

/** Reads the whole form: fields may come before or after the file. */
export async function readUpload(request: FastifyRequest): Promise<Upload> {
  if (!request.isMultipart()) throw badRequest('only_images');
  const upload: Upload = { file: null, fields: {} };
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const data = await part.toBuffer();
        upload.file ??= data;
      } else if (typeof part.value === 'string') {
        upload.fields[part.fieldname] = part.value;
      }
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError(413, 'image_too_large');
    throw badRequest('only_images');
  }
  return upload;
}
