import { PAGE_SIZES } from '#core/limits';
import { POST_PAGE_DEFAULTS, type Sort, type TimeWindow } from '#core/listing';
import { apiFetch } from '../../lib/api/client';
import type { Comment } from '../../lib/api/types';
import { type CachedComment, type KruhDb, getDb } from '../../lib/db/db';
import { type ListingPageResult, fetchListingPage, readListingPages } from '../../lib/query/listing';

/** GET /post/{parentId}/comments answer. */
export interface CommentList {
  comments: Comment[];
  hasMore: boolean;
}

/** A node of GET /comment/{id}/tree: ancestors hold the chain down to the pinned comment. */
export interface CommentNode extends Comment {
  pinned: boolean;
  children: CommentNode[];
  hasMore: boolean;
}

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

export type ThreadPageResult = ListingPageResult;

/** GET one page (5 comments) of a thread level and store the comments and their order. */
export function fetchThreadPage(
  params: ThreadParams & { page: number },
  options: { signal?: AbortSignal; db?: KruhDb } = {},
): Promise<ThreadPageResult> {
  const db = options.db ?? getDb();
  return fetchListingPage<Comment>(db, db.comments, 'comments', {
    key: threadKey(params),
    page: params.page,
    path: `/post/${encodeURIComponent(params.parentId)}/comments`,
    query: { pinned: params.pinned ?? undefined },
    limit: PAGE_SIZES.comments,
    sort: params.sort,
    time: params.time,
    defaults: POST_PAGE_DEFAULTS,
    signal: options.signal,
  });
}

export interface StoredThread {
  comments: CachedComment[];
  hasMore: boolean;
  /** How many of the asked pages are stored. */
  stored: number;
  /** When page 1 was read (0 when it was not yet). */
  fetchedAt: number;
}

/** Comments of stored pages 1..pages, in page order, each id once. */
export async function readThread(db: KruhDb, key: string, pages: number): Promise<StoredThread> {
  const { items, ...rest } = await readListingPages(db, db.comments, key, pages);
  return { comments: items, ...rest };
}

function flattenTree(node: CommentNode, out: Comment[] = []): Comment[] {
  const { pinned: _pinned, children, hasMore: _hasMore, ...comment } = node;
  out.push(comment);
  for (const child of children) flattenTree(child, out);
  return out;
}

/** GET /comment/{id}/tree; its comments are stored too, so likes and deletes update them. */
export async function fetchCommentTree(id: string, options: { signal?: AbortSignal; db?: KruhDb } = {}): Promise<CommentNode> {
  const db = options.db ?? getDb();
  const { pinnedTree } = await apiFetch<{ pinnedTree: CommentNode }>(`/comment/${encodeURIComponent(id)}/tree`, {
    signal: options.signal,
  });
  const now = Date.now();
  await db.comments.bulkPut(flattenTree(pinnedTree).map((c) => ({ ...c, cachedAt: now })));
  return pinnedTree;
}

/** DELETE /comment/{id}; on success the stored copy and its place in stored pages go too. */
export async function deleteComment(id: string, db: KruhDb = getDb()): Promise<void> {
  await apiFetch(`/comment/${encodeURIComponent(id)}`, { method: 'DELETE' });
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
