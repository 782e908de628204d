import { Temporal } from '@js-temporal/polyfill';
import { Activity, Announce, Create, Delete, Follow, Like, type Note, PUBLIC_COLLECTION, Tombstone, Undo, Update } from '@fedify/fedify/vocab';
import type { FastifyInstance } from 'fastify';
import type { Post } from '#core/api/posts';
import type { OutsideJob } from '../../../lib/jobs/job-handler.js';
import { commentNote, commentNoteUrl, postNoteUrl, remoteCommentNote } from './comment-note.js';
import { type Delivery, enqueueDeliveries } from './delivery.js';
import { federationRules } from '../../../lib/egress/federation-rules.js';
import { egressDocumentLoader, knownContextLoader } from '../../remote/document-loader.js';
import { SOFTWARE, actorUrl, visiblePost } from '../federation.js';
import { actorById, followerInboxes, postMediaVersion, remoteLiked } from '../federation.repository.js';
import { commentOrigin, postOrigin } from './outbound.repository.js';
import type { OutgoingEvent } from './outgoing.js';
import { type NoteAddresses, createOf, noteOf, remoteMentionsOf } from './post-note.js';
import { remoteActorOfAccount } from '../../remote/remote-accounts.js';
import { communitiesOfPost } from '../../remote/remote-communities.js';
import { commentAsVisitor, postAsVisitor } from '../visitor-reads.js';
import { type PictureOwner, endPictureWait } from '../../posts/picture-wait.js';

/**
 * The `federation_outgoing` job: turns what happened into activities and queues their deliveries.
 * It runs once the change has committed, and reads posts and comments as a visitor reads them, so
 * what goes out is what the fediverse may fetch at the same address. A post reaches its author's
 * remote followers, and, through each public group it is in, the group's: the group passes the
 * author's activity on (an Announce of it, signed by the group), as group servers of the fediverse
 * do; so does a comment under a post of a public group, whoever wrote it. Each inbox gets one
 * delivery, a server's shared inbox standing for all its followers.
 */

const actorOf = (app: FastifyInstance, id: string) => new URL(actorUrl(app.config.publicUrl, id));
/** The id Fedify gives an actor's first (RSA) key, the one that signs. */
const keyIdOf = (app: FastifyInstance, id: string) => `${actorOf(app, id).href}#main-key`;
const followersOf = (app: FastifyInstance, id: string) => new URL(`${actorOf(app, id).href}/followers`);

/** The deliveries of an activity, signed by the actor, one per inbox. */
async function send(app: FastifyInstance, actorId: string, inboxes: string[], activity: Activity): Promise<Delivery[]> {
  if (inboxes.length === 0) return [];
  const json = await activity.toJsonLd({ contextLoader: knownContextLoader });
  const keyId = keyIdOf(app, actorId);
  return inboxes.map((inbox) => ({ actorId, keyId, inbox, activity: json }));
}

/** An activity announced by each public group named, to the group's remote followers. */
async function announcedBy(app: FastifyInstance, groupIds: string[], object: Activity, suffix: string): Promise<Delivery[]> {
  const deliveries: Delivery[] = [];
  for (const groupId of new Set(groupIds)) {
    if ((await actorById(app.db, groupId))?.kind !== 'group') continue;
    const inboxes = await followerInboxes(app.db, groupId);
    if (inboxes.length === 0) continue;
    const group = actorOf(app, groupId);
    const announce = new Announce({
      id: new URL(`${group.href}#announces/${suffix}`),
      actor: group,
      object,
      to: PUBLIC_COLLECTION,
      ccs: [followersOf(app, groupId)],
    });
    deliveries.push(...(await send(app, groupId, inboxes, announce)));
  }
  return deliveries;
}

/**
 * To the author's remote followers and the other inboxes named (the mentioned remote actors'), and
 * announced by each public group named to their followers.
 */
async function toAudience(app: FastifyInstance, authorId: string, groupIds: string[], activity: Activity, suffix: string, inboxes: string[] = []): Promise<Delivery[]> {
  const deliveries = await send(app, authorId, [...new Set([...(await followerInboxes(app.db, authorId)), ...inboxes])], activity);
  deliveries.push(...(await announcedBy(app, groupIds, activity, suffix)));
  return deliveries;
}

function addresses(app: FastifyInstance, postId: string, authorId: string): NoteAddresses {
  return {
    origin: app.config.publicUrl,
    note: postNoteUrl(app.config.publicUrl, postId),
    author: actorOf(app, authorId),
    followers: followersOf(app, authorId),
    actor: (id) => actorOf(app, id),
  };
}

const groupIdsOf = (post: Post) => post.groups.flatMap((group) => (group._id ? [group._id] : []));

/**
 * What a group passes on of a remote person's post or comment, shaped as it passes on a local
 * member's: its author's Create of the Note, as kept here under the Note's own id. The group cannot
 * sign for its author, so the Create carries no id of its own; a receiver takes the Note from the
 * author's server, which answers for it (Kruh does, see Incoming).
 */
const remoteCreate = (note: Note) => new Create({ actor: note.attributionId, object: note, published: note.published, to: PUBLIC_COLLECTION, ccs: note.ccIds });

/**
 * A remote person's post in groups here, as a visitor reads it, passed on by the groups (its edits
 * and deletion they pass on as they come, see `sendRemoteChange`).
 */
async function announceRemotePost(app: FastifyInstance, postId: string, apId: string): Promise<Delivery[]> {
  const post = await postAsVisitor(app, postId);
  const author = post ? await remoteActorOfAccount(app.db, post.author.pfp) : undefined;
  if (!post || !author) return [];
  const at: NoteAddresses = { origin: app.config.publicUrl, note: new URL(apId), author: new URL(author.id), followers: null, actor: (id) => actorOf(app, id) };
  const note = noteOf(post, at);
  const page = post.remote?.url;
  return announcedBy(app, groupIdsOf(post), remoteCreate(page ? note.clone({ url: new URL(page) }) : note), `${postId}/create`);
}

async function sendPost(app: FastifyInstance, postId: string, change: 'create' | 'update'): Promise<Delivery[]> {
  const stored = await postOrigin(app.db, postId);
  if (stored?.ap_id) return change === 'create' ? announceRemotePost(app, postId, stored.ap_id) : [];
  const post = await visiblePost(app, postId);
  if (!post) return [];
  const groupIds = groupIdsOf(post);
  const at = { ...addresses(app, post._id, post.author.pfp), remoteMentions: await remoteMentionsOf(app.db, post), communities: await communitiesOfPost(app.db, post._id) };
  const note = noteOf(post, at);
  // A new picture is a new version as much as new words are: its Update needs an id of its own
  // (the Create keeps the one it always had), and its Note an `updated` later than its
  // `published`, which is what Mastodon compares before it takes an Update at all.
  const written = post.editedAt ?? post.createdAt;
  const version = change === 'create' ? written : Math.max(written, await postMediaVersion(app.db, post._id), post.createdAt + 1);
  const activity =
    change === 'create'
      ? createOf(note, post, at)
      : new Update({
          // One id per version, so a server that saw an earlier edit takes this one too.
          id: new URL(`${at.note.href}#updates/${version}`),
          actor: at.author,
          object: note.clone({ updated: Temporal.Instant.fromEpochMilliseconds(version) }),
          published: Temporal.Instant.fromEpochMilliseconds(version),
          to: PUBLIC_COLLECTION,
          ccs: [at.followers!, ...at.communities.map((community) => new URL(community.id))],
        });
  // The communities of other servers it was posted into get it as their members' posts come: to their inboxes.
  const inboxes = [...[...at.remoteMentions.values()].map((actor) => actor.inbox), ...at.communities.map((community) => community.inbox)];
  return toAudience(app, post.author.pfp, groupIds, activity, `${post._id}/${change}/${version}`, inboxes);
}

async function sendPostDeletion(app: FastifyInstance, event: Extract<OutgoingEvent, { kind: 'post_deleted' }>): Promise<Delivery[]> {
  const at = addresses(app, event.postId, event.authorId);
  const activity = new Delete({
    id: new URL(`${at.note.href}#delete`),
    actor: at.author,
    object: new Tombstone({ id: at.note }),
    to: PUBLIC_COLLECTION,
    ccs: [at.followers!, ...(event.communities ?? []).map((community) => new URL(community.id))],
  });
  const inboxes = [...(event.mentioned ?? []), ...(event.communities ?? []).map((community) => community.inbox)];
  return toAudience(app, event.authorId, event.groupIds, activity, `${event.postId}/delete`, inboxes);
}

/** A local user's like of another server's post or comment, or its Undo, to its author. */
async function sendLike(app: FastifyInstance, event: Extract<OutgoingEvent, { kind: 'like' }>): Promise<Delivery[]> {
  const liked = await remoteLiked(app.db, event);
  if (!liked?.authorId || (await actorById(app.db, event.userId))?.kind !== 'user') return [];
  const author = await remoteActorOfAccount(app.db, liked.authorId);
  if (!author) return [];
  const actor = actorOf(app, event.userId);
  // A post's like keeps the id it always had; a comment's is told apart from it.
  const of = event.commentId === undefined ? event.postId : `comments/${event.commentId}`;
  const like = new Like({ id: new URL(`${actor.href}#likes/${of}/${event.since}`), actor, object: new URL(liked.apId), to: new URL(author.id) });
  const activity = event.liked ? like : new Undo({ id: new URL(`${like.id!.href}/undo`), actor, object: like, to: new URL(author.id) });
  return send(app, event.userId, [author.inbox], activity);
}

/** A local user's Follow of a remote account, or its Undo, to that account's actor. */
async function sendFollow(app: FastifyInstance, event: Extract<OutgoingEvent, { kind: 'follow' }>): Promise<Delivery[]> {
  if ((await actorById(app.db, event.followerId))?.kind !== 'user') return [];
  const target = await remoteActorOfAccount(app.db, event.targetId);
  if (!target) return [];
  const actor = actorOf(app, event.followerId);
  const follow = new Follow({ id: new URL(`${actor.href}#follows/${event.targetId}/${event.since}`), actor, object: new URL(target.id), to: new URL(target.id) });
  const activity = event.following ? follow : new Undo({ id: new URL(`${follow.id!.href}/undo`), actor, object: follow, to: new URL(target.id) });
  return send(app, event.followerId, [target.inbox], activity);
}

/** The public groups of a post a visitor may read; none for any other. */
async function groupsOfVisiblePost(app: FastifyInstance, postId: string): Promise<string[]> {
  const post = await postAsVisitor(app, postId);
  return post ? groupIdsOf(post) : [];
}

/**
 * A comment, as a visitor reads it: a local one to the remote authors it answers and the remote
 * accounts it mentions, and, whoever wrote it, passed on by each public group its post is in to the
 * group's followers (its author's Create of its Note, see remoteCreate for a remote person's).
 */
async function sendComment(app: FastifyInstance, commentId: string): Promise<Delivery[]> {
  const stored = await commentOrigin(app.db, commentId);
  if (!stored) return [];
  const suffix = `comments/${commentId}/create`;
  if (stored.ap_id) {
    const remote = await remoteCommentNote(app, commentId, stored.ap_id, (id) => actorOf(app, id));
    return remote ? announcedBy(app, await groupsOfVisiblePost(app, remote.postId), remoteCreate(remote.note), suffix) : [];
  }
  const found = await commentNote(app, commentId, (id) => actorOf(app, id));
  if (!found) return [];
  const { note } = found;
  const create = new Create({
    id: new URL(`${note.id!.href}#create`),
    actor: note.attributionId,
    object: note,
    published: note.published,
    to: PUBLIC_COLLECTION,
    ccs: note.ccIds,
  });
  const inboxes = [...found.recipients, ...found.communities].map((recipient) => recipient.inbox);
  const deliveries = await send(app, found.author, [...new Set(inboxes)], create);
  deliveries.push(...(await announcedBy(app, await groupsOfVisiblePost(app, found.postId), create, suffix)));
  return deliveries;
}

/** A deleted comment's Note, gone, to the remote actors it went to, and passed on by the groups that passed it on. */
async function sendCommentDeletion(app: FastifyInstance, event: Extract<OutgoingEvent, { kind: 'comment_deleted' }>): Promise<Delivery[]> {
  const note = commentNoteUrl(app.config.publicUrl, event.commentId);
  const actor = actorOf(app, event.authorId);
  const activity = new Delete({ id: new URL(`${note.href}#delete`), actor, object: new Tombstone({ id: note }), to: PUBLIC_COLLECTION });
  const deliveries = await send(app, event.authorId, event.inboxes, activity);
  deliveries.push(...(await announcedBy(app, event.groupIds ?? [], activity, `comments/${event.commentId}/delete`)));
  return deliveries;
}

/**
 * A remote person's edit or deletion, passed on by the groups that passed on what it changes: the
 * Announce embeds the author's activity as it came (one signed by its author could not be made
 * here), so a receiver takes it as the group's word and checks it at the author's server.
 */
async function sendRemoteChange(app: FastifyInstance, event: Extract<OutgoingEvent, { kind: 'remote_change' }>): Promise<Delivery[]> {
  // An edit of what a visitor may no longer read (hidden, or its author suspended) goes nowhere, as its Note would not.
  if (event.change === 'update' && !(event.of === 'post' ? await postAsVisitor(app, event.id) : await commentAsVisitor(app, event.id))) return [];
  const loader = egressDocumentLoader(app.egress, `Kruh/${SOFTWARE.version} (+${app.config.publicUrl})`, federationRules(app.config));
  const activity = await Activity.fromJsonLd(event.activity, { documentLoader: loader, contextLoader: knownContextLoader });
  const of = event.of === 'post' ? event.id : `comments/${event.id}`;
  const suffix = event.change === 'update' ? `${of}/update/${event.version}` : `${of}/delete`;
  return announcedBy(app, event.groupIds, activity, suffix);
}

/** A deleted account's actor, gone: signed with its key, which outlives the account for this. */
async function sendActorDeletion(app: FastifyInstance, event: Extract<OutgoingEvent, { kind: 'actor_deleted' }>): Promise<Delivery[]> {
  const actor = actorOf(app, event.actorId);
  const activity = new Delete({ id: new URL(`${actor.href}#delete`), actor, object: actor, to: PUBLIC_COLLECTION });
  return send(app, event.actorId, event.inboxes, activity);
}

type Sender<E extends OutgoingEvent> = (app: FastifyInstance, event: E) => Promise<Delivery[]>;

/** What each kind of event sends, and to whom; a kind without its sender does not compile. */
const SENDERS: { [K in OutgoingEvent['kind']]: Sender<Extract<OutgoingEvent, { kind: K }>> } = {
  post: (app, event) => sendPost(app, event.postId, event.change),
  post_deleted: sendPostDeletion,
  like: sendLike,
  follow: sendFollow,
  comment: (app, event) => sendComment(app, event.commentId),
  comment_deleted: sendCommentDeletion,
  remote_change: sendRemoteChange,
  actor_deleted: sendActorDeletion,
};

async function deliveriesOf(app: FastifyInstance, event: OutgoingEvent): Promise<Delivery[]> {
  // The table pairs each kind with its own event type, which indexing by a union cannot follow.
  return (SENDERS[event.kind] as Sender<OutgoingEvent>)(app, event);
}

/**
 * Reading is all it does before queuing every delivery at once, so a crash before that just runs it
 * again. Federation turned off meanwhile sends nothing.
 */
export const federationOutgoingJob: OutsideJob<OutgoingEvent> = {
  outside: async (app, event) => {
    if (!app.config.federation) return;
    const deliveries = await deliveriesOf(app, event);
    if (event.kind === 'post' && event.held) return sendHeld(app, 'post', event.postId, deliveries);
    if (event.kind === 'comment' && event.held) return sendHeld(app, 'comment', event.commentId, deliveries);
    await enqueueDeliveries(app.db, deliveries);
  },
};

/** A post's or comment's Create, once its wait for pictures is over: sent unless its last picture sent it already. */
async function sendHeld(app: FastifyInstance, of: PictureOwner, id: string, deliveries: Delivery[]): Promise<void> {
  await app.db.transaction().execute(async (trx) => {
    if (await endPictureWait(trx, of, id, false)) await enqueueDeliveries(trx, deliveries);
  });
}
