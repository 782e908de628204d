import type { MediaAttachment } from '#core/api/client-entities';
import type { ServiceContext } from '../../lib/service-context.js';
import type { Viewer } from '../../lib/viewer.js';
import {
  type Focus,
  type StagedUpload,
  getStagedUpload,
  redescribeStagedUpload,
  stageUpload,
} from '../media/staged-uploads.js';
import type { Upload } from '../media/uploads.js';
import { originOf } from './accounts.service.js';
import { imageAttachment } from './status.mapper.js';

/**
 * The client API's uploads: a picture sent ahead of its status, kept by the media module's staged
 * uploads (the web app's decoding, limits and storage), answered as apps read an attachment.
 */

/** The fields apps send to describe a picture, as text whether they came as JSON, a form or a multipart form. */
export interface MediaFields {
  description?: unknown;
  focus?: unknown;
}

/** `x,y` as apps send a focus, each kept within -1..1; anything else is no focus. */
export function focusOf(value: unknown): Focus | undefined {
  if (typeof value !== 'string') return undefined;
  const parts = value.split(',').map((part) => Number(part.trim()));
  if (parts.length !== 2 || parts.some((n) => !Number.isFinite(n))) return undefined;
  const [x, y] = parts.map((n) => Math.min(1, Math.max(-1, n))) as [number, number];
  return { x, y };
}

function attachmentOf(ctx: ServiceContext, upload: StagedUpload): MediaAttachment {
  const size = { width: upload.width, height: upload.height, size: `${upload.width}x${upload.height}`, aspect: upload.height > 0 ? upload.width / upload.height : 1 };
  const meta = { original: size, small: size, ...(upload.focus ? { focus: upload.focus } : {}) };
  return imageAttachment(originOf(ctx), { id: upload.id, url: upload.url, description: upload.description, meta });
}

/** POST /api/v2/media (and /api/v1/media): the picture of the form, its alt text `description`. */
export async function uploadMedia(ctx: ServiceContext, viewer: Viewer, upload: Upload): Promise<MediaAttachment> {
  return attachmentOf(ctx, await stageUpload(ctx, viewer, { upload, altField: 'description', focus: focusOf(upload.fields.focus) ?? null }));
}

/** GET /api/v1/media/:id */
export async function getMedia(ctx: ServiceContext, viewer: Viewer, id: string): Promise<MediaAttachment> {
  return attachmentOf(ctx, await getStagedUpload(ctx, viewer, id));
}

/** PUT /api/v1/media/:id: a field not sent stays as it is. */
export async function updateMedia(ctx: ServiceContext, viewer: Viewer, input: { id: string; fields: MediaFields }): Promise<MediaAttachment> {
  const { description, focus } = input.fields;
  const upload = await redescribeStagedUpload(ctx, viewer, {
    id: input.id,
    description: typeof description === 'string' ? description : undefined,
    focus: focusOf(focus),
  });
  return attachmentOf(ctx, upload);
}
