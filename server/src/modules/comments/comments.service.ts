import type { CommentNode, CreateCommentBody, ThreadQuery } from '#core/api/comments';
import { LIMITS, PAGE_SIZES } from '#core/limits';
import { LISTING_DEFAULTS, POST_PAGE_DEFAULTS } from '#core/listing';
import { foldForSearch, trimText } from '#core/text';
import { validateCommentText } from '#core/validation';
import type { KeysetPage } from '../../db/helpers.js';
import type { Executor } from '../../db/schema.js';
import { findUsersByIdOrName } from '../../db/users.js';
import { badRequest, forbidden, notFound } from '../../lib/app-error.js';
import { takeCommentSlot, takeLikeSlot, takeStrangerMentionSlots } from '../../lib/content-limits.js';
import { withLikedTargets } from '../../lib/liked-targets.js';
import { isId, newId } from '../../lib/ids.js';
import { type ListingQuery, listingWindow, pageWindow, toPage } from '../../lib/paging.js';
import { publishEvent } from '../../lib/events/domain-events.js';
// Declares the events this module publishes.
import './comments.events.js';
import type { ServiceContext } from '../../lib/service-context.js';
import { isBannedFromPost } from '../../policy/group-access.js';
import { isBlockedBetween } from '../../policy/blocks.js';
import { readImageAlts } from '../../policy/image-alts.js';
import { imageKey } from '../../policy/media-urls.js';
import type { Viewer } from '../../plugins/auth.js';
import * as repo from './comments.repository.js';
import { type CommentView, toComments } from './comments.mapper.js';
import { typedMentionAccounts } from '../remote/typed-mentions.js';

/** The comment rules. */

type Page = { comments: CommentView[]; hasMore: boolean };

async function mapOne(ctx: ServiceContext, id: string, viewerId: string | null): Promise<CommentView | undefined> {
  const rows = await repo.commentsByIds(ctx.db, [id], viewerId);
  return (await toComments(ctx.db, rows, viewerId, ctx.app.config.jwtSecret))[0];
}

/**
 * Mentions are user ids or raw names; each becomes {user_id, username}, with the id when it
 * names an existing account. Duplicates collapse to the first.
 */
async function resolveMentions(db: Executor, raw: string[]): Promise<{ user_id: string | null; username: string }[]> {
  const cleaned = raw.map((m) => m.trim().replace(/^@/, '')).filter((m) => m !== '');
  const looksLikeId = (m: string) => isId(m);
  const ids = cleaned.filter(looksLikeId);
  const names = cleaned.filter((m) => !looksLikeId(m)).map((m) => m.toLowerCase());
  const users = await findUsersByIdOrName(db, ids, names);
  const byId = new Map(users.map((u) => [u.id, u]));
  const byName = new Map(users.map((u) => [u.username_lower, u]));
  const seen = new Set<string>();
  const out: { user_id: string | null; username: string }[] = [];
  for (const mention of cleaned) {
    const user = byId.get(mention) ?? byName.get(mention.toLowerCase());
    const identity = user ? user.id : mention.toLowerCase();
    if (seen.has(identity)) continue;
    seen.add(identity);
    out.push(user ? { user_id: user.id, username: user.username } : { user_id: null, username: mention });
  }
  return out;
}

/**
 * Refuses (403 blocked) when a block stands between the caller and the author of the post or of
 * the comment they would answer or like: neither of the two may take part in the other's threads.
 */
async function refuseBlocked(
  db: Executor,
  viewerId: string,
  postId: string,
  commentAuthorId: string | null,
  post?: { author_id: string | null },
): Promise<void> {
  // The post as the caller already read it, when they did: it is not read a second time.
  const postAuthorId = (post ?? (await repo.findVisiblePost(db, postId, viewerId)))?.author_id ?? null;
  for (const authorId of [postAuthorId, commentAuthorId]) {
    if (await isBlockedBetween(db, viewerId, authorId)) throw forbidden('blocked');
  }
}

/** Where a comment that came from another server lives there (its object's IRI and its page). */
export interface RemoteOrigin {
  apId: string;
  apUrl: string | null;
  /** Fetched as the context of a reply rather than sent: stored without telling anyone of it. */
  quiet?: boolean;
}

/**
 * POST /comment/: a comment on a post or a reply to a comment, at any depth, mentioning the chosen
 * accounts and then those its text names by fediverse handle (looked up by `prepareTypedMentions`
 * before the transaction), as a post does. A remote account's reply arriving from its server passes
 * through the same rules, with `remote` saying where it lives.
 */
export async function createComment(ctx: ServiceContext, viewer: Viewer, body: CreateCommentBody, remote?: RemoteOrigin): Promise<CommentView> {
  const invalid = validateCommentText(body.text);
  if (invalid) throw badRequest(invalid);
  const mentionsRaw = body.mentions ?? [];
  if (mentionsRaw.length > LIMITS.mentionsPerPost) throw badRequest('mentions_up_to');
  const text = trimText(body.text!);

  const trx = ctx.db;
  const { rates } = ctx.app.config;
  let postId: string;
  let parentCommentId: string | null = null;
  let parentAuthorId: string | null = null;
  const post = await repo.findVisiblePost(trx, body.parent, viewer.id);
  if (post) {
    postId = post.id;
  } else {
    // Locked so a concurrent delete cannot remove the parent between this check and the insert.
    const parent = await repo.findVisibleComment(trx, body.parent, viewer.id, true);
    if (!parent || parent.deleted) throw notFound('invalid_parent');
    postId = parent.post_id;
    parentCommentId = parent.id;
    parentAuthorId = parent.author_id;
  }
  if (await isBannedFromPost(trx, postId, viewer.id)) throw forbidden('banned');
  await refuseBlocked(trx, viewer.id, postId, parentAuthorId, post);

  const chosen = await resolveMentions(trx, mentionsRaw);
  // A remote reply names whom it mentions in its own tags; only a local author's text adds handles.
  const typed = remote ? [] : await typedMentionAccounts(trx, text, chosen.map((m) => m.user_id));
  const mentions = [...chosen, ...typed.map((user) => ({ user_id: user.id, username: user.username }))];
  await takeCommentSlot(trx, rates, viewer.id);
  await takeStrangerMentionSlots(trx, rates, viewer.id, mentions.map((m) => m.user_id));
  const now = Date.now();
  const id = newId(now);
  await repo.insertComment(
    trx,
    {
      id,
      post_id: postId,
      parent_comment_id: parentCommentId,
      author_id: viewer.id,
      text,
      search_text: foldForSearch(text),
      created_at: now,
      ...(remote ? { ap_id: remote.apId, ap_url: remote.apUrl } : {}),
    },
    mentions,
  );
  await repo.addToPostComments(trx, postId, 1);
  if (parentCommentId) await repo.addToReplies(trx, parentCommentId, 1);
  await publishEvent(ctx, 'comment.created', { commentId: id, pictures: body.images ?? 0, quiet: remote?.quiet });
  return (await mapOne(ctx, id, viewer.id))!;
}

/**
 * A remote author's edit of their comment on their server: Kruh's own users cannot edit comments,
 * so only the text changes, within the comment limits, and whom it mentions (the accounts its Note
 * names now); those it newly mentions are told, as of a post's edit. Another's comment is refused.
 */
export async function replaceRemoteCommentText(ctx: ServiceContext, viewer: Viewer, commentId: string, text: string, mentionIds: string[] = []): Promise<void> {
  const invalid = validateCommentText(text);
  if (invalid) throw badRequest(invalid);
  if (mentionIds.length > LIMITS.mentionsPerPost) throw badRequest('mentions_up_to');
  const comment = await repo.findCommentForUpdate(ctx.db, commentId);
  if (!comment || comment.deleted) throw notFound('comment_not_found');
  if (comment.author_id !== viewer.id) throw forbidden('not_author');
  const trimmed = trimText(text);
  await repo.updateCommentText(ctx.db, commentId, trimmed, foldForSearch(trimmed));
  const mentions = await resolveMentions(ctx.db, mentionIds);
  const before = new Set((await repo.mentionsOf(ctx.db, [commentId])).map((m) => m.user_id));
  const newlyMentioned = [...new Set(mentions.flatMap((m) => (m.user_id && !before.has(m.user_id) ? [m.user_id] : [])))];
  await takeStrangerMentionSlots(ctx.db, ctx.app.config.rates, viewer.id, newlyMentioned);
  await repo.replaceCommentMentions(ctx.db, commentId, mentions);
  if (newlyMentioned.length > 0) await publishEvent(ctx, 'comment.edited', { commentId, newlyMentioned });
}

/** PATCH /comment/{id}/like: toggles, or sets `liked` when given; counted as likePost is. */
export async function likeComment(ctx: ServiceContext, viewer: Viewer, { commentId, liked }: { commentId: string; liked: boolean | undefined }) {
  const trx = ctx.db;
  const comment = await repo.findVisibleComment(trx, commentId, viewer.id);
  if (!comment || comment.deleted) throw notFound('comment_not_found');
  if (await isBannedFromPost(trx, comment.post_id, viewer.id)) throw forbidden('banned');
  await refuseBlocked(trx, viewer.id, comment.post_id, comment.author_id);
  await takeLikeSlot(trx, ctx.app.config.rates, viewer.id);
  const now = Date.now();
  await publishEvent(ctx, 'comment.like_changing', { commentId, userId: viewer.id, liked, now });
  return repo.setCommentLike(trx, commentId, viewer.id, liked, now);
}

/**
 * DELETE /comment/{id}: author only. A comment with replies stays as a marker so its replies
 * remain readable; one without is removed, and so is every marker above it left without replies.
 * Runs on the route's transaction; answers the media keys to remove once it commits.
 */
export async function deleteComment(ctx: ServiceContext, viewer: Viewer, commentId: string): Promise<string[]> {
  // Read first, while the comment is there; removeComment refuses anyone but its author, and the
  // queued job goes with the refused transaction.
  await publishEvent(ctx, 'comment.deleting', { commentId });
  return (await removeComment(ctx.db, viewer, commentId)) ? [imageKey(commentId, 0)] : [];
}

/** The rows deleteComment changes; answers whether the comment had an image. */
async function removeComment(trx: Executor, viewer: Viewer, commentId: string): Promise<boolean> {
  const comment = await repo.findCommentForUpdate(trx, commentId);
  if (!comment || comment.deleted) throw notFound('comment_not_found');
  if (comment.author_id !== viewer.id) {
    // A comment the caller may not see answers as a missing one: a 403 would confirm it exists.
    if (!(await repo.findVisibleComment(trx, comment.id, viewer.id))) throw notFound('comment_not_found');
    throw forbidden('not_author');
  }
  await repo.addToPostComments(trx, comment.post_id, -1);
  if (comment.replies > 0) {
    await repo.markDeleted(trx, comment.id);
    return comment.images > 0;
  }
  await repo.deleteCommentRow(trx, comment.id);
  let parentId = comment.parent_comment_id;
  while (parentId) {
    const parent = await repo.findCommentForUpdate(trx, parentId);
    if (!parent) break;
    if (parent.deleted && parent.replies <= 1) {
      await repo.deleteCommentRow(trx, parent.id);
      parentId = parent.parent_comment_id;
    } else {
      await repo.addToReplies(trx, parent.id, -1);
      break;
    }
  }
  return comment.images > 0;
}

/**
 * GET /post/{parentId}/comments: top-level comments of a post, or the direct replies of a
 * comment when parentId is a comment's id.
 */
export async function listThread(ctx: ServiceContext, viewer: Viewer | null, { parentId, query }: { parentId: string; query: ThreadQuery }): Promise<Page> {
  const viewerId = viewer?.id ?? null;
  const post = await repo.findVisiblePost(ctx.db, parentId, viewerId);
  let filter: repo.CommentFilter;
  if (post) {
    filter = { kind: 'thread', postId: post.id, parentCommentId: null };
  } else {
    const comment = await repo.findVisibleComment(ctx.db, parentId, viewerId);
    if (!comment) throw notFound('didnt_find_post');
    filter = { kind: 'thread', postId: comment.post_id, parentCommentId: comment.id };
  }
  const excluded = isId(query.pinned) ? query.pinned : undefined;
  return listPage(ctx, viewerId, filter, query, POST_PAGE_DEFAULTS, excluded);
}

/** GET /profile/comments/{userId}: the user's comments on posts the viewer may see. */
export function listByAuthor(ctx: ServiceContext, viewer: Viewer | null, { authorId, query }: { authorId: string; query: ListingQuery }): Promise<Page> {
  return listPage(ctx, viewer?.id ?? null, { kind: 'author', authorId }, query, LISTING_DEFAULTS);
}

/** An author's comments the viewer may read between two comments' keys, newest first (the client API's account statuses). */
export async function keyedCommentsByAuthor(ctx: ServiceContext, viewer: Viewer | null, request: Omit<repo.AuthorCommentsRequest, 'viewerId'>): Promise<CommentView[]> {
  const viewerId = viewer?.id ?? null;
  const rows = await repo.authorCommentPage(ctx.db, { ...request, viewerId });
  return toComments(ctx.db, rows, viewerId, ctx.app.config.jwtSecret);
}

/** GET /search/for/replies: comments whose text matches the query. */
export async function searchComments(ctx: ServiceContext, viewer: Viewer | null, query: ListingQuery): Promise<Page> {
  const text = query.query?.trim() ?? '';
  if (text === '') return { comments: [], hasMore: false };
  return listPage(ctx, viewer?.id ?? null, { kind: 'search', query: text }, query, LISTING_DEFAULTS);
}

async function listPage(
  ctx: ServiceContext,
  viewerId: string | null,
  filter: repo.CommentFilter,
  query: ListingQuery,
  defaults: typeof LISTING_DEFAULTS | typeof POST_PAGE_DEFAULTS,
  excludeId?: string,
): Promise<Page> {
  const page = pageWindow(query, PAGE_SIZES.comments);
  const rows = await repo.listComments(ctx.db, { filter, listing: listingWindow(query, defaults), page, viewerId, excludeId });
  const { items, hasMore } = toPage(rows, page);
  return { comments: await toComments(ctx.db, items, viewerId, ctx.app.config.jwtSecret), hasMore };
}

/** The author of a comment the viewer may read (null once the account is gone); 404 otherwise. */
export async function visibleCommentAuthor(ctx: ServiceContext, viewer: Viewer | null, commentId: string): Promise<string | null> {
  const comment = isId(commentId) ? await repo.findVisibleComment(ctx.db, commentId, viewer?.id ?? null) : undefined;
  if (!comment || comment.deleted) throw notFound('comment_not_found');
  return comment.author_id;
}

/**
 * One comment as the viewer reads it, the pinned node of its thread (GET /comment/{id}/tree)
 * without its replies: null when the viewer may not read it, or it was deleted.
 */
export async function readableComment(ctx: ServiceContext, viewer: Viewer | null, commentId: string): Promise<CommentView | null> {
  const viewerId = viewer?.id ?? null;
  if (!isId(commentId) || !(await repo.findVisibleComment(ctx.db, commentId, viewerId))) return null;
  const comment = await mapOne(ctx, commentId, viewerId);
  return comment && !comment.deleted ? comment : null;
}

/** GET /comment/{id}/tree: the pinned comment inside its chain of ancestors, with its replies. */
export async function commentTree(
  ctx: ServiceContext,
  viewer: Viewer | null,
  { commentId, query }: { commentId: string; query: ListingQuery },
): Promise<CommentNode> {
  const { db } = ctx;
  const viewerId = viewer?.id ?? null;
  const pinned = await repo.findVisibleComment(db, commentId, viewerId);
  if (!pinned) throw notFound('comment_not_found');
  const chain = await repo.commentChain(db, commentId);
  const [rows, replies] = await Promise.all([
    repo.commentsByIds(db, chain, viewerId),
    listPage(ctx, viewerId, { kind: 'thread', postId: pinned.post_id, parentCommentId: pinned.id }, query, POST_PAGE_DEFAULTS),
  ]);
  const views = new Map((await toComments(db, rows, viewerId, ctx.app.config.jwtSecret)).map((c) => [c._id, c]));
  // A comment a block hides from the viewer reads as a missing one.
  const own = views.get(commentId);
  if (!own) throw notFound('comment_not_found');
  let node: CommentNode = {
    ...own,
    pinned: true,
    children: replies.comments.map((c) => ({ ...c, pinned: false, children: [], hasMore: false })),
    hasMore: replies.hasMore,
  };
  for (const ancestorId of chain.slice(0, -1).reverse()) {
    const ancestor = views.get(ancestorId);
    if (!ancestor) break;
    node = { ...ancestor, pinned: false, children: [node], hasMore: ancestor.comments > 1 };
  }
  return node;
}

// ---- A user's own data (the account export) ----------------------------------------------------

/** A comment the user wrote. */
export interface AuthoredComment {
  id: string;
  postId: string;
  /** The comment it answers; null for one on the post itself. */
  parentCommentId: string | null;
  text: string;
  createdAt: number;
  /** Mentioned users: the id while the account exists, the current name. */
  mentions: { id: string | null; name: string }[];
  likes: number;
  replies: number;
  images: number;
  /** Each image's description, in image order ('' for none). */
  alts: string[];
}

/** A page of the comments the user wrote that still stand, oldest first (keyed by createdAt and id). */
export async function commentsWrittenBy(db: Executor, authorId: string, page: KeysetPage): Promise<AuthoredComment[]> {
  const rows = await repo.findCommentsByAuthor(db, authorId, page);
  const mentionRows = await repo.mentionsOf(db, rows.map((row) => row.id));
  const mentions = new Map<string, AuthoredComment['mentions']>();
  for (const m of mentionRows) {
    const list = mentions.get(m.comment_id) ?? [];
    list.push(m.user_id && m.current_username ? { id: m.user_id, name: m.current_username } : { id: null, name: m.username });
    mentions.set(m.comment_id, list);
  }
  return rows.map((row) => ({
    id: row.id,
    postId: row.post_id,
    parentCommentId: row.parent_comment_id,
    text: row.text,
    createdAt: row.created_at,
    mentions: mentions.get(row.id) ?? [],
    likes: Number(row.likes),
    replies: Number(row.replies),
    images: imagesOf(row),
    alts: readImageAlts(row.image_alts, imagesOf(row)),
  }));
}

/** A comment's images, at most the limit whatever the row says. */
const imagesOf = (row: { images: number }) => Math.min(Number(row.images), LIMITS.imagesPerComment);

/** A page of the user's standing comments that hold images (keyed by createdAt and id), with how many each holds. */
export async function commentImagesOfAuthor(db: Executor, authorId: string, page: KeysetPage): Promise<Array<{ id: string; createdAt: number; images: number }>> {
  const rows = await repo.findImagesOfAuthor(db, authorId, page);
  return rows.map((row) => ({ id: row.id, createdAt: row.created_at, images: imagesOf(row) }));
}

/** A comment the user liked; `comment` only when they may read it (see findReadableLikedComments). */
export interface LikedComment {
  commentId: string;
  likedAt: number;
  comment: { postId: string; author: string; text: string; createdAt: number } | null;
}

/** A page of the user's likes of comments, oldest first (keyed by likedAt and commentId); one they may not read now is named by its id alone. */
export async function commentsLikedBy(db: Executor, userId: string, page: KeysetPage): Promise<LikedComment[]> {
  const likes = await repo.findCommentLikesOf(db, userId, page);
  const readable = await repo.findReadableLikedComments(db, userId, likes.map((like) => like.id));
  const liked = withLikedTargets(likes, readable, (row, author) => ({ postId: row.post_id, author, text: row.text, createdAt: row.created_at }));
  return liked.map(({ id, likedAt, target }) => ({ commentId: id, likedAt, comment: target }));
}

/** The comments under these posts that hold images, for the posts module deleting them. */
export function commentImagesOf(db: Executor, postIds: string[]): Promise<{ id: string; images: number }[]> {
  return repo.findImagesUnderPosts(db, postIds);
}
