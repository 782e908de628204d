import { Temporal } from '@js-temporal/polyfill';
import { Create, Document, Hashtag, Mention, Note, PUBLIC_COLLECTION } from '@fedify/fedify/vocab';
import type { Post } from '#core/api/posts';
import { appPaths } from '#core/app-paths';
import { extractHashtags, tokenizeText } from '#core/text';
import { escapeHtml } from './html.js';
import { isRemoteAccountName } from './remote-accounts.js';

/** Where a post's Note lives; its id is the post's, so the address never changes with an edit. */
export const NOTE_PATH = '/ap/posts/{id}';

export interface NoteAddresses {
  origin: string;
  note: URL;
  author: URL;
  followers: URL | null;
  /** A mentioned local user's actor, by id. */
  actor: (id: string) => URL;
}

const instant = (ms: number) => Temporal.Instant.fromEpochMilliseconds(ms);

/**
 * A post's text as the HTML a fediverse server shows: every character of the text escaped, the
 * hashtags linked to their page and the mentions to the profile, lines kept. No markup of the
 * author's ever gets through, whatever the text holds.
 */
export function noteContent(origin: string, post: Pick<Post, 'text' | 'mentions'>): string {
  const link = (path: string, attributes: string, inner: string) => `<a href="${escapeHtml(new URL(path, origin).href)}" ${attributes}>${inner}</a>`;
  const html = tokenizeText(post.text, post.mentions.map((mention) => mention.username))
    .map((token) => {
      if (token.kind === 'hashtag') return link(appPaths.hashtag(token.tag), 'class="mention hashtag" rel="tag"', `#<span>${escapeHtml(token.value.slice(1))}</span>`);
      if (token.kind === 'mention')
        return `<span class="h-card">${link(appPaths.user(token.username), 'class="u-url mention"', `@<span>${escapeHtml(token.value.slice(1))}</span>`)}</span>`;
      return escapeHtml(token.value);
    })
    .join('');
  return html
    .split(/(?:\r?\n){2,}/)
    .map((paragraph) => `<p>${paragraph.replace(/\r?\n/g, '<br>')}</p>`)
    .join('');
}

/**
 * A post, as a visitor reads it from the API, as the Note Mastodon and the others read: a content
 * warning is the `summary` with `sensitive`, which hides the text and pictures behind it; every
 * picture is a Document with its description as `name`.
 */
export function noteOf(post: Post, at: NoteAddresses): Note {
  const host = new URL(at.origin).host;
  const alts = post.alts ?? [];
  return new Note({
    id: at.note,
    attribution: at.author,
    content: noteContent(at.origin, post),
    summary: post.contentWarning ?? null,
    sensitive: Boolean(post.contentWarning),
    published: instant(post.createdAt),
    updated: post.editedAt ? instant(post.editedAt) : null,
    url: new URL(appPaths.post(post._id), at.origin),
    to: PUBLIC_COLLECTION,
    ccs: at.followers ? [at.followers] : [],
    tags: [
      // A remote account has no actor here; naming ours for it would point at nothing.
      ...post.mentions.flatMap((mention) =>
        mention._id && !isRemoteAccountName(mention.username) ? [new Mention({ href: at.actor(mention._id), name: `@${mention.username}@${host}` })] : [],
      ),
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
    ccs: at.followers ? [at.followers] : [],
  });
}
