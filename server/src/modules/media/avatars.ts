import type { FastifyInstance } from 'fastify';
import { toAvatar } from './images.js';
import { type AvatarKind, avatarKey, avatarUrl } from '../../policy/media-urls.js';
import { recordAvatarVersion } from './media.repository.js';

/**
 * Stores the avatar of a user (pfp) or group (gp) under `{kind}/{id}.jpeg` and answers its new
 * versioned URL. Refuses a file that is not an image (400 only_images) or too large (413
 * image_too_large).
 */
export async function storeAvatar(app: FastifyInstance, kind: AvatarKind, id: string, buffer: Buffer): Promise<string> {
  const jpeg = await toAvatar(buffer);
  await app.storage.put(avatarKey(kind, id), jpeg, 'image/jpeg');
  // Recorded after the bytes are in place, so no reply names a version before it can be served.
  const version = await recordAvatarVersion(app.db, kind, id);
  return avatarUrl(kind, id, version);
}
