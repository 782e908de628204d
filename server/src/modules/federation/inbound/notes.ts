import type { Context, InboxContext } from '@fedify/fedify';
import { type Activity, Article, Document, Image, Link, Mention, Note, Object as APObject, Page, PUBLIC_COLLECTION } from '@fedify/fedify/vocab';
import type { FastifyInstance } from 'fastify';
import { LIMITS } from '#core/limits';
import { clipText, remoteAlt, remoteContentWarning, remoteText } from '../../remote/remote-text.js';
import { actorById, userNamed } from '../federation.repository.js';
import { localUserNameIn } from './local-names.js';

/**
 * Reading a Note (or a Lemmy Page, an Article) another server sent or serves: what Kruh keeps of
 * it, and whom and what of this instance it names.
 */

/**
 * What storing a Note needs of Fedify: reading what it links to (through the guarded loader) and
 * telling this instance's own addresses apart. An inbox's context has it, and so has a plain one,
 * for Notes read from an outbox rather than delivered.
 */
export type NoteContext = Pick<Context<void>, 'parseUri' | 'documentLoader' | 'contextLoader' | 'lookupObject'>;

/** The kinds of object Kruh reads as a post or a comment (Lemmy sends posts as Pages). */
export type Writing = Note | Article | Page;
export const isWriting = (object: unknown): object is Writing => object instanceof Note || object instanceof Article || object instanceof Page;

/** What an inbox listener is handed with an activity. */
export type Ctx = InboxContext<void>;

/** Loading what an object links to (attachments, tags) as the inbox does; a failure leaves the item out. */
const loadQuietly = (ctx: NoteContext) => ({ documentLoader: ctx.documentLoader, contextLoader: ctx.contextLoader, suppressError: true });

const href = (value: URL | Link | null | undefined): string | null => (value instanceof URL ? value.href : (value?.href?.href ?? null));
const text = (value: { toString(): string } | null | undefined) => (value == null ? '' : value.toString());

/** Whether the actor wrote the object, and the object comes from the actor's server. */
export const isAuthor = (object: APObject, actorId: URL | null): actorId is URL =>
  actorId !== null && object.id?.origin === actorId.origin && object.attributionIds.some((id) => id.href === actorId.href);

/** The local post a URI of ours names (`/ap/posts/:id`). */
export function localPostId(ctx: NoteContext, uri: URL | null): string | null {
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
export interface ReadNote {
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

export const mediaJson = (media: ReadNote['media']) => (media.length ? JSON.stringify(media) : null);

const isHttp = (url: string | null): url is string => url !== null && /^https?:\/\//i.test(url);

export async function readNote(app: FastifyInstance, ctx: NoteContext, note: Writing): Promise<ReadNote> {
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

/** The addresses a Note or its Create names: its recipients and its audience (a Lemmy community). */
export const addressed = (object: APObject | Activity) => [...object.toIds, ...object.ccIds, ...object.audienceIds];
