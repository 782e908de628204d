import { createHash } from 'node:crypto';
import { groupIdsOfPost } from '../../../db/posts.js';
import type { Executor } from '../../../db/schema.js';
import type { ServiceContext } from '../../../lib/service-context.js';
import { enqueueJob } from '../../../lib/jobs/queue.js';
import { isPrivatePost } from '../../../policy/post-visibility.js';
import { type LikeTarget, actorById, followedGroupsOf, followerInboxes, likeGivenAt, remoteLiked, removeRemoteFollowers } from '../federation.repository.js';
import { commentMentions, commentOrigin, commentWithAnswered, followSince, postMentions, postOrigin, sendableComment } from './outbound.repository.js';
import { remoteActorOfAccount } from '../../remote/remote-accounts.js';
import { type CommunityActor, communitiesOfPost } from '../../remote/remote-communities.js';
import { remoteAuthors, withMentioned } from './comment-note.js';
import { remoteMentionsOf } from './post-note.js';
import { recordTombstone } from './tombstones.js';
import { type PictureOwner, awaitPictures, endPictureWait, isAwaitingPictures } from '../../posts/picture-wait.js';

/**
 * What the rest of the server tells the fediverse, as federation's subscribers to its domain events
 * call it (subscribers.ts): each call is made in the transaction of the change and only queues a
 * job there (`federation_outgoing`), which builds the activities once the change has committed and
 * queues one signed delivery per inbox. Nothing is queued while federation is off, nor for anything
 * a visitor may not read (a private group's post, an account that is not public), so the services
 * that publish the events need not know any of the rules.
 */
export const FEDERATION_OUTGOING_JOB = 'federation_outgoing';

export type OutgoingEvent =
  /** `held`: the Create of a post that waited for its pictures, due once the wait is over (see postPublished). */
  | { kind: 'post'; postId: string; change: 'create' | 'update'; held?: boolean }
  /**
   * `mentioned`: the inboxes of the remote actors it mentions; `communities`: those of other servers
   * it was in (see remote-communities.ts); both read before it went.
   */
  | { kind: 'post_deleted'; postId: string; authorId: string; groupIds: string[]; mentioned?: string[]; communities?: CommunityActor[] }
  /** `since`: when the like was given (it names the Like, so an Undo names the same one). */
  | ({ kind: 'like'; userId: string; liked: boolean; since: number } & LikeTarget)
  | { kind: 'follow'; followerId: string; targetId: string; following: boolean; since: number }
  /** `held`: as a post's (see commentPublished). */
  | { kind: 'comment'; commentId: string; held?: boolean }
  /**
   * The inboxes of the remote authors the comment answered and the remote accounts it mentioned,
   * and the public groups with remote followers its post was in (they pass the deletion on), read
   * before it went.
   */
  | { kind: 'comment_deleted'; commentId: string; authorId: string; inboxes: string[]; groupIds?: string[] }
  /**
   * A remote person's edit or deletion of their post or comment, which public groups here passed
   * on: they pass it on too. `activity`: the author's own, as JSON-LD; `groupIds`: read before a
   * deletion took the rows; `version`: tells the Announces of one post's edits apart.
   */
  | { kind: 'remote_change'; of: 'post' | 'comment'; id: string; change: 'update' | 'delete'; activity: unknown; groupIds: string[]; version: string }
  /** The inboxes of the deleted account's followers, read before they were forgotten. */
  | { kind: 'actor_deleted'; actorId: string; inboxes: string[] };

declare module '../../../lib/jobs/job-handler.js' {
  interface JobPayloads {
    [FEDERATION_OUTGOING_JOB]: OutgoingEvent;
  }
}

const on = (ctx: ServiceContext) => ctx.app.config.federation;
const queue = (ctx: ServiceContext, event: OutgoingEvent) => enqueueJob(ctx.db, FEDERATION_OUTGOING_JOB, event);

/**
 * How long a post or comment written with pictures to follow waits for them: past it, it goes with
 * the pictures that came (the app may have given up an upload); a post's later one goes as an edit.
 */
export const PICTURES_WAIT_MS = 10 * 60_000;

/**
 * A new post: the job reads it as a visitor would, so one in a private group goes nowhere. One the
 * app uploads `pictures` for after it waits for them, so its Create carries them: the last one
 * sends it (postPictureAdded), or else a job due once the wait is over.
 */
export async function postPublished(ctx: ServiceContext, postId: string, pictures = 0): Promise<void> {
  if (!on(ctx)) return;
  await sendOncePicturesAreIn(ctx, 'post', postId, pictures, { kind: 'post', postId, change: 'create' });
}

/**
 * Queues the Create of a new post or comment, at once when the app uploads no pictures after it;
 * else it waits for them: the last one sends it (see picturesIn), or else a job due once the wait
 * is over.
 */
async function sendOncePicturesAreIn(
  ctx: ServiceContext,
  of: PictureOwner,
  id: string,
  pictures: number,
  create: Extract<OutgoingEvent, { kind: 'post' | 'comment' }>,
): Promise<void> {
  if (pictures <= 0) return queue(ctx, create);
  await awaitPictures(ctx.db, of, id, pictures);
  await enqueueJob(ctx.db, FEDERATION_OUTGOING_JOB, { ...create, held: true }, Date.now() + PICTURES_WAIT_MS);
}

/** A picture was stored: true when it was the last one the post or comment waited for, its Create now queued. */
async function picturesIn(ctx: ServiceContext, of: PictureOwner, id: string, create: OutgoingEvent): Promise<boolean> {
  if (!(await endPictureWait(ctx.db, of, id, true))) return false;
  await queue(ctx, create);
  return true;
}

/** A post's text changed; one still waiting for its pictures has not gone out, and goes as it then is. */
export async function postEdited(ctx: ServiceContext, postId: string): Promise<void> {
  if (on(ctx) && !(await isAwaitingPictures(ctx.db, 'post', postId))) await queue(ctx, { kind: 'post', postId, change: 'update' });
}

/** A picture of a post was stored: the last one the post waited for sends it, one added later is an edit. */
export async function postPictureAdded(ctx: ServiceContext, postId: string): Promise<void> {
  if (!on(ctx)) return;
  if (!(await picturesIn(ctx, 'post', postId, { kind: 'post', postId, change: 'create' }))) await postEdited(ctx, postId);
}

/**
 * A post about to be deleted: what the Delete needs is read now, while the post and its groups are
 * still there. A post another server wrote, one in a private group, or one by an author who is not
 * public was never sent, so its deletion is not either. A post that was sent leaves a tombstone
 * behind: its Note's address answers that it is gone.
 */
export async function postDeleting(ctx: ServiceContext, postId: string): Promise<void> {
  if (!on(ctx)) return;
  const post = await postOrigin(ctx.db, postId);
  if (!post?.author_id || post.ap_id !== null) return;
  if (await isPrivatePost(ctx.db, postId)) return;
  const groupIds = await groupIdsOfPost(ctx.db, postId);
  if ((await actorById(ctx.db, post.author_id))?.kind !== 'user') return;
  await recordTombstone(ctx.db, 'post', postId);
  // Still waiting for its pictures, it went nowhere.
  if (await isAwaitingPictures(ctx.db, 'post', postId)) return;
  const mentions = await postMentions(ctx.db, postId);
  const mentioned = [...(await remoteMentionsOf(ctx.db, { mentions })).values()].map((actor) => actor.inbox);
  const communities = await communitiesOfPost(ctx.db, postId);
  await queue(ctx, { kind: 'post_deleted', postId, authorId: post.author_id, groupIds, mentioned, communities });
}

/**
 * A like of a post or a comment is about to be given or taken back (`now` is the time it is given;
 * `liked` left out toggles it); only one of another server's is told to it. Called before the
 * change, so a like taken back is still there to say when it was given, and one that changes
 * nothing says nothing.
 */
export async function likeChanging(ctx: ServiceContext, change: LikeTarget & { userId: string; liked: boolean | undefined; now: number }): Promise<void> {
  if (!on(ctx) || !(await remoteLiked(ctx.db, change))) return;
  const given = await likeGivenAt(ctx.db, change, change.userId);
  const liked = change.liked ?? given === undefined;
  if (liked === (given !== undefined)) return;
  const target: LikeTarget = change.commentId === undefined ? { postId: change.postId } : { commentId: change.commentId };
  await queue(ctx, { kind: 'like', ...target, userId: change.userId, liked, since: liked ? change.now : given! });
}

/**
 * A follow of a remote account was just made, or is about to end (called before the row goes, so
 * its time names the Follow the Undo takes back).
 */
export async function followChanging(ctx: ServiceContext, change: { followerId: string; targetId: string; following: boolean }): Promise<void> {
  if (!on(ctx) || !(await remoteActorOfAccount(ctx.db, change.targetId))) return;
  const since = await followSince(ctx.db, change.followerId, change.targetId);
  if (since === undefined) return;
  await queue(ctx, { ...change, kind: 'follow', since });
}

/**
 * Who hears of a comment: when a local user wrote it, the remote authors it answers (of the post,
 * and of the comment it replies to) and the remote accounts it mentions; and the followers of each
 * public group its post is in, through the group, whoever wrote it (a remote person's comment too:
 * the group passes on what is said under its posts, as it does its posts). A comment under a
 * private group's post, or heard of by nobody, is sent nowhere.
 */
async function commentAudience(db: Executor, commentId: string) {
  const row = await commentWithAnswered(db, commentId);
  if (!row?.author_id) return null;
  const local = row.ap_id === null;
  // A remote person's own server sent their comment to whom they answered and named.
  const inboxes = local ? await commentRecipientInboxes(db, commentId, row.post_id, [row.post_author, row.parent_author]) : [];
  const groupIds = await followedGroupsOf(db, row.post_id);
  return inboxes.length > 0 || groupIds.length > 0 ? { authorId: row.author_id, local, inboxes, groupIds } : null;
}

/**
 * The inboxes of the remote authors a local comment answers, of the remote accounts it mentions and
 * of the communities of other servers its post is in, once each.
 */
async function commentRecipientInboxes(db: Executor, commentId: string, postId: string, answered: (string | null)[]): Promise<string[]> {
  const mentions = await commentMentions(db, commentId);
  const recipients = withMentioned(await remoteAuthors(db, answered), await remoteMentionsOf(db, { mentions }));
  return [...new Set([...recipients, ...(await communitiesOfPost(db, postId))].map((recipient) => recipient.inbox))];
}

/**
 * A new comment: sent to the remote authors it answers and the remote accounts it mentions, and
 * passed on by its post's public groups; one the app uploads `pictures` for after it waits for
 * them, as a post does.
 */
export async function commentPublished(ctx: ServiceContext, commentId: string, pictures = 0): Promise<void> {
  if (!on(ctx) || !(await commentAudience(ctx.db, commentId))) return;
  await sendOncePicturesAreIn(ctx, 'comment', commentId, pictures, { kind: 'comment', commentId });
}

/**
 * A picture of a comment was stored: the last one the comment waited for sends it. A comment's
 * Note is not sent again for a picture added later (nor for any other change).
 */
export async function commentPictureAdded(ctx: ServiceContext, commentId: string): Promise<void> {
  if (on(ctx)) await picturesIn(ctx, 'comment', commentId, { kind: 'comment', commentId });
}

/**
 * A comment about to be deleted by its author: whoever its Note went to is told, when it went
 * anywhere (a public author's comment answering or mentioning someone of another server, or under a
 * public group's post the group passed it on from). A remote person's deletion is their server's
 * to tell. A public author's comment under a post in no private group could be read at its Note's
 * address, sent or not: that address answers that it is gone.
 */
export async function commentDeleting(ctx: ServiceContext, commentId: string): Promise<void> {
  if (!on(ctx)) return;
  const comment = await sendableComment(ctx.db, commentId);
  if (!comment?.author_id || comment.ap_id !== null || (await actorById(ctx.db, comment.author_id))?.kind !== 'user') return;
  await recordTombstone(ctx.db, 'comment', commentId);
  // Still waiting for its pictures, it went nowhere.
  if (await isAwaitingPictures(ctx.db, 'comment', commentId)) return;
  const audience = await commentAudience(ctx.db, commentId);
  if (!audience) return;
  const { authorId, inboxes, groupIds } = audience;
  await queue(ctx, { kind: 'comment_deleted', commentId, authorId, inboxes, groupIds });
}

/**
 * A remote person's edit or deletion of their post or comment, about to be made (a deletion still
 * has the rows to read): each public group with remote followers that the post, or the comment's
 * post, is in passed it on when it came, and passes this on the same way, as the author's own
 * activity. Nothing for a post in no group here, or in a private one.
 */
export async function remoteChanging(
  ctx: ServiceContext,
  change: { of: 'post' | 'comment'; id: string; change: 'update' | 'delete'; activity: unknown; activityId: string | null },
): Promise<void> {
  if (!on(ctx)) return;
  const postId =
    change.of === 'post' ? change.id : (await commentOrigin(ctx.db, change.id))?.post_id;
  const groupIds = postId ? await followedGroupsOf(ctx.db, postId) : [];
  if (groupIds.length === 0) return;
  // The author's activity (its id when it has one) is new for each edit, and may be long: a digest names the edit.
  const version = createHash('sha256')
    .update(change.activityId ?? JSON.stringify(change.activity))
    .digest('hex')
    .slice(0, 16);
  await queue(ctx, { kind: 'remote_change', of: change.of, id: change.id, change: change.change, activity: change.activity, groupIds, version });
}

/**
 * A local user or group stops being an actor (deleted, or a group made private): its remote
 * followers are forgotten, whether federation is on or not, so none outlives it.
 */
export async function actorGone(db: Executor, localId: string): Promise<void> {
  await removeRemoteFollowers(db, localId);
}

/**
 * An account about to be deleted: its remote followers are told the actor is gone (while its
 * followers are still known), then forgotten.
 */
export async function accountDeleting(ctx: ServiceContext, userId: string): Promise<void> {
  if (on(ctx) && (await actorById(ctx.db, userId))?.kind === 'user') {
    const inboxes = await followerInboxes(ctx.db, userId);
    if (inboxes.length > 0) await queue(ctx, { kind: 'actor_deleted', actorId: userId, inboxes });
  }
  await actorGone(ctx.db, userId);
}
