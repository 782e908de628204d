import { type Static, Type } from '@sinclair/typebox';
import { LIMITS } from '../limits.js';
import { GroupIdParams, messageWith } from './common.js';
import { endpoint } from './endpoint.js';

/**
 * The answer of every upload: `{message: "info/image_uploaded", url}`, url being the stored
 * image at its new version (signed when the image belongs to a post in a private group).
 */
export const UploadReply = messageWith({ url: Type.String() });
export type UploadReply = Static<typeof UploadReply>;

/** What every upload answers, and the refusals of its image. */
const uploadEntry = { replies: { 201: UploadReply } } as const;
const IMAGE_ERRORS = ['only_images', 'image_too_large'] as const;

/**
 * The media calls of the API (see endpoint.ts for how an entry is read). Uploads are
 * multipart/form-data forms of one image file, which may come under any field name (the web app
 * sends `image`, `pfp` or `gp`); they have no JSON body to describe. Whatever its declared type,
 * the file is judged by decoding it (only_images), and one too large in bytes or pixels answers
 * 413 image_too_large.
 */
export const mediaApi = {
  uploadImage: endpoint({
    method: 'POST',
    path: '/upload/image',
    summary:
      "Upload image `index` (form field, default 0) of the caller's own post or comment `id` (form field); " +
      'multipart form with the image file and, optionally, its description `alt` (form field, at most ' +
      `${LIMITS.imageAltMaxLength} characters, stored trimmed; an image uploaded without one has none). A reply post takes one image, and ` +
      'an animation (a GIF) goes alone: another image answers too_many_images or gif_alone',
    ...uploadEntry,
    errors: ['invalid_post', 'not_author', 'invalid_id', 'max_alt_length', 'too_many_images', 'gif_alone', ...IMAGE_ERRORS],
  }),
  uploadPfp: endpoint({
    method: 'POST',
    path: '/upload/pfp',
    summary: "Replace the caller's avatar; multipart form with the image file",
    ...uploadEntry,
    errors: IMAGE_ERRORS,
  }),
  uploadGroupPicture: endpoint({
    method: 'POST',
    path: '/upload/gp/:groupId',
    summary: "Replace a group's avatar (its admins); multipart form with the image file",
    params: GroupIdParams,
    ...uploadEntry,
    errors: ['didnt_find_group', 'need_admin', ...IMAGE_ERRORS],
  }),
} as const;

/**
 * A stored image's bytes: `key` is `{pfp|gp}/{id}.jpeg` for an avatar (an unknown one gets the
 * default avatar), `{postOrCommentId}{index}.webp` for a post's or comment's image, or
 * `uploads/{id}.webp` for a picture an app uploaded that no status carries yet (signed, for its
 * uploader).
 * - v: the version the URL names; only the version of the stored bytes is cached for good.
 * - exp, sig: expiry and signature of an image in a private group, required there.
 */
export const MediaFileQuery = Type.Object({
  v: Type.Optional(Type.String()),
  exp: Type.Optional(Type.String()),
  sig: Type.Optional(Type.String()),
  /** A remote post's picture (`/media/remote/{hash}`): its address on its server. */
  u: Type.Optional(Type.String({ maxLength: 2048 })),
});
export type MediaFileQuery = Static<typeof MediaFileQuery>;

/**
 * Stored images, served at the site root rather than under /api (an <img> reads them), so this
 * entry's path is the site's, and it stays out of `api`: the contract's check of the /api route
 * table and the OpenAPI document both cover /api alone. Anything not served is 404 not_found;
 * a conditional request matching the ETag or Last-Modified answers 304 without a body.
 */
export const mediaFilesApi = {
  file: endpoint({
    method: 'GET',
    path: '/media/*',
    summary: 'The bytes of a stored image (image/jpeg avatars, image/webp post and comment images)',
    params: Type.Object({ '*': Type.String() }),
    query: MediaFileQuery,
    /** Sent as the stored bytes, not serialised. */
    replies: { 200: Type.Unsafe<Uint8Array>({ type: 'string', format: 'binary' }) },
    errors: [],
  }),
} as const;
