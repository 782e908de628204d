import { type Static, Type } from '@sinclair/typebox';
import { LIMITS } from '#core/limits';
import { ListingQuery } from '../../lib/paging';
import { Id } from '../../lib/schemas';

/**
 * The Comment. Reading chosen for `parent`: it describes the DIRECT parent of the
 * comment: `_id` is that post's or comment's id, `author.username` its author's name (the
 * "replying to" line), and `directParent` is true when the direct parent is the post itself
 * (a top-level comment) and false for a reply to a comment. `postId` always names the thread's
 * post, so a comment listed on a profile or in search links to /p/{postId}?c={_id}.
 * A deleted comment that still has replies is a marker: deleted true, text "", author <deleted>.
 */
export const CommentSchema = Type.Object({
  _id: Type.String(),
  postId: Type.String(),
  text: Type.String(),
  parent: Type.Object({
    _id: Type.String(),
    author: Type.Object({ username: Type.String() }),
    directParent: Type.Boolean(),
  }),
  author: Type.Object({ username: Type.String(), pfp: Type.Union([Type.String(), Type.Null()]), pfpUrl: Type.String() }),
  createdAt: Type.Number(),
  liked: Type.Boolean(),
  likes: Type.Integer(),
  /** Direct replies. */
  comments: Type.Integer(),
  mentions: Type.Array(Type.Object({ _id: Type.Union([Type.String(), Type.Null()]), username: Type.String() })),
  itsme: Type.Boolean(),
  images: Type.Integer(),
  media: Type.Array(Type.String()),
  deleted: Type.Boolean(),
});
export type CommentView = Static<typeof CommentSchema>;

/**
 * A node of GET /comment/{id}/tree: the root-most ancestor holds its next descendant in
 * `children`, down to the pinned comment (`pinned: true`), whose `children` are its first page
 * of direct replies (`hasMore` tells whether more follow).
 */
export interface CommentNode extends CommentView {
  pinned: boolean;
  children: CommentNode[];
  hasMore: boolean;
}
export const CommentNodeSchema = Type.Recursive(
  (Self) =>
    Type.Composite([
      CommentSchema,
      Type.Object({ pinned: Type.Boolean(), children: Type.Array(Self), hasMore: Type.Boolean() }),
    ]),
  { $id: 'CommentNode' },
);

export const CommentList = Type.Object({ comments: Type.Array(CommentSchema), hasMore: Type.Boolean() });

export const CreateCommentBody = Type.Object({
  text: Type.Optional(Type.String()),
  parent: Id,
  mentions: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: LIMITS.mentionsPerPost })),
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
export { ListingQuery };
