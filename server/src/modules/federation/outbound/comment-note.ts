import { Temporal } from '@js-temporal/polyfill';
import { Document, Mention, Note, PUBLIC_COLLECTION } from '@fedify/fedify/vocab';
import type { FastifyInstance } from 'fastify';
import type { Comment } from '#core/api/comments';
import { appPaths } from '#core/app-paths';
import type { Executor } from '../../../db/schema.js';
import { actorById, firstPublicGroupOf } from '../federation.repository.js';
import { commentOrigin, postOrigin } from './outbound.repository.js';
import { type MentionedActor, NOTE_PATH, noteContent, remoteMentionsOf } from './post-note.js';
import { isRemoteAccountName, remoteActorOfAccount } from '../../remote/remote-accounts.js';
import { type CommunityActor, communitiesOfPost } from '../../remote/remote-communities.js';
import { commentAsVisitor } from '../visitor-reads.js';

/**
 * A local comment as the Note another server reads: a reply (`inReplyTo`) to the post's Note, or to
 * the comment it answers, each by the id its own server gave it. The remote authors of the post and
 * of the comment answered are mentioned, as Mastodon expects of a reply it is to show them, and so
 * are the remote accounts the comment mentions (chosen, or typed as `@name@host`).
 */

/** Where a local comment's Note lives. */
export const COMMENT_PATH = '/ap/comments/{id}';

export const commentNoteUrl = (origin: string, id: string) => new URL(COMMENT_PATH.replace('{id}', encodeURIComponent(id)), origin);
export const postNoteUrl = (origin: string, id: string) => new URL(NOTE_PATH.replace('{id}', encodeURIComponent(id)), origin);

/** The local comment a URI of this instance names (`/ap/comments/:id`), or null. */
export function localCommentId(origin: string, uri: URL): string | null {
  if (uri.origin !== new URL(origin).origin || uri.search || uri.hash) return null;
  const match = /^\/ap\/comments\/([^/]+)$/.exec(uri.pathname);
  if (!match) return null;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return null;
  }
}

/** A remote actor a comment answers or mentions: where its Note is delivered. */
export interface Recipient {
  id: string;
  /** Its server's shared inbox, else its own: the actors of one server get the Note once. */
  inbox: string;
  handle: string | null;
}

/** The Note id of a post or comment: its remote id when another server wrote it, else our own address. */
async function repliedTo(db: Executor, origin: string, comment: Comment) {
  const parentId = comment.parent.directParent ? null : comment.parent._id;
  const row = parentId
    ? await commentOrigin(db, parentId)
    : await postOrigin(db, comment.postId);
  const inReplyTo = row?.ap_id ? new URL(row.ap_id) : parentId ? commentNoteUrl(origin, parentId) : postNoteUrl(origin, comment.postId);
  return { inReplyTo, authorId: row?.author_id ?? null };
}

/**
 * The remote actors of these accounts, once each, with where they are sent as a mention's actor is
 * (its server's shared inbox, else its own), so an author answered and someone mentioned on one
 * server make one delivery.
 */
export async function remoteAuthors(db: Executor, accountIds: (string | null)[]): Promise<Recipient[]> {
  const found = new Map<string, Recipient>();
  for (const id of new Set(accountIds)) {
    const actor = id ? await remoteActorOfAccount(db, id) : undefined;
    if (actor) found.set(actor.id, { id: actor.id, inbox: actor.shared_inbox ?? actor.inbox, handle: actor.handle });
  }
  return [...found.values()];
}

/**
 * The remote authors answered, then the remote actors mentioned that are not among them, once each:
 * everyone the comment's Note names and goes to.
 */
export function withMentioned(authors: Recipient[], mentioned: Map<string, MentionedActor>): Recipient[] {
  const recipients = [...authors];
  for (const actor of mentioned.values()) if (!recipients.some((known) => known.id === actor.id)) recipients.push(actor);
  return recipients;
}

/**
 * A comment a visitor may read, by a public local author, as its Note, with the remote actors it
 * answers or mentions; null for any other.
 */
export async function commentNote(
  app: FastifyInstance,
  id: string,
  actor: (id: string) => URL,
): Promise<{ note: Note; author: string; postId: string; recipients: Recipient[]; communities: CommunityActor[] } | null> {
  const origin = app.config.publicUrl;
  const comment = await commentAsVisitor(app, id);
  if (!comment?.author.pfp || (await actorById(app.db, comment.author.pfp))?.kind !== 'user') return null;
  const replied = await repliedTo(app.db, origin, comment);
  const post = await postOrigin(app.db, comment.postId);
  const mentioned = await remoteMentionsOf(app.db, comment);
  const recipients = withMentioned(await remoteAuthors(app.db, [post?.author_id ?? null, replied.authorId]), mentioned);
  const communities = await communitiesOfPost(app.db, comment.postId);
  const at = { id: commentNoteUrl(origin, comment._id), author: actor(comment.author.pfp), inReplyTo: replied.inReplyTo, actor, communities };
  const note = await noteOfComment(app, comment, at, recipients, mentioned);
  return { note, author: comment.author.pfp, postId: comment.postId, recipients, communities };
}

/**
 * A remote person's comment a visitor may read, as the Note a group passing it on embeds: under
 * its own id and author, in reply to what it answers, as kept here (its server answers for it).
 */
export async function remoteCommentNote(app: FastifyInstance, id: string, apId: string, actor: (id: string) => URL): Promise<{ note: Note; postId: string } | null> {
  const comment = await commentAsVisitor(app, id);
  const author = comment?.author.pfp ? await remoteActorOfAccount(app.db, comment.author.pfp) : undefined;
  if (!comment || !author) return null;
  const replied = await repliedTo(app.db, app.config.publicUrl, comment);
  const remoteUrl = comment.remote?.url;
  const note = await noteOfComment(app, comment, { id: new URL(apId), author: new URL(author.id), inReplyTo: replied.inReplyTo, actor }, [], new Map());
  return { note: remoteUrl ? note.clone({ url: new URL(remoteUrl) }) : note, postId: comment.postId };
}

/**
 * A comment as a Note: a reply filed under its post's group, naming (in `cc` and as a `Mention`)
 * the remote actors it goes to and the local users it mentions, its pictures attached. Under a post
 * a community of another server holds, it is filed under that community and names it in `cc`, so
 * the community takes it and passes it on to its members.
 */
async function noteOfComment(
  app: FastifyInstance,
  comment: Comment,
  at: { id: URL; author: URL; inReplyTo: URL; actor: (id: string) => URL; communities?: CommunityActor[] },
  recipients: Recipient[],
  mentioned: Map<string, MentionedActor>,
): Promise<Note> {
  const origin = app.config.publicUrl;
  const group = await firstPublicGroupOf(app.db, comment.postId);
  const communities = at.communities ?? [];
  const host = new URL(origin).host;
  const alts = comment.alts ?? [];
  return new Note({
    id: at.id,
    attribution: at.author,
    content: noteContent(origin, comment, mentioned),
    published: Temporal.Instant.fromEpochMilliseconds(comment.createdAt),
    url: new URL(appPaths.post(comment.postId), origin),
    replyTarget: at.inReplyTo,
    // Filed under its post's community or group, as the post is (see audienceOf).
    audience: communities[0] ? new URL(communities[0].id) : group ? at.actor(group) : null,
    to: PUBLIC_COLLECTION,
    ccs: [...recipients.map((recipient) => new URL(recipient.id)), ...communities.filter((community) => !recipients.some((r) => r.id === community.id)).map((community) => new URL(community.id))],
    tags: [
      ...recipients.map((recipient) => new Mention({ href: new URL(recipient.id), name: recipient.handle })),
      ...comment.mentions.flatMap((mention) =>
        mention._id && !isRemoteAccountName(mention.username) ? [new Mention({ href: at.actor(mention._id), name: `@${mention.username}@${host}` })] : [],
      ),
    ],
    attachments: comment.media.map(
      (path, index) => new Document({ url: new URL(path, origin), mediaType: 'image/webp', name: alts[index] ? alts[index] : null }),
    ),
  });
}
