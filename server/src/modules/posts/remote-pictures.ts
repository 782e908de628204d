import type { Executor } from '../../db/schema.js';
import type { ServiceContext } from '../../lib/service-context.js';
import type { Viewer } from '../../lib/viewer.js';
import { type SecretSource, keptRemoteMediaKey } from '../../policy/media-urls.js';
import * as repo from './remote-pictures.repository.js';

/**
 * A remote post's pictures as its row keeps them: they stay on its server, are shown through this
 * one (media/remote-media.ts), and the copies kept here go once no post of their author lists them,
 * or REMOTE_MEDIA_DAYS after they were fetched (a later read fetches them again).
 */

/** The pictures a remote post's row keeps (JSON of `{url, alt}`); null when it keeps none readable. */
export function storedRemotePictures(stored: string | null): { url: string; alt?: unknown }[] | null {
  if (stored === null) return null;
  let pictures: unknown;
  try {
    pictures = JSON.parse(stored);
  } catch {
    return null;
  }
  if (!Array.isArray(pictures)) return [];
  return pictures.filter((p): p is { url: string; alt?: unknown } => typeof (p as { url?: unknown })?.url === 'string');
}

/**
 * A remote post's pictures as its author's latest edit lists them. Answers the media keys of the
 * copies kept here of the pictures it no longer lists, to remove once the transaction has
 * committed. A copy is kept under its address alone, so one a post of the author's still lists
 * (this one, or another showing the same picture) stays.
 */
export async function setRemoteMedia(ctx: ServiceContext, author: Viewer, postId: string, media: string | null): Promise<string[]> {
  const before = await repo.findRemoteMediaOf(ctx.db, postId, author.id);
  if (before === undefined) return [];
  await repo.setRemoteMedia(ctx.db, postId, author.id, media);
  const addresses = (stored: string | null) => new Set((storedRemotePictures(stored) ?? []).map((picture) => picture.url));
  const listed = addresses(media);
  const dropped = [...addresses(before)].filter((url) => !listed.has(url));
  const stillListed = new Set((await repo.findRemoteMediaNaming(ctx.db, author.id, dropped)).flatMap((stored) => [...addresses(stored)]));
  return dropped.filter((url) => !stillListed.has(url)).map((url) => keptRemoteMediaKey(ctx.app, url));
}

/**
 * The media keys of the copies kept here of the pictures these posts (those another server wrote)
 * show: to remove with the posts. A copy is keyed by its address with the secret, as its URL is.
 */
export async function keptPicturesOf(db: Executor, postIds: string[], secret: SecretSource): Promise<string[]> {
  const pictures = (await repo.findRemoteMedia(db, postIds)).flatMap((stored) => storedRemotePictures(stored) ?? []);
  return pictures.map((picture) => keptRemoteMediaKey(secret, picture.url));
}
