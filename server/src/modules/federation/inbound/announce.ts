import type { DocumentLoader } from '@fedify/fedify';
import { type Announce, Create, Delete, Group, Update } from '@fedify/fedify/vocab';
import type { FastifyInstance } from 'fastify';
import { isGone } from '../../remote/document-loader.js';
import { isPostInCommunity } from '../../remote/remote-communities.js';
import { isFollowedHere, postByApId, recordShare } from '../federation.repository.js';
import { type Ctx, type Writing, isAuthor, isWriting, localPostId } from './notes.js';
import { knownViewer } from './remote-viewers.js';
import { storeNote } from './store-note.js';
import { ownStored } from './targets.js';
import { fetchWriting } from './thread-fetch.js';
import { deleteStored, editStored, onDelete, onUpdate } from './update-delete.js';

/**
 * Kruh has no reposts, so a boost of a post is not kept. A community (a Lemmy Group, a Kruh group)
 * someone here follows passes on its members' posts this way, though, and their edits and
 * deletions. The group's server speaks only for its own actors: what it embeds in their name is
 * taken as the activity it is, anything in the name of someone on another server is read again
 * from that server (whatever ids the group gave the activities, which it may make up).
 */
export async function onAnnounce(app: FastifyInstance, ctx: Ctx, announce: Announce): Promise<void> {
  const groupId = announce.actorId;
  const group = await knownViewer(app, groupId);
  if (!groupId || !group || !(await isFollowedHere(app.db, group.id))) return;
  const actor = await announce.getActor(ctx);
  if (!(actor instanceof Group)) return;
  if (await sharedOwnPost(app, ctx, announce.objectId, group.id)) return;
  const passed = await passedOn(ctx, announce, groupId);
  if (!passed) return;
  const { object, vouchedBy } = passed;
  if (object instanceof Update || object instanceof Delete) {
    const vouched = object.actorId?.origin === vouchedBy;
    if (object instanceof Update) return vouched ? onUpdate(app, ctx, object) : passedOnUpdate(app, ctx, object);
    return vouched ? onDelete(app, ctx, object) : passedOnDelete(app, ctx, object);
  }
  const noteUri = object instanceof Create ? object.objectId : isWriting(object) ? object.id : null;
  if (await sharedOwnPost(app, ctx, noteUri, group.id)) return;
  const shared = await sharedWriting(app, ctx, object, vouchedBy);
  if (!shared?.note.id) return;
  await storeNote(app, ctx, shared.note, shared.authorId, 'shared');
  // The community's followers here read what it passes on in their following feed: the post is
  // kept as its author's, and the share says whose followers see it (once per community, however
  // often it is announced, and whether it was stored just now or came earlier another way).
  const stored = await postByApId(app.db, shared.note.id.href);
  if (stored && stored.author_id !== group.id) await recordShare(app.db, group.id, stored.id, Date.now());
}

/**
 * A community elsewhere passing on a post written here into it: nothing to store, but its
 * followers here read it in their following feed as they read what it passes on from elsewhere.
 * Only a post its author filed under that community counts: a group cannot put any post of ours
 * into its followers' feeds by announcing it. Whether `uri` (the announced Note, or the Note of an
 * announced Create) names a post of ours.
 */
async function sharedOwnPost(app: FastifyInstance, ctx: Ctx, uri: URL | null, groupAccountId: string): Promise<boolean> {
  const postId = localPostId(ctx, uri);
  if (!postId) return false;
  if (await isPostInCommunity(app.db, postId, groupAccountId)) await recordShare(app.db, groupAccountId, postId, Date.now());
  return true;
}

/** A loader that loads nothing: what is read with it is only what a document embeds. */
const embeddedOnly: DocumentLoader = (url) => Promise.reject(new Error(`not fetched: ${url}`));

/**
 * What an Announce passes on, and the origin of the server that vouches for it: the group's for
 * what the group embeds, the server it was read from for what the Announce names by address only
 * (Fedify takes a fetched document only when it is served at its own id's origin).
 */
async function passedOn(ctx: Ctx, announce: Announce, groupId: URL): Promise<{ object: unknown; vouchedBy: string } | null> {
  const embedded = await announce.getObject({ crossOrigin: 'trust', documentLoader: embeddedOnly, contextLoader: ctx.contextLoader, suppressError: true });
  if (embedded) return { object: embedded, vouchedBy: groupId.origin };
  const fetched = await announce.getObject(ctx);
  return fetched?.id ? { object: fetched, vouchedBy: fetched.id.origin } : null;
}

/**
 * The post a group passes on (a Note, or a Create of one) and its author: as passed on when the
 * vouching server is the author's own, else as the author's server serves it now.
 */
async function sharedWriting(app: FastifyInstance, ctx: Ctx, object: unknown, vouchedBy: string): Promise<{ note: Writing; authorId: URL } | null> {
  // What was written here is here already (see storeNote): nothing to read back from this server.
  const atAuthors = (id: URL | null) => (id && id.origin !== new URL(app.config.publicUrl).origin ? fetchWriting(app, ctx, id) : null);
  let authorId: URL | null = null;
  let note: unknown = null;
  if (object instanceof Create) {
    authorId = object.actorId;
    if (authorId?.origin !== vouchedBy) return atAuthors(object.objectId);
    note = await object.getObject({ documentLoader: ctx.documentLoader, contextLoader: ctx.contextLoader, suppressError: true });
  } else if (isWriting(object)) {
    authorId = object.attributionId;
    if (authorId?.origin !== vouchedBy) return atAuthors(object.id);
    note = object;
  }
  return isWriting(note) && isAuthor(note, authorId) ? { note, authorId } : null;
}

/**
 * A passed-on Update of a stored post or comment: the Note is read again from its author's own
 * server, and that version is taken as the author's edit (whatever the group embedded).
 */
async function passedOnUpdate(app: FastifyInstance, ctx: Ctx, update: Update): Promise<void> {
  const actorId = update.actorId;
  const noteId = update.objectId;
  const viewer = await knownViewer(app, actorId);
  if (!viewer || !actorId || !noteId || noteId.origin !== actorId.origin) return;
  const stored = await ownStored(app.db, noteId, viewer.id);
  if (!stored) return;
  const note = await ctx.lookupObject(noteId).catch(() => null);
  if (!isWriting(note) || note.id?.href !== noteId.href || !isAuthor(note, actorId)) return;
  await editStored(app, ctx, viewer, stored, note, await update.toJsonLd({ contextLoader: ctx.contextLoader }), update.id);
}

/**
 * A passed-on Delete of a stored post or comment counts once the author's server no longer has it
 * (it answers 404 or 410, or shows a Tombstone); an account's deletion is its own to send.
 */
async function passedOnDelete(app: FastifyInstance, ctx: Ctx, activity: Delete): Promise<void> {
  const actorId = activity.actorId;
  const objectId = activity.objectId;
  const viewer = await knownViewer(app, actorId);
  if (!viewer || !actorId || !objectId || objectId.origin !== actorId.origin || objectId.href === actorId.href) return;
  const stored = await ownStored(app.db, objectId, viewer.id);
  if (!stored || !(await goneAt(ctx, objectId))) return;
  await deleteStored(app, viewer, stored, await activity.toJsonLd({ contextLoader: ctx.contextLoader }), activity.id);
}

/** Whether the server an object comes from says it is gone. */
async function goneAt(ctx: Ctx, uri: URL): Promise<boolean> {
  try {
    const { document } = await ctx.documentLoader(uri.href);
    return typeof document === 'object' && document !== null && (document as { type?: unknown }).type === 'Tombstone';
  } catch (error) {
    return isGone(error);
  }
}
