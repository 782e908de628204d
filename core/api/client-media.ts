import { LIMITS } from '../limits.js';
import { MediaAttachment } from './client-entities.js';
import { IdParams } from './client-reads.js';
import type { ServerErrorKey } from '../errors.js';
import { endpoint } from './endpoint.js';

/**
 * Pictures fediverse apps upload before the status that carries them. An upload is a
 * multipart/form-data form with the image `file`, its description `description` (alt text, at most
 * LIMITS.imageAltMaxLength characters, stored trimmed) and, optionally, `focus` (`x,y`, each within
 * -1..1). It goes through the same decoding and limits as a picture of the web app's post: a file
 * that is no image answers only_images, one too large in bytes or pixels 413 image_too_large. The
 * picture is its uploader's until a status names it in `media_ids`; one never attached is dropped
 * after STAGED_UPLOAD_HOURS. A user's apps upload at most RATE_UPLOADS_PER_HOUR pictures an hour
 * (upload_limit). Every call needs write:media (or write).
 */

const UPLOAD_ERRORS = ['insufficient_scope', 'only_images', 'image_too_large', 'max_alt_length', 'upload_limit'] as const;
const UPLOAD_DESCRIPTION =
  `Multipart form: the image \`file\`, its alt text \`description\` (at most ${LIMITS.imageAltMaxLength} characters), optionally \`focus\` (\`x,y\`). The picture is stored at once, ` +
  'so the answer carries its URL; it is the uploader\'s alone until a status names it in `media_ids`.';

const upload = <const P extends string>(path: P, summary: string) =>
  endpoint({ method: 'POST', path, summary, description: UPLOAD_DESCRIPTION, replies: { 200: MediaAttachment }, errors: UPLOAD_ERRORS });

/** A call on one of the caller's uploads, by its id. */
const onUpload = <const M extends 'GET' | 'PUT', const K extends readonly ServerErrorKey[]>(method: M, summary: string, errors: K, description?: string) =>
  endpoint({ method, path: '/v1/media/:id', summary, ...(description ? { description } : {}), params: IdParams, replies: { 200: MediaAttachment }, errors });

export const clientMediaApi = {
  uploadV2: upload('/v2/media', 'Uploads a picture for a status to carry (needs write:media)'),
  uploadV1: upload('/v1/media', 'Uploads a picture for a status to carry, as the first version of the call (needs write:media)'),
  media: onUpload('GET', "One of the caller's uploads that no status carries yet (needs write:media); any other is not found", ['insufficient_scope', 'unknown_media']),
  updateMedia: onUpload(
    'PUT',
    "Changes the description or focus of the caller's upload while no status carries it (needs write:media)",
    ['insufficient_scope', 'unknown_media', 'media_attached', 'max_alt_length'],
    'JSON, a form or a multipart form with `description` and `focus` (a `file` sent with them is not taken: the picture stays); ' +
      'once a status carries the picture it answers media_attached.',
  ),
} as const;
