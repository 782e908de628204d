import type { Account, MediaAttachment, MediaMeta, Status, StatusMention, Tag } from '#core/api/client-entities';
import type { Comment } from '#core/api/comments';
import type { Post } from '#core/api/posts';
import { appPaths } from '#core/app-paths';
import { DELETED } from '#core/limits';
import { extractHashtags } from '#core/text';
import { escapeHtml, writingHtml } from '../../lib/text-html.js';
import { absolute } from '../../lib/absolute-url.js';
import { keptValue } from '../../lib/kept-values.js';
import { goneAccount, isoTime } from './account.mapper.js';
import { commentStatusId } from './client-ids.js';

/** What a page of statuses is mapped with: the accounts of its authors and which of its posts are private. */
export interface StatusParts {
  origin: string;
  /** Accounts by person id. */
  accounts: ReadonlyMap<string, Account>;
  /** Posts in a private group (a comment goes by its post). */
  privatePosts: ReadonlySet<string>;
  /** The author of what each comment answers, by comment id (null when that account is gone). */
  repliedAuthors: ReadonlyMap<string, string | null>;
}

function mentionsOf(origin: string, mentions: Post['mentions']): StatusMention[] {
  return mentions.flatMap((m) => {
    if (!m._id) return [];
    const at = m.username.indexOf('@');
    return [{ id: m._id, username: at < 0 ? m.username : m.username.slice(0, at), acct: m.username, url: absolute(origin, appPaths.user(m.username)) }];
  });
}

/** A picture as apps read it: no smaller preview is made here, so the preview is the picture itself. */
export function imageAttachment(origin: string, picture: { id: string; url: string; description: string | undefined; meta: MediaMeta | null }): MediaAttachment {
  const full = absolute(origin, picture.url);
  return { id: picture.id, type: 'image', url: full, preview_url: full, remote_url: null, meta: picture.meta, description: picture.description || null, blurhash: null };
}

function attachmentsOf(origin: string, ownerId: string, media: readonly string[], alts: readonly string[] | undefined): MediaAttachment[] {
  return media.map((url, index) => imageAttachment(origin, { id: `${ownerId}-${index}`, url, description: alts?.[index], meta: null }));
}

/** The fields of a status that are alike for a post and a comment. */
function statusOf(parts: StatusParts, authorId: string | null, fields: Omit<Status, 'account' | 'emojis' | 'reblog' | 'poll' | 'card' | 'reblogs_count' | 'reblogged' | 'muted' | 'bookmarked' | 'application' | 'language'>): Status {
  const account = (authorId && parts.accounts.get(authorId)) || goneAccount(parts.origin);
  return { ...fields, account, emojis: [], reblog: null, poll: null, card: null, reblogs_count: 0, reblogged: false, muted: false, bookmarked: false, application: null, language: null };
}

/**
 * Hashtags already found, by origin and then text (a text read from the database is a new string
 * each time, so it is looked up as it is rather than joined into a longer key), for the reason
 * writingHtml keeps its HTML.
 */
const foundTags = new Map<string, Map<string, Tag[]>>();

/** The hashtags of a text as apps read them, each with its page (the list is shared: read it, never change it). */
export function tagsOf(origin: string, text: string): Tag[] {
  const byText = keptValue(foundTags, origin, 100, () => new Map<string, Tag[]>());
  return keptValue(byText, text, 2_000, () => extractHashtags(text).map((name) => ({ name, url: absolute(origin, appPaths.hashtag(name)) })));
}

/** Who wrote a post, as its status names them: nobody for an account that is gone. */
export const postAuthorId = (post: Post): string | null => (post.author.username === DELETED ? null : post.author.pfp);

/**
 * A post as a status. A reply-with-post answers in a post of its own, not in its original's thread,
 * so it is no reply here: its content ends with a link to the original (when the caller may read it).
 */
export function postStatus(post: Post, parts: StatusParts, extra: { pinned?: boolean } = {}): Status {
  const { origin } = parts;
  const page = absolute(origin, appPaths.post(post._id));
  const original = post.replyingTo && post.replyingTo !== DELETED ? absolute(origin, appPaths.post(post.replyingTo)) : null;
  const link = original ? `<p>RE: <a href="${escapeHtml(original)}">${escapeHtml(original)}</a></p>` : '';
  const warning = post.contentWarning ?? '';
  return statusOf(parts, postAuthorId(post), {
    id: post._id,
    uri: page,
    url: post.remote?.url ?? page,
    created_at: isoTime(post.createdAt),
    edited_at: post.editedAt == null ? null : isoTime(post.editedAt),
    content: writingHtml(origin, post.text, post.mentions.map((m) => m.username)) + link,
    visibility: parts.privatePosts.has(post._id) ? 'private' : 'public',
    sensitive: warning !== '',
    spoiler_text: warning,
    media_attachments: attachmentsOf(origin, post._id, post.media, post.alts),
    mentions: mentionsOf(origin, post.mentions),
    tags: tagsOf(origin, post.text),
    favourites_count: post.likes,
    replies_count: post.comments,
    in_reply_to_id: null,
    in_reply_to_account_id: null,
    favourited: post.liked,
    ...(extra.pinned === undefined ? {} : { pinned: extra.pinned }),
  });
}

/** A comment as a status answering the comment it replies to, or else its post. */
export function commentStatus(comment: Comment, parts: StatusParts): Status {
  const { origin } = parts;
  const page = absolute(origin, appPaths.post(comment.postId, comment._id));
  const id = commentStatusId(comment._id);
  return statusOf(parts, comment.author.pfp, {
    id,
    uri: page,
    url: comment.remote?.url ?? page,
    created_at: isoTime(comment.createdAt),
    edited_at: null,
    content: writingHtml(origin, comment.text, comment.mentions.map((m) => m.username)),
    visibility: parts.privatePosts.has(comment.postId) ? 'private' : 'public',
    sensitive: false,
    spoiler_text: '',
    media_attachments: attachmentsOf(origin, id, comment.media, comment.alts),
    mentions: mentionsOf(origin, comment.mentions),
    tags: tagsOf(origin, comment.text),
    favourites_count: comment.likes,
    replies_count: comment.comments,
    in_reply_to_id: comment.parent.directParent ? comment.postId : commentStatusId(comment.parent._id),
    in_reply_to_account_id: parts.repliedAuthors.get(comment._id) ?? null,
    favourited: comment.liked,
  });
}
