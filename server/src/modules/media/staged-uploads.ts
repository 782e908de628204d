import type { FastifyInstance } from 'fastify';
import { normalizeImageAlt, validateImageAlt, validateImages } from '#core/validation';
import type { Executor } from '../../db/schema.js';
import { AppError, badRequest, notFound } from '../../lib/app-error.js';
import { isId, newId } from '../../lib/ids.js';
import { takeSlot } from '../../lib/rate-limit.js';
import type { ServiceContext } from '../../lib/service-context.js';
import type { Viewer } from '../../lib/viewer.js';
import { imageKey, mediaUrl, stagedUploadKey } from '../../policy/media-urls.js';
import { imageFacts, toContentImage } from './images.js';
import { findImageOwner } from './media.repository.js';
import { picturesAfter, recordStoredImage } from './media.service.js';
import {
  type StagedUploadRow,
  deleteStagedUploads,
  describeStagedUpload,
  findStagedUploads,
  insertStagedUpload,
  markStagedUploadAttached,
  stagedUploadIdsOf,
  stagedUploadsBefore,
} from './staged-uploads.repository.js';
import { type Upload, imageAltOf } from './uploads.js';

/**
 * Pictures uploaded ahead of the status that carries them, as fediverse apps do: each goes through
 * the same decoding, limits and storage as a picture of the web app's post, is kept under
 * `uploads/{id}.webp` as its uploader's alone (its URL signed, given to them only), and a status
 * naming it copies it to its own pictures. Unattached, it goes STAGED_UPLOAD_HOURS after the upload.
 */

/** Where a picture's point of interest is, each coordinate within -1..1 (the centre is 0,0). */
export interface Focus {
  x: number;
  y: number;
}

export interface StagedUpload {
  id: string;
  /** Signed, as the picture is its uploader's until a status carries it. */
  url: string;
  width: number;
  height: number;
  bytes: number;
  animated: boolean;
  /** Its description (alt text), '' for none. */
  description: string;
  focus: Focus | null;
}

const unprocessable = (key: 'unknown_media' | 'media_attached') => new AppError(422, key);

const focusText = (focus: Focus | null): string | null => (focus ? `${focus.x},${focus.y}` : null);

function storedFocus(text: string | null): Focus | null {
  const [x, y] = (text ?? '').split(',').map(Number);
  return x === undefined || y === undefined || Number.isNaN(x) || Number.isNaN(y) ? null : { x, y };
}

const toStagedUpload = (app: FastifyInstance, row: StagedUploadRow): StagedUpload => ({
  id: row.id,
  url: mediaUrl(app, stagedUploadKey(row.id), { isPrivate: true }),
  width: Number(row.width),
  height: Number(row.height),
  bytes: Number(row.bytes),
  animated: Number(row.animated) === 1,
  description: row.description,
  focus: storedFocus(row.focus),
});

/** Stores the picture of the form, described by its field `altField`, as the caller's upload. */
export async function stageUpload(ctx: ServiceContext, viewer: Viewer, input: { upload: Upload; altField: string; focus: Focus | null }): Promise<StagedUpload> {
  const { upload } = input;
  const description = imageAltOf(upload, input.altField);
  if (!upload.file) throw badRequest('only_images');
  const { rates } = ctx.app.config;
  // Counted before the picture is decoded: a file refused still cost the work.
  await takeSlot(ctx.db, { key: `upload:${viewer.id}`, max: rates.uploadsPerHour, windowMs: rates.windowMs }, 'upload_limit');
  const webp = await toContentImage(upload.file);
  const facts = await imageFacts(webp);
  const now = Date.now();
  const id = newId(now);
  // Stored before its row, so no answer names bytes that cannot be read yet.
  await ctx.app.storage.put(stagedUploadKey(id), webp, 'image/webp');
  const row = {
    id,
    owner_id: viewer.id,
    description,
    focus: focusText(input.focus),
    width: facts.width,
    height: facts.height,
    bytes: webp.length,
    animated: facts.animated ? 1 : 0,
    created_at: now,
  };
  await insertStagedUpload(ctx.db, row);
  return toStagedUpload(ctx.app, { ...row, attached_to: null });
}

/** The caller's upload of this id; another's, or one gone, is not found (unknown_media). */
async function ownRow(ctx: ServiceContext, viewer: Viewer, id: string): Promise<StagedUploadRow> {
  const [row] = isId(id) ? await findStagedUploads(ctx.db, [id]) : [];
  if (!row || row.owner_id !== viewer.id) throw notFound('unknown_media');
  return row;
}

/** The caller's upload that no status carries yet; else not found, as its own URL is gone too. */
export async function getStagedUpload(ctx: ServiceContext, viewer: Viewer, id: string): Promise<StagedUpload> {
  const row = await ownRow(ctx, viewer, id);
  if (row.attached_to !== null) throw notFound('unknown_media');
  return toStagedUpload(ctx.app, row);
}

/**
 * Changes the description or focus of the caller's upload while no status carries it; once one
 * does, the picture is the status's (media_attached).
 */
export async function redescribeStagedUpload(
  ctx: ServiceContext,
  viewer: Viewer,
  input: { id: string; description?: string | undefined; focus?: Focus | null | undefined },
): Promise<StagedUpload> {
  const altError = validateImageAlt(input.description);
  if (altError) throw badRequest(altError);
  const row = await ownRow(ctx, viewer, input.id);
  const fields = {
    ...(input.description === undefined ? {} : { description: normalizeImageAlt(input.description) }),
    ...(input.focus === undefined ? {} : { focus: focusText(input.focus) }),
  };
  if (row.attached_to !== null || !(await describeStagedUpload(ctx.db, row.id, fields))) throw unprocessable('media_attached');
  return toStagedUpload(ctx.app, { ...row, ...fields });
}

/**
 * The caller's uploads of these ids (each once, in the order given) for a status taking at most
 * `max` pictures: an id that names none of the caller's uploads answers unknown_media, one a status
 * carries already media_attached, and too many or a GIF among others the rule of a post's pictures.
 */
export async function stagedUploadsFor(ctx: ServiceContext, viewer: Viewer, input: { ids: readonly string[]; max: number }): Promise<StagedUpload[]> {
  const ids = [...new Set(input.ids)];
  const rows = await findStagedUploads(ctx.db, ids.filter(isId));
  const byId = new Map(rows.filter((row) => row.owner_id === viewer.id).map((row) => [row.id, row]));
  const chosen = ids.map((id) => {
    const row = byId.get(id);
    if (!row) throw unprocessable('unknown_media');
    if (row.attached_to !== null) throw unprocessable('media_attached');
    return toStagedUpload(ctx.app, row);
  });
  const rule = validateImages(chosen, input.max);
  if (rule) throw new AppError(422, rule);
  return chosen;
}

/**
 * Makes the uploads the pictures of the post or comment, after those it has, each with its
 * description: checked against the owner's pictures (422 by their rule), marked as carried so no
 * other status takes them, copied to the owner's images and recorded as an upload of the web app
 * is. Runs on the status's transaction.
 */
export async function attachStagedUploads(ctx: ServiceContext, ref: { kind: 'post' | 'comment'; id: string }, uploads: readonly StagedUpload[]): Promise<void> {
  if (uploads.length === 0) return;
  const owner = await findImageOwner(ctx.db, ref.id);
  if (!owner || owner.kind !== ref.kind) throw notFound(ref.kind === 'post' ? 'didnt_find_post' : 'comment_not_found');
  const rule = await picturesAfter(ctx.app, owner, { added: uploads });
  if (rule) throw new AppError(422, rule);
  for (const [offset, upload] of uploads.entries()) {
    if (!(await markStagedUploadAttached(ctx.db, upload.id, owner.id))) throw unprocessable('media_attached');
    const stored = await ctx.app.storage.get(stagedUploadKey(upload.id));
    if (!stored) throw unprocessable('unknown_media');
    const index = owner.images + offset;
    await ctx.app.storage.put(imageKey(owner.id, index), stored.body, 'image/webp');
    await recordStoredImage(ctx, owner, index, upload.description);
  }
}

/**
 * The storage keys of the person's uploads, for an account about to go: its rows go with it, so
 * the bytes are removed once the deletion committed rather than waiting for a run that no longer
 * finds them.
 */
export async function stagedUploadKeysOf(db: Executor, ownerId: string): Promise<string[]> {
  return (await stagedUploadIdsOf(db, ownerId)).map(stagedUploadKey);
}

/** Uploads one maintenance run drops at most: the storage is asked once, inside the run's transaction. */
export const STAGED_UPLOADS_PER_RUN = 500;
const HOUR_MS = 60 * 60 * 1000;

/**
 * Drops the uploads made more than STAGED_UPLOAD_HOURS ago, the oldest first, with their bytes:
 * those never attached are gone, and those a status carries keep the status's own copy.
 */
export async function dropStaleUploads(app: FastifyInstance, db: Executor, now: number): Promise<number> {
  const stale = await stagedUploadsBefore(db, now - app.config.stagedUploadHours * HOUR_MS, STAGED_UPLOADS_PER_RUN);
  const ids = stale.map((row) => row.id);
  if (ids.length === 0) return 0;
  await deleteStagedUploads(db, ids);
  await app.storage.remove(ids.map(stagedUploadKey));
  const unattached = stale.filter((row) => row.attached_to === null).length;
  app.log.info({ dropped: ids.length, unattached, hours: app.config.stagedUploadHours }, 'staged uploads dropped');
  return ids.length;
}
