import { type Static, Type } from '@sinclair/typebox';
import { LIMITS } from '../limits.js';
import { CommentIdParams, Id, ListingQuery, MessageReplies, RemoteOrigin, likeEntry, pageOf, listingEntry } from './common.js';
import { endpoint } from './endpoint.js';

const NullableId = Type.Union([Type.String(), Type.Null()]);

/**
 * The comment. `parent` describes the DIRECT parent of the comment: `_id` is that post's or
 * comment's id, `author.username` its author's name (the "replying to" line), and `directParent`
 * is true when the direct parent is the post itself (a top-level comment) and false for a reply
 * to a comment. `postId` always names the thread's post, so a comment listed on a profile or in
 * search links to /p/{postId}?c={_id}.
 * A deleted comment that still has replies is a marker: deleted true, text "", author <deleted>
 * (author.pfp null).
 * - createdAt: epoch milliseconds.
 * - images: how many images the comment has; media: their URLs, versioned (and signed in a
 *   private group, since an <img> carries no token); alts: each image's description (alt text),
 *   in the same order, '' for an image without one (sent with the image: the `alt` field of
 *   POST /upload/image).
 * - author.pfp is the author's id (the avatar key); author.pfpUrl the avatar at its version.
 */
export const Comment = Type.Object({
  _id: Type.String(),
  postId: Type.String(),
  text: Type.String(),
  parent: Type.Object({
    _id: Type.String(),
    author: Type.Object({ username: Type.String() }),
    directParent: Type.Boolean(),
  }),
  author: Type.Object({ username: Type.String(), pfp: NullableId, pfpUrl: Type.String() }),
  createdAt: Type.Number(),
  liked: Type.Boolean(),
  likes: Type.Integer(),
  /** Direct replies. */
  comments: Type.Integer(),
  /** `_id` null when the mention was plain text (or its user is gone). */
  mentions: Type.Array(Type.Object({ _id: NullableId, username: Type.String() })),
  itsme: Type.Boolean(),
  images: Type.Integer(),
  media: Type.Array(Type.String()),
  /** Always sent; optional for posts and comments a client cached before descriptions existed. */
  alts: Type.Optional(Type.Array(Type.String())),
  deleted: Type.Boolean(),
  /** A remote account's comment: its server and the original's page (see RemoteOrigin). */
  remote: Type.Optional(RemoteOrigin),
});
export type Comment = Static<typeof Comment>;

/**
 * A node of GET /comment/{id}/tree: the root-most ancestor holds its next descendant in
 * `children`, down to the pinned comment (`pinned: true`), whose `children` are its first page
 * of direct replies (`hasMore` tells whether more follow). Its $id names it in the API document.
 */
export const CommentNode = Type.Recursive(
  (Self) =>
    Type.Composite([
      Comment,
      Type.Object({ pinned: Type.Boolean(), children: Type.Array(Self), hasMore: Type.Boolean() }),
    ]),
  { $id: 'CommentNode' },
);
export type CommentNode = Static<typeof CommentNode>;

/** A page of comments (a thread level, a user's comments, the reply search). */
export const CommentList = pageOf('comments', Comment);
export type CommentList = Static<typeof CommentList>;

/**
 * `parent` is the post's id for a top-level comment, else the id of the comment replied to.
 * `images`: how many pictures the client uploads next (POST /upload/image, index 0 up): the comment
 * goes to other fediverse servers once they are in, as a post does; left out, it goes at once.
 */
export const CreateCommentBody = Type.Object({
  text: Type.Optional(Type.String()),
  parent: Id,
  mentions: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: LIMITS.mentionsPerPost })),
  images: Type.Optional(Type.Integer({ minimum: 0, maximum: LIMITS.imagesPerComment })),
});
export type CreateCommentBody = Static<typeof CreateCommentBody>;

/**
 * Listing of a thread level. `pinned` is a comment shown pinned at the top of the page, left out
 * of the list so it does not appear twice; `link` (the page was opened from a comment link) is
 * accepted for the web app's URLs and changes nothing here.
 */
export const ThreadQuery = Type.Composite([
  ListingQuery,
  Type.Object({ pinned: Type.Optional(Type.String({ maxLength: 64 })), link: Type.Optional(Type.Boolean()) }),
]);
export type ThreadQuery = Static<typeof ThreadQuery>;

export const commentsApi = {
  create: endpoint({
    method: 'POST',
    path: '/comment/',
    summary: 'Comment on a post or reply to a comment (send an Idempotency-Key so a retry is applied once)',
    body: CreateCommentBody,
    replies: { 201: Comment },
    invalidKey: 'blank_comment',
    errors: ['blank_comment', 'max_comment_length', 'max_comment_lines', 'mentions_up_to', 'invalid_parent', 'banned', 'blocked', 'comment_limit', 'mention_limit', 'idempotency_mismatch'],
  }),
  like: endpoint({
    method: 'PATCH',
    path: '/comment/:commentId/like',
    summary: "Toggle the caller's like, or set it with {liked}",
    params: CommentIdParams,
    ...likeEntry,
    invalidKey: 'invalid_comment',
    errors: ['comment_not_found', 'banned', 'blocked', 'like_limit', 'idempotency_mismatch'],
  }),
  delete: endpoint({
    method: 'DELETE',
    path: '/comment/:commentId',
    summary: 'Delete a comment (its author only); one with replies stays as a deleted marker',
    params: CommentIdParams,
    replies: MessageReplies,
    errors: ['comment_not_found', 'not_author'],
  }),
  tree: endpoint({
    method: 'GET',
    path: '/comment/:commentId/tree',
    summary: 'A comment pinned inside its chain of ancestors, with its first page of replies',
    params: CommentIdParams,
    ...listingEntry(Type.Object({ pinnedTree: CommentNode })),
    errors: ['comment_not_found'],
  }),
} as const;
