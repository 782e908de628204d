import { createHash } from 'node:crypto';
import { Delete, PUBLIC_COLLECTION, type Update, isActor } from '@fedify/fedify/vocab';
import type { FastifyInstance } from 'fastify';
import { enqueueJob } from '../../../lib/jobs/queue.js';
import type { ServiceContext } from '../../../lib/service-context.js';
import type { Viewer } from '../../../plugins/auth.js';
import { deleteAccount } from '../../account/account.service.js';
import { deleteComment, replaceRemoteCommentText } from '../../comments/comments.service.js';
import { deletePostsWithMedia } from '../../posts/group-posts.js';
import { deletePost, editPost, removePostMedia } from '../../posts/posts.service.js';
import { setRemoteMedia } from '../../posts/remote-pictures.js';
import { saveActorDocument } from '../../remote/remote-accounts.js';
import { FEDERATION_AVATAR_JOB, iconUrlOf } from '../../remote/remote-refresh.js';
import { postIdsBy, remoteWritingsBy } from '../federation.repository.js';
import { remoteChanging } from '../outbound/outgoing.js';
import { type Ctx, type Writing, isAuthor, isWriting, mediaJson, readNote } from './notes.js';
import { asAccount, knownViewer } from './remote-viewers.js';
import { type Stored, ownStored } from './targets.js';

/**
 * An Update of a stored post or comment by its author edits it, its mentions too (those newly named
 * are told); of an actor by itself (a new name, bio or picture), refreshes its account.
 */
export async function onUpdate(app: FastifyInstance, ctx: Ctx, update: Update): Promise<void> {
  const viewer = await knownViewer(app, update.actorId);
  if (!viewer || !update.actorId) return;
  const object = await update.getObject(ctx);
  if (isActor(object)) {
    const userId = await saveActorDocument(app, object, update.actorId);
    // Its picture may be new too: fetched by a job, so the sending server is answered at once.
    const icon = userId ? await iconUrlOf(object, ctx.documentLoader) : null;
    if (userId && icon) await enqueueJob(app.db, FEDERATION_AVATAR_JOB, { userId, url: icon });
    return;
  }
  if (!isWriting(object) || !isAuthor(object, update.actorId)) return;
  const stored = await ownStored(app.db, object.id, viewer.id);
  if (!stored) return;
  await editStored(app, ctx, viewer, stored, object, await update.toJsonLd({ contextLoader: ctx.contextLoader }), update.id);
}

/**
 * Edits a stored post or comment as its author, to the Note's version; the groups here that
 * passed it on pass the author's Update on (`activity`, with its id).
 */
export async function editStored(app: FastifyInstance, ctx: Ctx, viewer: Viewer, stored: Stored, note: Writing, activity: unknown, activityId: URL | null) {
  const read = await readNote(app, ctx, note);
  let droppedMedia: string[] = [];
  await asAccount(app, async (tx) => {
    if (stored.kind === 'comment') await replaceRemoteCommentText(tx, viewer, stored.id, read.text, read.mentions.map((m) => m.userId));
    else {
      await editPost(tx, viewer, { postId: stored.id, text: read.text, contentWarning: read.contentWarning, mentions: read.mentions.map((m) => m.userId) });
      droppedMedia = await setRemoteMedia(tx, viewer, stored.id, mediaJson(read.media));
    }
    await remoteChanging(tx, { of: stored.kind, id: stored.id, change: 'update', activity, activityId: activityId?.href ?? null });
  });
  // Only once the edit is committed: one refused and rolled back still shows those pictures.
  if (droppedMedia.length) await removePostMedia(app.storage, droppedMedia, app.log);
}

/**
 * Deletes a stored post or comment as its author; the groups here that passed it on pass the
 * author's Delete on (`activity`), told before the rows go.
 */
export async function deleteStored(app: FastifyInstance, viewer: Viewer, stored: Stored, activity: unknown, activityId: URL | null) {
  let mediaKeys: string[] = [];
  await asAccount(app, async (tx) => {
    await remoteChanging(tx, { of: stored.kind, id: stored.id, change: 'delete', activity, activityId: activityId?.href ?? null });
    mediaKeys = stored.kind === 'post' ? await deletePost(tx, viewer, stored.id) : await deleteComment(tx, viewer, stored.id);
  });
  if (mediaKeys.length) await removePostMedia(app.storage, mediaKeys, app.log);
}

/** A Delete of a post or comment by its author removes it; of an actor by itself, its account and posts. */
export async function onDelete(app: FastifyInstance, ctx: Ctx, activity: Delete): Promise<void> {
  const actorId = activity.actorId;
  const viewer = await knownViewer(app, actorId);
  if (!actorId || !viewer) return;
  if (activity.objectId?.href !== actorId.href) {
    const stored = await ownStored(app.db, activity.objectId, viewer.id);
    if (stored) await deleteStored(app, viewer, stored, await activity.toJsonLd({ contextLoader: ctx.contextLoader }), activity.id);
    return;
  }
  let mediaKeys: string[] = [];
  await asAccount(app, async (tx) => {
    await passOnAccountGone(tx, actorId, await remoteWritingsBy(tx.db, viewer.id));
    mediaKeys = await deletePostsWithMedia(tx.db, await postIdsBy(tx.db, viewer.id), app);
    mediaKeys.push(...(await deleteAccount(tx, viewer)));
  });
  if (mediaKeys.length) await removePostMedia(app.storage, mediaKeys, app.log);
}

/**
 * A remote account that deleted itself: the groups here that passed on what it wrote tell their
 * followers each writing is gone, as they pass on a deletion of one, since those servers may not
 * follow the account and so hear nothing of it. The group cannot sign in the author's name, so each
 * is a Delete of one writing, for the receiver to check at the author's server, which no longer has it.
 */
async function passOnAccountGone(tx: ServiceContext, actorId: URL, writings: Array<{ of: 'post' | 'comment'; id: string; apId: string }>): Promise<void> {
  for (const writing of writings) {
    const object = new URL(writing.apId);
    // Made up here, so named here: under the author's address, one for each writing.
    const id = new URL(`${actorId.href}#gone-${createHash('sha256').update(object.href).digest('hex').slice(0, 16)}`);
    const activity = new Delete({ id, actor: actorId, object, to: PUBLIC_COLLECTION });
    await remoteChanging(tx, { of: writing.of, id: writing.id, change: 'delete', activity: await activity.toJsonLd(), activityId: id.href });
  }
}
