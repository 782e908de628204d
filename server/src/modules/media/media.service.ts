import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { LIMITS } from '#core/limits';
import { type Check, postImagesMax, validateImages } from '#core/validation';
import { inTransaction } from '../../db/helpers.js';
import { badRequest, forbidden, notFound } from '../../lib/app-error.js';
import { isId } from '../../lib/ids.js';
import { publishEvent } from '../../lib/events/domain-events.js';
// Declares the events this module publishes.
import './media.events.js';
import type { ServiceContext } from '../../lib/service-context.js';
import type { Viewer } from '../../plugins/auth.js';
import { storeAvatar } from './avatars.js';
import { isAnimation, renderDefaultAvatar, toContentImage } from './images.js';
import { readObject, type StoredObject } from '../../lib/storage.js';
import { DEFAULT_AVATAR_ID, MEDIA_PREFIX, avatarKey, imageKey, mediaUrl, verifyMediaSignature } from '../../policy/media-urls.js';
import { findAvatarVersion, findImageOwner, type ImageOwner, recordImage } from './media.repository.js';
import { readRemotePicture } from './remote-media.js';
import { findStagedUploads } from './staged-uploads.repository.js';
import { type Upload, imageAltOf } from './uploads.js';

/**
 * POST /upload/image: image `index` of the caller's own post or comment, stored as
 * `{id}{index}.webp`. Posts take LIMITS.imagesPerPost images, comments LIMITS.imagesPerComment.
 * The form's `alt` field describes the image (its alt text); an image uploaded without one has
 * none, as a new image is not described by the old one's words.
 */
export async function uploadContentImage(ctx: ServiceContext, viewer: Viewer, upload: Upload): Promise<string> {
  const { app, db } = ctx;
  const id = upload.fields.id?.trim();
  const indexText = upload.fields.index?.trim() ?? '0';
  const owner = isId(id) ? await findImageOwner(db, id) : undefined;
  if (!owner || owner.deleted) throw notFound('invalid_post');
  if (owner.authorId !== viewer.id) throw forbidden('not_author');
  const max = owner.kind === 'post' ? LIMITS.imagesPerPost : LIMITS.imagesPerComment;
  const index = /^\d$/.test(indexText) ? Number(indexText) : -1;
  if (index < 0 || index >= max) throw badRequest('invalid_id');
  const alt = imageAltOf(upload, 'alt');
  if (!upload.file) throw badRequest('only_images');
  const webp = await toContentImage(upload.file);
  if (index >= picturesMax(owner)) throw badRequest('too_many_images');
  const picturesError = await picturesAfter(app, owner, { replacing: index, added: [{ animated: await isAnimation(webp) }] });
  if (picturesError) throw badRequest(picturesError);
  const key = imageKey(owner.id, index);
  await app.storage.put(key, webp, 'image/webp');
  const version = await recordStoredImage({ app, db }, owner, index, alt);
  return mediaUrl(app, key, { isPrivate: owner.isPrivate, version });
}

/**
 * Records image `index` of the owner once its bytes are in place (so no reply names a version
 * before it can be served), and answers its version. The app sends a post's or comment's pictures
 * after it: the last one it waited for sends it to other servers, and one added to a post that
 * went out already is told as an edit.
 */
export async function recordStoredImage(ctx: ServiceContext, owner: Pick<ImageOwner, 'kind' | 'id'>, index: number, alt: string): Promise<number> {
  return inTransaction(ctx.db, async (trx) => {
    const recorded = await recordImage(trx, owner, index, alt);
    await publishEvent({ app: ctx.app, db: trx }, 'media.attached', { owner: owner.kind, ownerId: owner.id });
    return recorded;
  });
}

/** How many pictures the owner takes: a reply takes as many as a comment. */
const picturesMax = (owner: Pick<ImageOwner, 'kind' | 'isReply'>): number =>
  owner.kind === 'post' ? postImagesMax(owner.isReply) : LIMITS.imagesPerComment;

/**
 * The owner's pictures once `added` join them (in place of its image `replacing`, when given),
 * checked by the rule the app follows: no more than the owner takes, and a GIF goes alone. Its
 * pictures are read from storage, as only the bytes tell an animation.
 */
export async function picturesAfter(
  app: FastifyInstance,
  owner: ImageOwner,
  change: { replacing?: number; added: readonly { animated: boolean }[] },
): Promise<Check> {
  const others: Array<{ animated: boolean }> = [];
  for (let other = 0; other < owner.images; other++) {
    if (other === change.replacing) continue;
    const bytes = await readObject(app.storage, imageKey(owner.id, other));
    if (bytes) others.push({ animated: await isAnimation(bytes) });
  }
  return validateImages([...others, ...change.added], picturesMax(owner));
}

/** POST /upload/pfp: the caller's avatar. */
export async function uploadProfilePicture(ctx: ServiceContext, viewer: Viewer, upload: Upload): Promise<string> {
  if (!upload.file) throw badRequest('only_images');
  return storeAvatar(ctx.app, 'pfp', viewer.id, upload.file);
}

const CONTENT_KEY = /^([0-9a-f]{24})(\d)\.webp$/;
const AVATAR_KEY = /^(pfp|gp)\/([0-9a-f]{24}|default)\.jpeg$/;
const REMOTE_KEY = /^remote\/([0-9a-f]{64})$/;
const UPLOAD_KEY = /^uploads\/([0-9a-f]{24})\.webp$/;
const DEFAULT_AVATAR_KEY = avatarKey('pfp', DEFAULT_AVATAR_ID);

export interface MediaObject {
  /** The bytes, streamed from storage: the caller sends or destroys it. */
  body: Readable;
  size: number;
  /** Names the stored bytes (the store's tag), so a conditional read is answered without them. */
  etag: string;
  modified: Date;
  contentType: string;
  /**
   * immutable: the URL named the version of exactly these bytes, so they never change under it.
   * revalidate: no version, or another one (bytes replaced since): caches must ask again.
   * private: an image of a private group, for the signed URL's holder only.
   */
  caching: 'immutable' | 'revalidate' | 'private';
  /** For private bytes: when the signature they were read with expires (ms since the epoch). */
  signedUntil?: number;
}

export interface MediaQuery {
  v?: unknown;
  exp?: unknown;
  sig?: unknown;
  u?: unknown;
}

/** The default avatar, rendered once and then kept in storage like any other object. */
async function defaultAvatar(app: FastifyInstance): Promise<StoredObject> {
  const stored = await app.storage.get(DEFAULT_AVATAR_KEY);
  if (stored) return stored;
  await app.storage.put(DEFAULT_AVATAR_KEY, await renderDefaultAvatar(), 'image/jpeg');
  const rendered = await app.storage.get(DEFAULT_AVATAR_KEY);
  if (!rendered) throw new Error('the default avatar was stored but cannot be read back');
  return rendered;
}

/** Whether the URL's version is the one the database names for the stored bytes (0 names none). */
const isCurrent = (v: unknown, version: number | undefined) => !!version && typeof v === 'string' && v === String(version);

/**
 * GET /media/{key}: only keys the app writes are served. Images of posts in a private group need
 * a valid signature (the URLs the API hands to members carry one); anything else is not found.
 * Avatars and images may be replaced under their key; only a URL whose version is the owner's
 * current one is cached for good, an older one gets the current bytes to revalidate. Every check
 * is made before the bytes are fetched.
 */
export async function readMedia(ctx: ServiceContext, input: { key: string; query: MediaQuery }): Promise<MediaObject | null> {
  const { app } = ctx;
  const { key, query } = input;
  const avatar = AVATAR_KEY.exec(key);
  if (avatar) {
    const [, kind, id] = avatar as unknown as [string, 'pfp' | 'gp', string];
    const version = id === DEFAULT_AVATAR_ID ? undefined : await findAvatarVersion(ctx.db, kind, id);
    const stored = await app.storage.get(key);
    if (!stored) return { ...(await defaultAvatar(app)), contentType: 'image/jpeg', caching: 'revalidate' };
    return { ...stored, contentType: 'image/jpeg', caching: isCurrent(query.v, version) ? 'immutable' : 'revalidate' };
  }
  const remote = REMOTE_KEY.exec(key);
  if (remote) {
    const picture = await readRemotePicture(app, remote[1]!, query.u);
    // The address's bytes never change: its hash names them.
    return picture ? { ...picture, contentType: 'image/webp', caching: 'immutable' } : null;
  }
  const staged = UPLOAD_KEY.exec(key);
  if (staged) {
    // Only its uploader was given its signed URL, and once a status carries it, the status's own.
    const [row] = await findStagedUploads(ctx.db, [staged[1]!]);
    if (!row || row.attached_to !== null || !verifyMediaSignature(app, key, query.exp, query.sig)) return null;
    const stored = await app.storage.get(key);
    return stored ? { ...stored, contentType: 'image/webp', caching: 'private', signedUntil: Number(query.exp) } : null;
  }
  const content = CONTENT_KEY.exec(key);
  if (!content) return null;
  const owner = await findImageOwner(ctx.db, content[1]!);
  if (!owner || owner.deleted) return null;
  if (owner.isPrivate && !verifyMediaSignature(app, key, query.exp, query.sig)) return null;
  const stored = await app.storage.get(key);
  if (!stored) return null;
  if (owner.isPrivate) return { ...stored, contentType: 'image/webp', caching: 'private', signedUntil: Number(query.exp) };
  return { ...stored, contentType: 'image/webp', caching: isCurrent(query.v, owner.version) ? 'immutable' : 'revalidate' };
}

/**
 * The size in bytes of the content image a URL of this server names (`/media/{key}?v=...`), or
 * undefined when it names none stored here (a remote picture kept elsewhere, a removed image).
 */
export async function contentImageSize(app: FastifyInstance, url: string): Promise<number | undefined> {
  const key = new URL(url, 'http://host.invalid').pathname.slice(MEDIA_PREFIX.length);
  if (!CONTENT_KEY.test(key)) return undefined;
  return (await app.storage.head(key))?.size;
}
