import { createHash } from 'node:crypto';
import type { Context, DocumentLoader, InboxContext } from '@fedify/fedify';
import {
  type Activity,
  type Actor,
  Announce,
  Article,
  type Collection,
  CollectionPage,
  Create,
  Delete,
  Document,
  Follow,
  Group,
  Image,
  Like,
  Link,
  Mention,
  Note,
  Object as APObject,
  Page,
  PUBLIC_COLLECTION,
  type Undo,
  Update,
  isActor,
} from '@fedify/fedify/vocab';
import type { FastifyInstance } from 'fastify';
import { postsApi } from '#core/api/posts';
import { LIMITS } from '#core/limits';
import { isUniqueViolation, newTransaction } from '../../db/helpers.js';
import type { Executor } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { type ServiceContext, contextOf } from '../../lib/service-context.js';
import type { Viewer } from '../../plugins/auth.js';
import { deleteAccount } from '../account/account.service.js';
import { findAccount } from '../auth/auth.service.js';
import { createComment, deleteComment, likeComment, replaceRemoteCommentText } from '../comments/comments.service.js';
import { deletePostsWithMedia } from '../posts/group-posts.js';
import { setRemoteMedia } from '../posts/remote-pictures.js';
import { deletePost, editPost, likePost, removePostMedia, storeRemotePost } from '../posts/posts.service.js';
import { readAsVisitor } from '../syndication/visitor-read.js';
import { localCommentId } from './comment-note.js';
import { isGone } from '../remote/document-loader.js';
import { actorById, commentByApId, groupsFollowedBy, isFollowedHere, localCommentById, postByApId, postIdsBy, recordShare, remoteWritingsBy, userNamed } from './federation.repository.js';
import { undoFollow, undoFollowById } from './follows.js';
import { localUserNameIn } from './local-names.js';
import { enqueueJob } from '../../lib/jobs/queue.js';
import { remoteChanging } from './outgoing.js';
import { accountOfRemoteActor, saveActorDocument } from '../remote/remote-accounts.js';
import { addPostCommunities, communityAccountsAmong, isPostInCommunity } from '../remote/remote-communities.js';
import { FEDERATION_AVATAR_JOB, iconUrlOf } from '../remote/remote-refresh.js';
import { clipText, remoteAlt, remoteContentWarning, remoteText } from '../remote/remote-text.js';

/**
 * What other servers send to the instance's inboxes, beyond follows. Fedify has checked the
 * request's signature and that the key is the activity's actor's before a listener runs; the rules
 * here are Kruh's own:
 *
 * - Only the author acts on their content: a Create, Update or Delete counts when its actor is the
 *   object's author, and a Note is taken only from the server its author lives on (Fedify fetches
 *   an object embedded from another server again from its own).
 * - A remote person is a local account (see remote-accounts.ts), so a reply or a like goes through
 *   the very services a local user's does: the same visibility, bans, blocks, limits and
 *   notifications. What they refuse is dropped, nothing stored.
 * - Nothing unsolicited is kept: a Note becomes a post only when someone here follows its author,
 *   a followed community (Lemmy) shares it, it names someone here, or its author posts it into a
 *   public group here they follow (the group then announces it); a reply only when it
 *   answers something stored here, or names someone here or is by someone followed here (its
 *   thread is then fetched as context, see fetchThread). Only public Notes are taken, since
 *   everything in Kruh outside private groups is public: a followers-only or direct Note is never
 *   published here.
 * - A suspended remote account's activities are ignored.
 */

type Ctx = InboxContext<void>;

/**
 * What storing a Note needs of Fedify: reading what it links to (through the guarded loader) and
 * telling this instance's own addresses apart. An inbox's context has it, and so has a plain one,
 * for Notes read from an outbox rather than delivered.
 */
export type NoteContext = Pick<Context<void>, 'parseUri' | 'documentLoader' | 'contextLoader' | 'lookupObject'>;

/** The kinds of object Kruh reads as a post or a comment (Lemmy sends posts as Pages). */
type Writing = Note | Article | Page;
const isWriting = (object: unknown): object is Writing => object instanceof Note || object instanceof Article || object instanceof Page;

/**
 * A refusal by the services (hidden post, block, ban, limit) drops the activity; so does a Note
 * another delivery of it stored meanwhile (its address is a unique key).
 */
async function unlessRefused(work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (err) {
    if (!(err instanceof AppError) && !isUniqueViolation(err)) throw err;
  }
}

/** Loading what an object links to (attachments, tags) as the inbox does; a failure leaves the item out. */
const loadQuietly = (ctx: NoteContext) => ({ documentLoader: ctx.documentLoader, contextLoader: ctx.contextLoader, suppressError: true });

const href = (value: URL | Link | null | undefined): string | null => (value instanceof URL ? value.href : (value?.href?.href ?? null));
const text = (value: { toString(): string } | null | undefined) => (value == null ? '' : value.toString());

/** The account with this id as the caller of a service, unless suspended or gone. */
async function viewerOf(db: Executor, userId: string | null): Promise<Viewer | null> {
  const user = userId ? await findAccount(db, userId) : undefined;
  return user && !user.suspended_at ? { id: user.id, username: user.username, user } : null;
}

/** The account standing for an actor, made the first time from its document; null for no actor or a suspended one. */
async function accountFor(app: FastifyInstance, ctx: NoteContext, actorId: URL): Promise<Viewer | null> {
  let userId = await accountOfRemoteActor(app.db, actorId.href);
  if (!userId) {
    userId = await saveActorDocument(app, await ctx.lookupObject(actorId), actorId);
  }
  return viewerOf(app.db, userId);
}

/** The existing, not suspended account of an actor, without reading anything remote. */
const knownViewer = async (app: FastifyInstance, actorId: URL | null) => viewerOf(app.db, actorId ? await accountOfRemoteActor(app.db, actorId.href) : null);

/** Whether the actor wrote the object, and the object comes from the actor's server. */
const isAuthor = (object: APObject, actorId: URL | null): actorId is URL =>
  actorId !== null && object.id?.origin === actorId.origin && object.attributionIds.some((id) => id.href === actorId.href);

/** The local post a URI of ours names (`/ap/posts/:id`). */
function localPostId(ctx: NoteContext, uri: URL | null): string | null {
  const parsed = uri ? ctx.parseUri(uri) : null;
  return parsed?.type === 'object' && parsed.class === Note && parsed.values.id ? parsed.values.id : null;
}

/**
 * The public local user a URI names: by its actor's address, its profile's page or its handle (see
 * local-names.ts), as Mentions and addressees name people.
 */
async function localUser(app: FastifyInstance, ctx: NoteContext, uri: URL | null) {
  if (!uri) return null;
  const parsed = ctx.parseUri(uri);
  const name = parsed ? null : localUserNameIn(app.config.publicUrl, uri);
  const actor = parsed?.type === 'actor' ? await actorById(app.db, parsed.identifier) : name ? await userNamed(app.db, name) : null;
  return actor?.kind === 'user' ? actor : null;
}

/** Everything Kruh keeps of a Note. */
interface ReadNote {
  id: string;
  /** Where the original is read on the web. */
  url: string;
  text: string;
  contentWarning: string | null;
  published: number;
  media: { url: string; alt: string }[];
  /** Local users it mentions: id and name. */
  mentions: { userId: string; username: string }[];
  /** Whether it names a local user (a mention, or an address). */
  addressesLocal: boolean;
  replyTo: URL | null;
  isPublic: boolean;
  /** The actors it is filed under (its `audience`): a community of another server, when one is known here. */
  audience: string[];
}

const mediaJson = (media: ReadNote['media']) => (media.length ? JSON.stringify(media) : null);

const isHttp = (url: string | null): url is string => url !== null && /^https?:\/\//i.test(url);

async function readNote(app: FastifyInstance, ctx: NoteContext, note: Writing): Promise<ReadNote> {
  const origin = app.config.publicUrl;
  let body = remoteText(text(note.content), origin);
  // A Lemmy post is a titled Page (an Article elsewhere): the title is its first line.
  if (!(note instanceof Note) && note.name) body = `${text(note.name)}\n\n${body}`.trim();
  const media: ReadNote['media'] = [];
  const links: string[] = [];
  for await (const attachment of note.getAttachments(loadQuietly(ctx))) {
    if (attachment instanceof Document || attachment instanceof Image) {
      const url = href(attachment.url);
      const type = attachment.mediaType ?? 'image/';
      if (isHttp(url) && type.startsWith('image/')) media.push({ url, alt: remoteAlt(text(attachment.name)) });
    } else if (attachment instanceof Link && isHttp(attachment.href?.href ?? null)) {
      links.push(attachment.href!.href);
    }
  }
  // A quoted post (Misskey, Fedibird) and a shared link (Lemmy) are not in Kruh's model; their address is.
  const quote = note instanceof Page ? undefined : note.quoteUrl?.href;
  for (const link of [...links, ...(quote ? [quote] : [])]) if (!body.includes(link)) body = `${body}\n\n${link}`.trim();
  const mentions: ReadNote['mentions'] = [];
  for await (const tag of note.getTags(loadQuietly(ctx))) {
    if (!(tag instanceof Mention)) continue;
    const user = await localUser(app, ctx, tag.href);
    if (user && !mentions.some((m) => m.userId === user.id)) mentions.push({ userId: user.id, username: user.name });
  }
  const addressees = [...note.toIds, ...note.ccIds];
  let addressesLocal = mentions.length > 0;
  for (const uri of addressees) if (!addressesLocal && (await localUser(app, ctx, uri))) addressesLocal = true;
  const published = note.published?.epochMilliseconds ?? Date.now();
  const page = href(note.url);
  return {
    id: note.id!.href,
    // Without a web page of its own, the original is opened at its id, which its server answers.
    url: isHttp(page) ? page : note.id!.href,
    text: clipText(body),
    contentWarning: remoteContentWarning(text(note.summary)),
    // A date in the future would keep the post on top of every feed.
    published: Math.min(published, Date.now()),
    media: media.slice(0, LIMITS.imagesPerPost),
    mentions: mentions.slice(0, LIMITS.mentionsPerPost),
    addressesLocal,
    replyTo: note.replyTargetId,
    isPublic: addressees.some((uri) => uri.href === PUBLIC_COLLECTION.href),
    audience: note.audienceIds.map((uri) => uri.href),
  };
}

/** Whether a visitor may read the post: a reply to anything else is refused. */
const visitorReads = async (app: FastifyInstance, postId: string) => (await readAsVisitor(app, postsApi.get, { postId })) !== null;

/** Runs a change as the remote account, on a new transaction. */
const asAccount = (app: FastifyInstance, change: (ctx: ServiceContext) => Promise<void>) =>
  unlessRefused(() => newTransaction(app.db, (trx) => change(contextOf(app, trx))));

/** The addresses a Note or its Create names: its recipients and its audience (a Lemmy community). */
const addressed = (object: APObject | Activity) => [...object.toIds, ...object.ccIds, ...object.audienceIds];

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
type Arrival = 'delivered' | 'shared' | 'backfill';

/**
 * Stores a Note written by `authorId`: a reply to something stored here becomes a comment, any
 * other a post when it is wanted here (see `Arrival`), in the local groups it was posted into
 * (`create`, the activity that brought it, may name them too).
 */
async function storeNote(app: FastifyInstance, ctx: NoteContext, note: Writing, authorId: URL, arrival: Arrival, create?: Create): Promise<void> {
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

/** A read Note as a post of its author's account (made here if need be); false when there is none. */
async function storeReadPost(app: FastifyInstance, ctx: NoteContext, read: ReadNote, authorId: URL, options: { groupIds?: string[]; quiet: boolean }): Promise<boolean> {
  const viewer = await accountFor(app, ctx, authorId);
  if (!viewer) return false;
  await asAccount(app, async (tx) => {
    const postId = await storeRemotePost(tx, viewer, {
      text: read.text,
      contentWarning: read.contentWarning,
      createdAt: read.published,
      mentions: read.mentions,
      ...(options.groupIds ? { groupIds: options.groupIds } : {}),
      remote: { apId: read.id, apUrl: read.url, media: mediaJson(read.media) },
      quiet: options.quiet,
    });
    // A post filed under a community known here is in it: what is said under it here goes there too.
    await addPostCommunities(tx.db, postId, await communityAccountsAmong(tx.db, read.audience));
  });
  return true;
}

/** Whether someone here follows the actor's existing account. */
async function followedHere(app: FastifyInstance, actorId: URL): Promise<boolean> {
  const known = await knownViewer(app, actorId);
  return known !== null && (await isFollowedHere(app.db, known.id));
}

/** Stores a read reply as a comment of its author's account under `parentId`; quiet tells nobody of it. */
async function storeComment(app: FastifyInstance, ctx: NoteContext, read: ReadNote, authorId: URL, parentId: string, quiet: boolean): Promise<void> {
  const viewer = await accountFor(app, ctx, authorId);
  if (!viewer) return;
  await asAccount(app, async (tx) => {
    await createComment(
      tx,
      viewer,
      { parent: parentId, text: read.text, mentions: read.mentions.map((m) => m.userId) },
      { apId: read.id, apUrl: read.url, quiet },
    );
  });
}

/**
 * Notes fetched at most above a wanted reply whose thread is not here: enough for the threads
 * people answer, and a bound on what one reply can make the instance read.
 */
export const THREAD_FETCHES = 5;

/**
 * A Note another server serves at its own address, read through the guarded loader (a blocked
 * domain or a private address is never read), with the author it names on that same server; null
 * for anything else, or when it cannot be read.
 */
async function fetchWriting(app: FastifyInstance, ctx: NoteContext, uri: URL): Promise<{ note: Writing; authorId: URL } | null> {
  try {
    const { document, documentUrl } = await ctx.documentLoader(uri.href);
    const object = await APObject.fromJsonLd(document, { documentLoader: ctx.documentLoader, contextLoader: ctx.contextLoader, baseUrl: new URL(documentUrl) });
    const authorId = isWriting(object) ? object.attributionId : null;
    if (!isWriting(object) || object.id?.href !== uri.href || new URL(documentUrl).origin !== uri.origin || !isAuthor(object, authorId)) return null;
    return { note: object, authorId };
  } catch (error) {
    app.log.info({ err: error, uri: uri.href }, 'note not read at its server');
    return null;
  }
}

/**
 * What a wanted reply answers, fetching the part of its thread that is not here: walking up its
 * answers to the root, at most `fetches` Notes, it stores the root as a post of its author and the
 * answers between as comments, all without telling anyone (context, as an old post read from an
 * outbox is). Null, and nothing stored, when an ancestor is not public, cannot be read, is gone
 * here, or the root is further up than the bound.
 */
async function fetchThread(app: FastifyInstance, ctx: NoteContext, uri: URL, fetches: number): Promise<{ id: string; postId: string } | null> {
  const target = await targetOf(app, ctx, uri);
  if (target) return target.deleted ? null : target;
  if (fetches <= 0 || uri.origin === new URL(app.config.publicUrl).origin) return null;
  const fetched = await fetchWriting(app, ctx, uri);
  if (!fetched) return null;
  const read = await readNote(app, ctx, fetched.note);
  if (!read.isPublic) return null;
  if (read.replyTo) {
    const parent = await fetchThread(app, ctx, read.replyTo, fetches - 1);
    if (!parent || !(await visitorReads(app, parent.postId))) return null;
    await storeComment(app, ctx, read, fetched.authorId, parent.id, true);
  } else {
    if (read.text === '' && read.media.length === 0) return null;
    if (!(await storeReadPost(app, ctx, read, fetched.authorId, { quiet: true }))) return null;
  }
  // Stored now, by this walk or meanwhile by another delivery; or refused (a block, a limit).
  const stored = await targetOf(app, ctx, uri);
  return stored && !stored.deleted ? stored : null;
}

/** What a reply answers: a local post or comment, or a post or comment stored here; `id` is the comment's parent. */
async function replyParent(app: FastifyInstance, ctx: NoteContext, uri: URL): Promise<{ id: string; postId: string } | null> {
  const target = await targetOf(app, ctx, uri);
  return target && !target.deleted ? target : null;
}

/** Posts an actor's outbox gives when the actor is first looked up: enough for its profile. */
export const BACKFILL_ITEMS = 20;
/**
 * Pages of the outbox read at most, and items on them: an outbox of mostly boosts and replies
 * (skipped) leads on from page to page, and an endless chain of pages must not.
 */
export const BACKFILL_PAGES = 5;
const BACKFILL_READ = 100;

/**
 * Stores the recent public posts of a remote actor's outbox, as posts of its account, so a profile
 * found by a search is not empty. Only the actor's own Creates of public, top-level Notes are taken
 * (what a follower would have been sent); nobody is told of them. The pages are read newest first,
 * each through the guarded loader and from the actor's own server only, until enough posts are
 * here or a bound is reached; a page that cannot be read ends the reading, keeping what was stored.
 */
export async function backfillOutbox(app: FastifyInstance, ctx: NoteContext, actor: Actor): Promise<void> {
  const actorId = actor.id;
  if (!actorId) return;
  const load = { documentLoader: ctx.documentLoader, contextLoader: ctx.contextLoader };
  const outbox = await actor.getOutbox(load);
  if (!outbox) return;
  // Some servers put the items in the collection itself, most on pages.
  let page: Collection | null = outbox instanceof CollectionPage ? outbox : ((await outbox.getFirst(load)) ?? outbox);
  const visited = new Set<string>();
  let read = 0;
  let kept = 0;
  for (let pages = 1; page; pages++) {
    if (page.id) visited.add(page.id.href);
    for await (const item of page.getItems({ ...load, suppressError: true })) {
      if (++read > BACKFILL_READ) return;
      if ((await backfillItem(app, ctx, item, actorId)) && ++kept >= BACKFILL_ITEMS) return;
    }
    if (!(page instanceof CollectionPage)) return;
    const next = page.nextId;
    if (pages >= BACKFILL_PAGES || !next || next.origin !== actorId.origin || visited.has(next.href)) return;
    try {
      page = await page.getNext(load);
    } catch (error) {
      app.log.info({ err: error, actorId: actorId.href, page: next.href }, 'outbox page not read');
      return;
    }
  }
}

/** Stores an outbox item that is the actor's own Create of a post; whether the post is here now. */
async function backfillItem(app: FastifyInstance, ctx: NoteContext, item: unknown, actorId: URL): Promise<boolean> {
  if (!(item instanceof Create) || item.actorId?.href !== actorId.href) return false;
  const object = await item.getObject({ documentLoader: ctx.documentLoader, contextLoader: ctx.contextLoader, suppressError: true });
  if (!isWriting(object) || !isAuthor(object, actorId) || !object.id) return false;
  await storeNote(app, ctx, object, actorId, 'backfill', item);
  return (await postByApId(app.db, object.id.href)) !== undefined;
}

export async function onCreate(app: FastifyInstance, ctx: Ctx, create: Create): Promise<void> {
  const object = await create.getObject(ctx);
  if (isWriting(object) && isAuthor(object, create.actorId)) await storeNote(app, ctx, object, create.actorId, 'delivered', create);
}

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

/** The stored post or comment an object's IRI names, when the actor's account wrote it. */
async function ownStored(db: Executor, apId: URL | null, userId: string) {
  if (!apId) return null;
  const post = await postByApId(db, apId.href);
  if (post) return post.author_id === userId ? { kind: 'post' as const, id: post.id } : null;
  const comment = await commentByApId(db, apId.href);
  return comment && comment.author_id === userId ? { kind: 'comment' as const, id: comment.id } : null;
}

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

type Stored = NonNullable<Awaited<ReturnType<typeof ownStored>>>;

/**
 * Edits a stored post or comment as its author, to the Note's version; the groups here that
 * passed it on pass the author's Update on (`activity`, with its id).
 */
async function editStored(app: FastifyInstance, ctx: Ctx, viewer: Viewer, stored: Stored, note: Writing, activity: unknown, activityId: URL | null) {
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
async function deleteStored(app: FastifyInstance, viewer: Viewer, stored: Stored, activity: unknown, activityId: URL | null) {
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

/**
 * The post or comment a URI names: a local post's or comment's Note address, or the id of a post or
 * comment stored from another server.
 */
async function targetOf(app: FastifyInstance, ctx: NoteContext, uri: URL | null): Promise<{ kind: 'post' | 'comment'; id: string; postId: string; deleted: boolean } | null> {
  if (!uri) return null;
  const local = localPostId(ctx, uri);
  if (local) return { kind: 'post', id: local, postId: local, deleted: false };
  const post = await postByApId(app.db, uri.href);
  if (post) return { kind: 'post', id: post.id, postId: post.id, deleted: false };
  // Local comments are sent with an address of their own, so an answer to one or a like of it names it.
  const localComment = localCommentId(app.config.publicUrl, uri);
  const comment = localComment ? await localCommentById(app.db, localComment) : await commentByApId(app.db, uri.href);
  return comment ? { kind: 'comment', id: comment.id, postId: comment.post_id, deleted: Boolean(comment.deleted) } : null;
}

/** The actor likes, or no longer likes, the post or comment `objectId` names. */
async function setLike(app: FastifyInstance, ctx: Ctx, actorId: URL, objectId: URL | null, liked: boolean): Promise<void> {
  const target = await targetOf(app, ctx, objectId);
  if (!target) return;
  if (liked && !(await visitorReads(app, target.postId))) return;
  const viewer = liked ? await accountFor(app, ctx, actorId) : await knownViewer(app, actorId);
  if (!viewer) return;
  await asAccount(app, async (tx) => {
    if (target.kind === 'post') await likePost(tx, viewer, { postId: target.id, liked });
    else await likeComment(tx, viewer, { commentId: target.id, liked });
  });
}

export const onLike = async (app: FastifyInstance, ctx: Ctx, like: Like) => {
  if (like.actorId) await setLike(app, ctx, like.actorId, like.objectId, true);
};

/**
 * An Undo by the actor of what it undoes: a Follow ends, a Like is taken back. The undone
 * activity's actor, when it names none, is the Undo's own (so Mastodon reads it too); one naming
 * another actor is not the Undo's to take back. A Follow named by its id alone is looked up among
 * the follows kept here, anything else so named is read from its server.
 */
export async function onUndo(app: FastifyInstance, ctx: Ctx, undo: Undo): Promise<void> {
  const actorId = undo.actorId;
  if (!actorId) return;
  if (undo.objectId && (await undoFollowById(app, actorId, undo.objectId))) return;
  const object = await undo.getObject({ documentLoader: ctx.documentLoader, contextLoader: ctx.contextLoader, suppressError: true });
  if (!(object instanceof Follow || object instanceof Like) || (object.actorId && object.actorId.href !== actorId.href)) return;
  if (object instanceof Follow) await undoFollow(app, ctx, actorId, object.objectId);
  else await setLike(app, ctx, actorId, object.objectId, false);
}
