import type { Create } from '@fedify/fedify/vocab';
import type { FastifyInstance } from 'fastify';
import { LIMITS } from '#core/limits';
import { commentByApId, groupsFollowedBy, postByApId } from '../federation.repository.js';
import { type Ctx, type NoteContext, type Writing, addressed, isAuthor, isWriting, readNote } from './notes.js';
import { followedHere, visitorReads } from './remote-viewers.js';
import { storeComment, storeReadPost } from './stored-writings.js';
import { replyParent } from './targets.js';
import { THREAD_FETCHES, fetchThread } from './thread-fetch.js';

/**
 * What other servers send to the instance's inboxes (the handlers of this folder; follows are
 * follows.ts and follow-replies.ts). Fedify has checked the request's signature and that the key is the activity's actor's before a listener runs; the rules
 * here are Kruh's own:
 *
 * - Only the author acts on their content: a Create, Update or Delete counts when its actor is the
 *   object's author, and a Note is taken only from the server its author lives on (Fedify fetches
 *   an object embedded from another server again from its own).
 * - A remote person is a local account (see modules/remote/remote-accounts.ts), so a reply or a like goes through
 *   the very services a local user's does: the same visibility, bans, blocks, limits and
 *   notifications. What they refuse is dropped, nothing stored.
 * - Nothing unsolicited is kept: a Note becomes a post only when someone here follows its author,
 *   a followed community (Lemmy) shares it, it names someone here, or its author posts it into a
 *   public group here they follow (the group then announces it); a reply only when it
 *   answers something stored here, or names someone here or is by someone followed here (its
 *   thread is then fetched as context, see thread-fetch.ts). Only public Notes are taken, since
 *   everything in Kruh outside private groups is public: a followers-only or direct Note is never
 *   published here.
 * - A suspended remote account's activities are ignored.
 */

/**
 * The local groups a remote author posts into: those its Note or Create names (as a recipient or
 * the audience, as Lemmy and Mastodon do) and that the author follows from its server, which stands
 * for joining. The group's own rules are the posts service's to apply.
 */
async function groupsPostedTo(app: FastifyInstance, ctx: NoteContext, addresses: URL[], authorId: URL): Promise<string[]> {
  const ids = new Set<string>();
  for (const uri of addresses) {
    const parsed = ctx.parseUri(uri);
    if (parsed?.type === 'actor') ids.add(parsed.identifier);
  }
  return (await groupsFollowedBy(app.db, authorId.href, [...ids])).slice(0, LIMITS.groupsPerPost);
}

/**
 * How a Note came: delivered to an inbox, passed on by a followed community, or read from its
 * author's outbox when someone here looked the author up (an old post: wanted, as the profile
 * shows it, but no news to anyone, and put in no group here).
 */
export type Arrival = 'delivered' | 'shared' | 'backfill';

/**
 * Stores a Note written by `authorId`: a reply to something stored here becomes a comment, any
 * other a post when it is wanted here (see `Arrival`), in the local groups it was posted into
 * (`create`, the activity that brought it, may name them too).
 */
export async function storeNote(app: FastifyInstance, ctx: NoteContext, note: Writing, authorId: URL, arrival: Arrival, create?: Create): Promise<void> {
  // A group elsewhere passes on what is written under its posts, what users here wrote too: that
  // is here already, as what it is, never to be stored again as another server's.
  if (!note.id || note.id.origin === new URL(app.config.publicUrl).origin) return;
  if ((await postByApId(app.db, note.id.href)) || (await commentByApId(app.db, note.id.href))) return;
  const read = await readNote(app, ctx, note);
  if (!read.isPublic) return;
  if (read.replyTo && arrival === 'backfill') return;
  if (read.replyTo) {
    let parent = await replyParent(app, ctx, read.replyTo);
    // A reply that names someone here or whose author is followed here is wanted though the thread
    // it answers is not here: the thread is fetched first, as context.
    if (!parent && (read.addressesLocal || (await followedHere(app, authorId)))) parent = await fetchThread(app, ctx, read.replyTo, THREAD_FETCHES);
    if (!parent || !(await visitorReads(app, parent.postId))) return;
    await storeComment(app, ctx, read, authorId, parent.id, false);
    return;
  }
  const backfill = arrival === 'backfill';
  const groupIds = backfill ? [] : await groupsPostedTo(app, ctx, [...addressed(note), ...(create ? addressed(create) : [])], authorId);
  const wanted = arrival !== 'delivered' || read.addressesLocal || groupIds.length > 0 || (await followedHere(app, authorId));
  if (!wanted || (read.text === '' && read.media.length === 0)) return;
  await storeReadPost(app, ctx, read, authorId, { groupIds, quiet: backfill });
}

export async function onCreate(app: FastifyInstance, ctx: Ctx, create: Create): Promise<void> {
  const object = await create.getObject(ctx);
  if (isWriting(object) && isAuthor(object, create.actorId)) await storeNote(app, ctx, object, create.actorId, 'delivered', create);
}
