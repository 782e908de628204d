import { type ExpressionBuilder, sql } from 'kysely';
import { type Keyset, type KeysetPage, type LikedWritingRow, addToCounters, afterKeyset, beforeKeyset, changedRows, imagesOfAuthor, likesGivenBy, toBool, toFlag } from '../../db/helpers.js';
import { runBound } from '../../db/bound-statements.js';
import type { CommentRow, Database, Executor } from '../../db/schema.js';
import type { ListingWindow, PageWindow } from '../../lib/paging.js';
import { lockingRead } from '../../db/dialect.js';
import { searchMatches } from '../../lib/search.js';
import { cardFlags, postVisibleTo } from '../../policy/post-visibility.js';
import { commentNotBlocked } from '../../policy/blocks.js';
import { userNotSuspended } from '../../policy/suspension.js';

/** Every query of the comments module. */

/** A comment as the rules read it: `deleted` is true for a marker kept for its replies. */
export type CommentRecord = Omit<CommentRow, 'deleted'> & { deleted: boolean };

function toRecord(row: CommentRow | undefined): CommentRecord | undefined {
  return row && { ...row, deleted: toBool(row.deleted) };
}

/**
 * The comments the viewer may read: under a post they may see, with no block between them and the
 * comment's author or the post's author, by an author who is not suspended. The one rule of reading
 * a comment: a thread, a listing and the data export all ask it.
 */
function readableComment(viewerId: string | null) {
  return (eb: ExpressionBuilder<Database, 'comments'>) =>
    eb.and([postVisibleTo(viewerId, 'comments.post_id')(eb), commentNotBlocked(viewerId)(eb), userNotSuspended('comments.author_id')]);
}

export async function findVisiblePost(db: Executor, postId: string, viewerId: string | null) {
  const [row] = await runBound(db, 'comments.visiblePost', { postId, viewerId }, (a) =>
    db.selectFrom('posts').select(['posts.id', 'posts.author_id']).where('posts.id', '=', a.postId).where(postVisibleTo(a.viewerId)));
  return row;
}

/** A comment whose post the viewer may see; `lock` holds it against concurrent deletes (PG). */
export async function findVisibleComment(
  db: Executor,
  commentId: string,
  viewerId: string | null,
  lock = false,
): Promise<CommentRecord | undefined> {
  const row = await db
    .selectFrom('comments')
    .selectAll('comments')
    .where('comments.id', '=', commentId)
    .where(postVisibleTo(viewerId, 'comments.post_id'))
    .where(userNotSuspended('comments.author_id'))
    .$if(lock, lockingRead(db))
    .executeTakeFirst();
  return toRecord(row);
}

export async function findCommentForUpdate(db: Executor, commentId: string): Promise<CommentRecord | undefined> {
  const row = await db
    .selectFrom('comments')
    .selectAll()
    .where('id', '=', commentId)
    .$call(lockingRead(db))
    .executeTakeFirst();
  return toRecord(row);
}

export async function insertComment(
  db: Executor,
  row: Omit<CommentRow, 'likes' | 'replies' | 'images' | 'media_version' | 'image_alts' | 'deleted' | 'ap_id' | 'ap_url' | 'awaiting_pictures'> & Partial<Pick<CommentRow, 'ap_id' | 'ap_url'>>,
  mentions: { user_id: string | null; username: string }[],
): Promise<void> {
  await db.insertInto('comments').values(row).execute();
  if (mentions.length) {
    await db
      .insertInto('comment_mentions')
      .values(mentions.map((m, position) => ({ comment_id: row.id, position, ...m })))
      .execute();
  }
}

/** posts.comments counts live comments of every depth. */
export function addToPostComments(db: Executor, postId: string, delta: number): Promise<void> {
  return addToCounters(db, 'posts', postId, { comments: delta });
}

/** comments.replies counts the direct children rows (markers included). */
export function addToReplies(db: Executor, commentId: string, delta: number): Promise<void> {
  return addToCounters(db, 'comments', commentId, { replies: delta });
}

/** A comment's new text (a remote author's edit of it on their server). */
export async function updateCommentText(db: Executor, commentId: string, text: string, searchText: string): Promise<void> {
  await db.updateTable('comments').set({ text, search_text: searchText }).where('id', '=', commentId).where('deleted', '=', 0).execute();
}

/** A comment's mentions replaced by these, in this order (a remote author's edit naming others). */
export async function replaceCommentMentions(db: Executor, commentId: string, mentions: { user_id: string | null; username: string }[]): Promise<void> {
  await db.deleteFrom('comment_mentions').where('comment_id', '=', commentId).execute();
  if (mentions.length) {
    await db
      .insertInto('comment_mentions')
      .values(mentions.map((m, position) => ({ comment_id: commentId, position, ...m })))
      .execute();
  }
}

/** Turns a comment with replies into a marker: no text, author, mentions, likes or image. */
export async function markDeleted(db: Executor, commentId: string): Promise<void> {
  await db
    .updateTable('comments')
    .set({ deleted: toFlag(true), text: '', author_id: null, search_text: '', likes: 0, images: 0, image_alts: '[]' })
    .where('id', '=', commentId)
    .execute();
  await db.deleteFrom('comment_mentions').where('comment_id', '=', commentId).execute();
  await db.deleteFrom('comment_likes').where('comment_id', '=', commentId).execute();
}

export async function deleteCommentRow(db: Executor, commentId: string): Promise<void> {
  await db.deleteFrom('comments').where('id', '=', commentId).execute();
}

/** Sets or toggles the viewer's like; answers whether the like exists afterwards and the count. */
export async function setCommentLike(
  db: Executor,
  commentId: string,
  userId: string,
  wanted: boolean | undefined,
  now: number,
): Promise<{ liked: boolean; likes: number }> {
  let delta = 0;
  let liked: boolean;
  const removeLike = () =>
    db.deleteFrom('comment_likes').where('comment_id', '=', commentId).where('user_id', '=', userId).executeTakeFirst();
  const addLike = () =>
    db
      .insertInto('comment_likes')
      .values({ comment_id: commentId, user_id: userId, created_at: now })
      .onConflict((oc) => oc.columns(['comment_id', 'user_id']).doNothing())
      .executeTakeFirst();
  if (wanted !== true && changedRows(await removeLike())) {
    delta = -1;
    liked = false;
  } else if (wanted === false) {
    liked = false;
  } else {
    const inserted = await addLike();
    if (changedRows(inserted)) delta = 1;
    liked = true;
  }
  await addToCounters(db, 'comments', commentId, { likes: delta });
  const row = await db.selectFrom('comments').select('likes').where('id', '=', commentId).executeTakeFirstOrThrow();
  return { liked, likes: row.likes };
}

/** Ids from the root-most ancestor down to the comment itself. */
export async function commentChain(db: Executor, commentId: string): Promise<string[]> {
  const result = await sql<{ id: string; depth: number }>`
    with recursive chain(id, parent_id, depth) as (
      select id, parent_comment_id, 0 from comments where id = ${commentId}
      union all
      select c.id, c.parent_comment_id, chain.depth + 1 from comments c join chain on c.id = chain.parent_id
    )
    select id, depth from chain order by depth desc`.execute(db);
  return result.rows.map((r) => r.id);
}

/** What a Comment is built from: the row, its author, its direct parent's author, privacy, the viewer's like. */
function commentView(db: Executor, viewerId: string | null) {
  return db
    .selectFrom('comments')
    .innerJoin('posts', 'posts.id', 'comments.post_id')
    .leftJoin('users as author', 'author.id', 'comments.author_id')
    .leftJoin('comments as pc', 'pc.id', 'comments.parent_comment_id')
    .leftJoin('users as post_author', 'post_author.id', 'posts.author_id')
    .leftJoin('users as pc_author', 'pc_author.id', 'pc.author_id')
    .select([
      'comments.id',
      'comments.post_id',
      'comments.parent_comment_id',
      'comments.author_id',
      'comments.text',
      'comments.likes',
      'comments.replies',
      'comments.images',
      'comments.media_version',
      'comments.image_alts',
      'comments.deleted',
      'comments.created_at',
      'comments.ap_id',
      'comments.ap_url',
      'author.username as author_username',
      'author.pfp_version as author_pfp_version',
      'post_author.username as post_author_username',
      'pc_author.username as parent_comment_author_username',
    ])
    .select(cardFlags(viewerId, 'comment_likes', 'comments.post_id', 'comments.id'))
    .where(readableComment(viewerId));
}

type ViewQuery = ReturnType<typeof commentView>;
type ViewSelection = Awaited<ReturnType<ViewQuery['execute']>>[number];
/** A comment with what its reply shows, its flags as booleans. */
export type CommentViewRow = Omit<ViewSelection, 'deleted' | 'is_private' | 'liked'> & { deleted: boolean; is_private: boolean; liked: boolean };

export async function commentsByIds(db: Executor, ids: string[], viewerId: string | null): Promise<CommentViewRow[]> {
  if (ids.length === 0) return [];
  const rows = await runBound(db, 'comments.byIds', { ids, viewerId }, (a) => commentsByIdsQuery(db, a.ids, a.viewerId));
  return rows.map((row) => ({ ...row, deleted: toBool(row.deleted), is_private: toBool(row.is_private), liked: toBool(row.liked) }));
}

/** The statement of commentsByIds; exported so tests can read its plan. */
export const commentsByIdsQuery = (db: Executor, ids: string[], viewerId: string | null) => commentView(db, viewerId).where('comments.id', 'in', ids);

export type CommentFilter =
  | { kind: 'thread'; postId: string; parentCommentId: string | null }
  | { kind: 'author'; authorId: string }
  | { kind: 'search'; query: string };

/** Which comments, in which order and window, as whom; `excludeId` leaves one out (a pinned one shown above). */
export interface CommentsRequest {
  filter: CommentFilter;
  listing: ListingWindow;
  page: PageWindow;
  viewerId: string | null;
  excludeId?: string;
}

/**
 * One page (plus one row) of comments; markers only appear in threads, where they hold replies.
 * The page is picked from the comments table alone, then its rows are read with their authors: a
 * planner that sorted before joining would otherwise join every comment of a busy thread first.
 */
export async function listComments(db: Executor, request: CommentsRequest): Promise<CommentViewRow[]> {
  // Bound, not built (bound-statements.ts): the filter's kind and the sort choose the statement's text.
  const { filter, listing, page, viewerId, excludeId } = request;
  const { kind, ...filterValues } = filter;
  const args = { ...filterValues, viewerId, excludeId, since: listing.since, before: listing.before, offset: page.offset, fetch: page.fetch };
  const rows = await runBound(db, `comments.page:${kind}:${listing.sort}`, args, (a) => {
    const { viewerId: v, excludeId: x, since, before, offset, fetch, ...rest } = a;
    return commentIdsQuery(db, {
      filter: { kind, ...rest } as CommentFilter,
      listing: { sort: listing.sort, since, before },
      page: { offset, fetch, limit: page.limit },
      viewerId: v,
      ...(x === undefined ? {} : { excludeId: x }),
    });
  });
  return commentsInOrder(db, rows.map((r) => r.id), request.viewerId);
}

/** An author's comments between two (time, id) keys; `nearAbove` asks for the oldest past `above`. */
export interface AuthorCommentsRequest {
  authorId: string;
  viewerId: string | null;
  below?: Keyset | undefined;
  above?: Keyset | undefined;
  nearAbove?: boolean | undefined;
  limit: number;
  withImages?: boolean | undefined;
}

/** A page of an author's comments the viewer may read, newest first whichever way it was read. */
export async function authorCommentPage(db: Executor, request: AuthorCommentsRequest): Promise<CommentViewRow[]> {
  const direction = request.nearAbove ? 'asc' : 'desc';
  const rows = await db
    .selectFrom('comments')
    .select('comments.id')
    .where(readableComment(request.viewerId))
    .where('comments.deleted', '=', 0)
    .where('comments.author_id', '=', request.authorId)
    .where(beforeKeyset(request.below, 'comments.created_at', 'comments.id'))
    .where(afterKeyset(request.above, 'comments.created_at', 'comments.id'))
    .$if(request.withImages === true, (qb) => qb.where('comments.images', '>', 0))
    .orderBy('comments.created_at', direction)
    .orderBy('comments.id', direction)
    .limit(request.limit)
    .execute();
  const ids = rows.map((r) => r.id);
  return commentsInOrder(db, request.nearAbove ? ids.reverse() : ids, request.viewerId);
}

/** The comments of `ids` in that order, those not found left out. */
async function commentsInOrder(db: Executor, ids: string[], viewerId: string | null): Promise<CommentViewRow[]> {
  const byId = new Map((await commentsByIds(db, ids, viewerId)).map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * The ids of one page of comments; a thread level walks its index in either order
 * (migration 20261125_01_listing_order_indexes). Exported so tests can read its plan.
 */
export function commentIdsQuery(db: Executor, { filter, listing, page, viewerId, excludeId }: CommentsRequest) {
  let qb = db
    .selectFrom('comments')
    .select('comments.id')
    .where(readableComment(viewerId));
  if (filter.kind === 'thread') {
    qb = qb.where('comments.post_id', '=', filter.postId);
    qb = filter.parentCommentId === null
      ? qb.where('comments.parent_comment_id', 'is', null)
      : qb.where('comments.parent_comment_id', '=', filter.parentCommentId);
  } else {
    qb = qb.where('comments.deleted', '=', 0);
    qb = filter.kind === 'author'
      ? qb.where('comments.author_id', '=', filter.authorId)
      : qb.where(searchMatches(db, 'comments', filter.query));
  }
  if (listing.since > 0) qb = qb.where('comments.created_at', '>=', listing.since);
  if (listing.before !== undefined) qb = qb.where('comments.created_at', '<=', listing.before);
  if (excludeId) qb = qb.where('comments.id', '!=', excludeId);
  // A thread level is one parent: ordering by it too changes no page, and lets PostgreSQL see that
  // the level's index (post, parent, ...) is already in the page's order even for top-level
  // comments, whose parent IS NULL it does not take as one value. Without it its generic plan read
  // and sorted every top-level comment of a busy post.
  if (filter.kind === 'thread') qb = qb.orderBy('comments.parent_comment_id', 'desc');
  if (listing.sort === 'popular') qb = qb.orderBy('comments.likes', 'desc');
  return qb.orderBy('comments.created_at', 'desc').orderBy('comments.id', 'desc').limit(page.fetch).offset(page.offset);
}

/** Comment mentions as stored, beside each mentioned user's name now (null when gone), in mention order. */
function commentMentions(db: Executor) {
  return db
    .selectFrom('comment_mentions')
    .leftJoin('users', 'users.id', 'comment_mentions.user_id')
    .select(['comment_mentions.comment_id', 'comment_mentions.position', 'comment_mentions.user_id', 'comment_mentions.username', 'users.username as current_username'])
    .orderBy('comment_mentions.comment_id')
    .orderBy('comment_mentions.position');
}

export async function mentionsOf(db: Executor, ids: string[]) {
  if (ids.length === 0) return [];
  return runBound(db, 'comments.mentions', { ids }, (a) => commentMentions(db).where('comment_mentions.comment_id', 'in', a.ids));
}

// ---- A user's own data (the account export) ------------------------------------------------

export interface AuthoredCommentRow {
  id: string;
  post_id: string;
  parent_comment_id: string | null;
  text: string;
  likes: number;
  replies: number;
  images: number;
  image_alts: string;
  created_at: number;
}

/** The user's standing comments in export order, from after the page's key (index comments_author). */
function authoredPage(db: Executor, authorId: string, page: KeysetPage) {
  return db
    .selectFrom('comments')
    .where('author_id', '=', authorId)
    .where('deleted', '=', 0)
    .where(afterKeyset(page.after, 'created_at', 'id'))
    .orderBy('created_at')
    .orderBy('id')
    .limit(page.limit);
}

/**
 * A page of the comments the user wrote that still stand, oldest first, on whatever post: its text
 * is the author's own. (A deleted comment kept as a marker has no author any more.)
 */
export async function findCommentsByAuthor(db: Executor, authorId: string, page: KeysetPage): Promise<AuthoredCommentRow[]> {
  const rows = await authoredPage(db, authorId, page)
    .select(['id', 'post_id', 'parent_comment_id', 'text', 'likes', 'replies', 'images', 'image_alts', 'created_at'])
    .execute();
  return rows.map((row) => ({ ...row, created_at: Number(row.created_at) }));
}

/** A page of the user's standing comments that hold images, oldest first: which files the export puts in the zip. */
export const findImagesOfAuthor = (db: Executor, authorId: string, page: KeysetPage) => imagesOfAuthor(db, 'comments', authorId, page);

/** A page of the comments the user liked, with when, oldest like first: ids only, whoever may see them. */
export const findCommentLikesOf = (db: Executor, userId: string, page: KeysetPage) => likesGivenBy(db, 'comment_likes', userId, page);

export interface LikedCommentRow extends LikedWritingRow {
  post_id: string;
}

/**
 * Those of `commentIds` (comments the user liked) whose content they may read now (see
 * readableComment), and their own. A comment on a post of a private group is for its members, like
 * the post; one across a block either way, or by a suspended author, is for nobody.
 */
export async function findReadableLikedComments(db: Executor, userId: string, commentIds: string[]): Promise<LikedCommentRow[]> {
  if (commentIds.length === 0) return [];
  const rows = await db
    .selectFrom('comments')
    .leftJoin('users', 'users.id', 'comments.author_id')
    .select(['comments.id', 'comments.post_id', 'comments.author_id', 'users.username as author_username', 'comments.text', 'comments.created_at'])
    .where('comments.id', 'in', commentIds)
    .where('comments.deleted', '=', 0)
    .where((eb) => eb.or([eb('comments.author_id', '=', userId), readableComment(userId)(eb)]))
    .execute();
  return rows.map((row) => ({ ...row, created_at: Number(row.created_at) }));
}

/** The comments under these posts that hold images (their files go when the posts go). */
export function findImagesUnderPosts(db: Executor, postIds: string[]): Promise<{ id: string; images: number }[]> {
  return db.selectFrom('comments').select(['id', 'images']).where('post_id', 'in', postIds).where('images', '>', 0).execute();
}
