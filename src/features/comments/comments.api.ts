import { type Comment, type CommentNode, commentsApi } from '#core/api/comments';
import { postsApi } from '#core/api/posts';
import { PAGE_SIZES } from '#core/limits';
import { POST_PAGE_DEFAULTS, type Sort, type TimeWindow } from '#core/listing';
import { ApiError, callApi } from '../../lib/api/client';
import { type CachedComment, type KruhDb, getDb } from '../../lib/db/db';
import { type PagedSource, tableStore } from '../../lib/query/paged';

export type { CommentNode } from '#core/api/comments';

/** One level of a thread: the post's top-level comments, or a comment's direct replies. */
export interface ThreadParams {
  parentId: string;
  sort: Sort;
  time: TimeWindow;
  /** A comment shown pinned above the list, left out of it. */
  pinned?: string | null;
}

/** Stored pages of a thread level live beside the feed pages, under their own key. */
export const THREAD_KEY_PREFIX = 'comments:';

export function threadKey(params: ThreadParams): string {
  return `${THREAD_KEY_PREFIX}${params.parentId}|sort=${params.sort}|time=${params.time}|pinned=${params.pinned ?? ''}`;
}

const commentStore = tableStore<Comment>((db) => db.comments);

/** One thread level for the paging engine (5 comments a page). */
export function threadSource(params: ThreadParams): PagedSource<typeof postsApi.comments, 'comments', CachedComment> {
  return {
    key: threadKey(params),
    endpoint: postsApi.comments,
    params: { postId: params.parentId },
    query: { pinned: params.pinned ?? undefined },
    listing: { sort: params.sort, time: params.time, defaults: POST_PAGE_DEFAULTS },
    limit: PAGE_SIZES.comments,
    field: 'comments',
    store: commentStore,
  };
}

function flattenTree(node: CommentNode, out: Comment[] = []): Comment[] {
  const { pinned: _pinned, children, hasMore: _hasMore, ...comment } = node;
  out.push(comment);
  for (const child of children) flattenTree(child, out);
  return out;
}

/** Where a pinned comment's tree is kept, so `?c=` shows it offline once seen. */
export const commentTreeKey = (id: string) => `comment-tree:${id}`;

/**
 * GET /comment/{id}/tree, kept whole under its key; its comments are stored too, so likes and
 * deletes update them. A tree the server no longer has is forgotten.
 */
export async function fetchCommentTree(id: string, options: { signal?: AbortSignal; db?: KruhDb } = {}): Promise<CommentNode> {
  const db = options.db ?? getDb();
  try {
    const { pinnedTree } = await callApi(commentsApi.tree, { params: { commentId: id }, query: {} }, { signal: options.signal });
    const now = Date.now();
    await db.transaction('rw', db.comments, db.meta, async () => {
      await db.comments.bulkPut(flattenTree(pinnedTree).map((c) => ({ ...c, cachedAt: now })));
      await db.meta.put({ key: commentTreeKey(id), value: pinnedTree });
    });
    return pinnedTree;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) await db.meta.delete(commentTreeKey(id));
    throw err;
  }
}

/** DELETE /comment/{id}; on success the stored copy and its place in stored pages go too. */
export async function deleteComment(id: string, db: KruhDb = getDb()): Promise<void> {
  await callApi(commentsApi.delete, { params: { commentId: id } });
  await db.transaction('rw', db.comments, db.feedPages, async () => {
    await db.comments.delete(id);
    await db.feedPages
      .where('feedKey')
      .startsWith(THREAD_KEY_PREFIX)
      .modify((page) => {
        page.ids = page.ids.filter((x) => x !== id);
      });
  });
}
