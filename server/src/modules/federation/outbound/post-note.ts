import { Temporal } from '@js-temporal/polyfill';
import { Create, Document, Hashtag, Mention, Note, PUBLIC_COLLECTION } from '@fedify/fedify/vocab';
import type { Post } from '#core/api/posts';
import { appPaths } from '#core/app-paths';
import { extractHashtags } from '#core/text';
import { writingHtml } from '../../../lib/text-html.js';
import type { Executor } from '../../../db/schema.js';
import { isRemoteAccountName, remoteActorOfAccount } from '../../remote/remote-accounts.js';
import type { CommunityActor } from '../../remote/remote-communities.js';

/** Where a post's Note lives; its id is the post's, so the address never changes with an edit. */
export const NOTE_PATH = '/ap/posts/{id}';

export interface NoteAddresses {
  origin: string;
  note: URL;
  author: URL;
  followers: URL | null;
  /** A mentioned local user's actor, by id. */
  actor: (id: string) => URL;
  /** The remote actors of the mentioned remote accounts, by account id. */
  remoteMentions?: Map<string, MentionedActor>;
  /** The communities of other servers the post is in (see remote-communities.ts). */
  communities?: CommunityActor[];
}

/** A remote actor a post mentions: named in its Note and sent it. */
export interface MentionedActor {
  id: string;
  /** Where it is sent: its server's shared inbox, else its own. */
  inbox: string;
  handle: string | null;
}

/** The remote actors of the remote accounts a post mentions, by account id. */
export async function remoteMentionsOf(db: Executor, post: Pick<Post, 'mentions'>): Promise<Map<string, MentionedActor>> {
  const found = new Map<string, MentionedActor>();
  for (const mention of post.mentions) {
    if (!mention._id || !isRemoteAccountName(mention.username) || found.has(mention._id)) continue;
    const actor = await remoteActorOfAccount(db, mention._id);
    if (actor) found.set(mention._id, { id: actor.id, inbox: actor.shared_inbox ?? actor.inbox, handle: actor.handle });
  }
  return found;
}

const instant = (ms: number) => Temporal.Instant.fromEpochMilliseconds(ms);

/**
 * A post's text as the HTML a fediverse server shows: every character of the text escaped, the
 * hashtags linked to their page and the mentions to the profile, lines kept. No markup of the
 * author's ever gets through, whatever the text holds.
 */
export function noteContent(origin: string, post: Pick<Post, 'text' | 'mentions'>, remote: Map<string, MentionedActor> = new Map()): string {
  // A remote account's mention links to its actor on its own server.
  const remoteActors = new Map(post.mentions.flatMap((mention) => (mention._id && remote.has(mention._id) ? [[mention.username, remote.get(mention._id)!.id]] : [])));
  return writingHtml(origin, post.text, post.mentions.map((mention) => mention.username), remoteActors);
}

/**
 * The group a post is in, named as its Note's audience so a server that files posts under
 * communities (Lemmy) files it there: the first community of another server it is in, whose server
 * files it by this alone, else the first of its groups here (a group here passes its posts on
 * whatever the audience says). A visitor reads no post of a private group, so every group of a post
 * that is sent at all is public.
 */
export function audienceOf(post: Pick<Post, 'groups'>, actor: (id: string) => URL, communities: CommunityActor[] = []): URL | null {
  if (communities[0]) return new URL(communities[0].id);
  const group = post.groups.find((entry) => entry._id);
  return group?._id ? actor(group._id) : null;
}

/**
 * A post, as a visitor reads it from the API, as the Note Mastodon and the others read: a content
 * warning is the `summary` with `sensitive`, which hides the text and pictures behind it; every
 * picture is a Document with its description as `name`.
 */
export function noteOf(post: Post, at: NoteAddresses): Note {
  const host = new URL(at.origin).host;
  const alts = post.alts ?? [];
  const remote = at.remoteMentions ?? new Map<string, MentionedActor>();
  const mentionedRemote = [...remote.values()].map((actor) => new URL(actor.id));
  return new Note({
    id: at.note,
    attribution: at.author,
    content: noteContent(at.origin, post, remote),
    summary: post.contentWarning ?? null,
    sensitive: Boolean(post.contentWarning),
    published: instant(post.createdAt),
    updated: post.editedAt ? instant(post.editedAt) : null,
    url: new URL(appPaths.post(post._id), at.origin),
    audience: audienceOf(post, at.actor, at.communities),
    to: PUBLIC_COLLECTION,
    ccs: [...(at.followers ? [at.followers] : []), ...mentionedRemote, ...(at.communities ?? []).map((community) => new URL(community.id))],
    tags: [
      // A remote account is named by its actor on its own server; it has none here.
      ...post.mentions.flatMap((mention) => {
        if (!mention._id) return [];
        const actor = remote.get(mention._id);
        if (actor) return [new Mention({ href: new URL(actor.id), name: actor.handle ?? `@${mention.username}` })];
        return isRemoteAccountName(mention.username) ? [] : [new Mention({ href: at.actor(mention._id), name: `@${mention.username}@${host}` })];
      }),
      ...extractHashtags(post.text).map((tag) => new Hashtag({ href: new URL(appPaths.hashtag(tag), at.origin), name: `#${tag}` })),
    ],
    attachments: post.media.map(
      (path, index) => new Document({ url: new URL(path, at.origin), mediaType: 'image/webp', name: alts[index] ? alts[index] : null }),
    ),
  });
}

/** The activity that published a Note, as an outbox lists it. */
export function createOf(note: Note, post: Post, at: NoteAddresses): Create {
  return new Create({
    id: new URL(`${at.note.href}#create`),
    actor: at.author,
    object: note,
    published: instant(post.createdAt),
    to: PUBLIC_COLLECTION,
    ccs: note.ccIds,
  });
}
