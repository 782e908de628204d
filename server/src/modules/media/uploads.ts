import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { infoMessage } from '#core/errors';
import { LIMITS } from '#core/limits';
import { normalizeImageAlt, validateImageAlt } from '#core/validation';
import type { Endpoint } from '#core/api/endpoint';
import type { UploadReply } from '#core/api/media';
import { AppError, badRequest } from '../../lib/app-error.js';
import { routeWithFaults } from '../../lib/contract.js';
import type { RequestOf } from '../../lib/handlers.js';
import type { Viewer } from '../../plugins/auth.js';

/**
 * The route of an upload entry: the caller must be signed in, `store` reads and stores the image
 * and gives its URL, and the answer is 201 `{message: "info/image_uploaded", url}`. Besides the
 * entry's replies, a too large file answers 413.
 */
export function uploadRoute<const E extends Endpoint>(
  e: E & { replies: { 201: typeof UploadReply } },
  store: (request: RequestOf<E>, viewer: Viewer) => Promise<string>,
) {
  return {
    ...routeWithFaults(e, [413]),
    handler: async (request: RequestOf<E>, reply: FastifyReply) => {
      const viewer = await request.requireViewer();
      const url = await store(request, viewer);
      return reply.status(201).send({ message: infoMessage('image_uploaded'), url });
    },
  };
}

/**
 * The longest form field read whole: an image's description at its limit, each character taking
 * up to four bytes, and some room. A longer field is cut there and marked (`truncated`).
 */
const FIELD_BYTES = LIMITS.imageAltMaxLength * 4 + 1024;

/**
 * Multipart uploads of one image. Registered per route plugin (encapsulated), so only upload
 * routes parse multipart bodies; every module taking an image file uses these functions.
 */
export async function registerUploads(app: FastifyInstance): Promise<void> {
  await app.register(multipart, {
    limits: { fileSize: LIMITS.imageMaxBytes, files: 1, fields: 8, fieldSize: FIELD_BYTES, parts: 10, headerPairs: 50 },
  });
}

export interface Upload {
  /** The one file's bytes, whatever its field name; null when none was sent. */
  file: Buffer | null;
  fields: Record<string, string>;
  /** Fields longer than the form takes, whose value was cut (see FIELD_BYTES). */
  truncated?: Set<string>;
}

/**
 * A form of more than the one image: `file` names the field whose file is kept (any other file is
 * read and dropped), and the form may hold up to `files` files and `fields` fields.
 */
export interface FormShape {
  file: string;
  files: number;
  fields: number;
}

/** Reads the whole form: fields may come before or after the file. */
export async function readUpload(request: FastifyRequest, shape?: FormShape): Promise<Upload> {
  if (!request.isMultipart()) throw badRequest('only_images');
  const upload: Upload = { file: null, fields: {}, truncated: new Set() };
  const limits = shape && { limits: { files: shape.files, fields: shape.fields, parts: shape.files + shape.fields } };
  try {
    for await (const part of request.parts(limits)) {
      if (part.type === 'file') {
        const data = await part.toBuffer();
        if (!shape || part.fieldname === shape.file) upload.file ??= data;
      } else if (typeof part.value === 'string') {
        upload.fields[part.fieldname] = part.value;
        if (part.valueTruncated) upload.truncated?.add(part.fieldname);
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

/**
 * The description (alt text) the form's `field` gives its image, stored trimmed ('' for none); one
 * past the limit, or cut short by the form's field size, answers max_alt_length.
 */
export function imageAltOf(upload: Upload, field: string): string {
  const altError = upload.truncated?.has(field) ? 'max_alt_length' : validateImageAlt(upload.fields[field]);
  if (altError) throw badRequest(altError);
  return normalizeImageAlt(upload.fields[field] ?? '');
}
