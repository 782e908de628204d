import type { FastifyInstance } from 'fastify';
import { toAvatar } from './images';
import { type AvatarKind, avatarKey, mediaUrl } from './media-urls';

/**
 * Stores the avatar of a user (pfp) or group (gp) under `{kind}/{id}.jpeg` (001 §3) and answers
 * its URL. Refuses a file that is not an image (400 only_images) or too large (413 image_too_large).
 */
export async function storeAvatar(app: FastifyInstance, kind: AvatarKind, id: string, buffer: Buffer): Promise<string> {
  const jpeg = await toAvatar(buffer);
  const key = avatarKey(kind, id);
  await app.storage.put(key, jpeg);
  return mediaUrl(app, key, false);
}

/** Removes a user's or group's avatar, e.g. when the account or group is deleted. */
export async function removeAvatar(app: FastifyInstance, kind: AvatarKind, id: string): Promise<void> {
  await app.storage.remove([avatarKey(kind, id)]);
}
