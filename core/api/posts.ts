import { type Static, Type } from '@sinclair/typebox';
import { LIMITS } from '../limits.js';
import { CommentList, ThreadQuery } from './comments.js';
import { MessageReplies, Nullable, PostIdParams, RemoteOrigin, likeEntry, listOf, pageOf } from './common.js';
import { endpoint, readEntry } from './endpoint.js';

const NullableId = Nullable(Type.String());

/**
 * The post card.
 * - createdAt: epoch milliseconds.
 * - replyingTo: the original's id, null for a top-level post, or "<deleted>" when the original no
 *   longer exists or the caller may not see it (a private group's post): the client shows its
 *   deleted marker, and a hidden original's id is not revealed to outsiders.
 * - groups / mentions: `_id` null when the entry was plain text (or its group or user is gone). A
 *   community of another server the post went into is a group entry named `name@host`, `_id` null
 *   (it is an account, at /u/name@host).
 * - adminGroups, pinnedGroups, ownedGroups, bannedGroups: indexes into `groups` where the caller
 *   is admin or owner, where this post is the pinned one, where the caller owns the group, and
 *   where the post's author is banned.
 * - authorOwnedGroups: indexes into `groups` the post's author owns (an owner is never banned
 *   there, so no ban is offered); optional for posts a client cached before it was sent.
 * - images: how many images the post has; media: their URLs in order, versioned (and signed in a
 *   private group, since an <img> carries no token); alts: each image's description (alt text),
 *   in the same order, '' for an image without one. A description comes with its image's upload
 *   (the `alt` field of POST /upload/image).
 * - contentWarning: the warning the author put on the post (the client shows the text and images
 *   only when asked), null for none.
 * - author.pfp is the author's id (the avatar key); author.pfpUrl the avatar at its version.
 * - editedAt: when the author last changed the text (epoch ms), null for a post never edited; the
 *   earlier versions are at GET /post/:postId/history.
 */
export const Post = Type.Object({
  _id: Type.String(),
  text: Type.String(),
  author: Type.Object({ username: Type.String(), pfp: Type.String(), pfpUrl: Type.String() }),
  createdAt: Type.Number(),
  likes: Type.Integer(),
  liked: Type.Boolean(),
  comments: Type.Integer(),
  replyingTo: NullableId,
  groups: Type.Array(Type.Object({ _id: NullableId, name: Type.String() })),
  mentions: Type.Array(Type.Object({ _id: NullableId, username: Type.String() })),
  itsme: Type.Boolean(),
  adminGroups: Type.Array(Type.Integer()),
  pinnedGroups: Type.Array(Type.Integer()),
  ownedGroups: Type.Array(Type.Integer()),
  bannedGroups: Type.Array(Type.Integer()),
  authorOwnedGroups: Type.Optional(Type.Array(Type.Integer())),
  canReply: Type.Boolean(),
  images: Type.Integer(),
  media: Type.Array(Type.String()),
  /** Always sent; optional for posts and comments a client cached before descriptions existed. */
  alts: Type.Optional(Type.Array(Type.String())),
  /** Always sent; optional like `alts`. */
  contentWarning: Type.Optional(Nullable(Type.String())),
  /** Always sent; optional like `alts`, for posts cached before edits existed. */
  editedAt: Type.Optional(Nullable(Type.Number())),
  /** A remote account's post: its server and the original's page (see RemoteOrigin). */
  remote: Type.Optional(RemoteOrigin),
  /**
   * A remote post a community of another server passed on to its followers (a Lemmy community,
   * another Kruh's group): the first such community here, which its followers read it through.
   */
  sharedBy: Type.Optional(Type.Object({ _id: Type.String(), username: Type.String() })),
});
export type Post = Static<typeof Post>;

/** A page of posts (every post list: feeds, a group, a profile, a hashtag, search). */
export const PostList = pageOf('posts', Post);
export type PostList = Static<typeof PostList>;

/** Mention and group entries are ids or typed names; the slot count is checked after de-duplication. */
const SlotEntries = Type.Array(Type.String({ maxLength: 100 }), { maxItems: 4 * LIMITS.mentionsPerPost });

/**
 * `text` is checked by the server's content rules (so a non-string answers blank_post, not a schema
 * error). A `groups` entry naming no group here may name a community of another server (a Lemmy
 * community, another Kruh's group) the caller follows, by its account's id or `name@host`: the post
 * is sent to it, and it counts within the groups' limit. One naming a remote account that is no
 * community the caller follows, or a `name@host` known as nothing here, answers 403
 * not_following_community (remote_blocked for a suspended one). `contentWarning` is kept on one line and trimmed; one showing nothing (or null) is none,
 * and one over LIMITS.contentWarningMaxLength characters answers max_content_warning_length.
 * `images`: how many pictures the client uploads next (POST /upload/image, index 0 up), at most
 * one on a reply (too_many_images): the post
 * goes to other fediverse servers once they are in, so it arrives there with them (or after a
 * while without those that never came); left out, it goes at once.
 */
export const CreatePostBody = Type.Object({
  text: Type.Optional(Type.Unknown()),
  mentions: Type.Optional(SlotEntries),
  groups: Type.Optional(SlotEntries),
  replyingTo: Type.Optional(NullableId),
  contentWarning: Type.Optional(Nullable(Type.String())),
  images: Type.Optional(Type.Integer({ minimum: 0, maximum: LIMITS.imagesPerPost })),
});
export type CreatePostBody = Static<typeof CreatePostBody>;

/** The post itself (so `_id` is top level) and the same view under `post`. */
export const CreatePostReply = Type.Composite([Post, Type.Object({ post: Post })]);

/**
 * A new version of a post's text. `text` is checked as when creating a post. `mentions` replaces
 * the post's mentions when sent (kept when left out); `contentWarning` likewise (null removes it).
 * The groups of a post never change: a post cannot be moved into or out of a (private) group,
 * whose members alone may have read, liked and answered it.
 */
export const EditPostBody = Type.Object({
  text: Type.Optional(Type.Unknown()),
  mentions: Type.Optional(SlotEntries),
  contentWarning: Type.Optional(Nullable(Type.String())),
});
export type EditPostBody = Static<typeof EditPostBody>;

/** An earlier version of a post: its text, when it was written and when an edit replaced it (epoch ms). */
export const PostVersion = Type.Object({
  text: Type.String(),
  contentWarning: Nullable(Type.String()),
  writtenAt: Type.Number(),
  replacedAt: Type.Number(),
});
export type PostVersion = Static<typeof PostVersion>;

/** A post's earlier versions, newest first (the current one is the post itself). */
export const PostHistory = listOf('versions', PostVersion);
export type PostHistory = Static<typeof PostHistory>;

export const postsApi = {
  create: endpoint({
    method: 'POST',
    path: '/post',
    summary: 'Publish a post (send an Idempotency-Key so a retry is applied once)',
    body: CreatePostBody,
    replies: { 201: CreatePostReply, 200: CreatePostReply },
    invalidKey: 'blank_post',
    errors: ['blank_post', 'max_post_length', 'max_post_lines', 'max_content_warning_length', 'too_many_images', 'invalid_post', 'mentions_up_to', 'groups_up_to', 'mention_limit', 'post_limit', 'not_member', 'need_admin', 'banned', 'blocked', 'not_following_community', 'remote_blocked', 'idempotency_mismatch'],
  }),
  get: readEntry('/post/:postId', 'One post as its card', PostIdParams, Post, ['didnt_find_post']),
  edit: endpoint({
    method: 'PATCH',
    path: '/post/:postId',
    summary: "Change a post's text, by its author (send an Idempotency-Key so a retry is applied once)",
    params: PostIdParams,
    body: EditPostBody,
    replies: { 200: Post },
    invalidKey: 'blank_post',
    errors: ['blank_post', 'max_post_length', 'max_post_lines', 'max_content_warning_length', 'mentions_up_to', 'mention_limit', 'edit_limit', 'invalid_post', 'didnt_find_post', 'not_author', 'not_member', 'need_admin', 'banned', 'idempotency_mismatch'],
  }),
  history: readEntry('/post/:postId/history', "A post's earlier versions, newest first, for whoever may read the post", PostIdParams, PostHistory, ['invalid_post', 'didnt_find_post']),
  groups: readEntry('/post/:postId/groups', "Names of the post's groups the caller may see", PostIdParams, Type.Array(Type.String()), ['didnt_find_post']),
  like: endpoint({
    method: 'PATCH',
    path: '/post/:postId/like',
    summary: "Toggle the caller's like, or set it with {liked}",
    params: PostIdParams,
    ...likeEntry,
    invalidKey: 'invalid_post',
    errors: ['didnt_find_post', 'invalid_post', 'banned', 'blocked', 'like_limit', 'idempotency_mismatch'],
  }),
  delete: endpoint({
    method: 'DELETE',
    path: '/post/:postId',
    summary: 'Delete a post (its author or an admin of one of its groups)',
    params: PostIdParams,
    replies: MessageReplies,
    errors: ['didnt_find_post', 'not_author'],
  }),
  comments: endpoint({
    method: 'GET',
    path: '/post/:postId/comments',
    summary: "A post's top-level comments, or a comment's direct replies when postId is a comment's id",
    params: PostIdParams,
    query: ThreadQuery,
    replies: { 200: CommentList },
    errors: ['didnt_find_post'],
  }),
} as const;
