import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useMemo, useState } from 'react';
import type { Comment } from '../../lib/api/types';
import type { CachedComment } from '../../lib/db/db';
import { useDb } from '../../lib/db/useDb';
import { queryKeys } from '../../lib/query/keys';
import { usePaged } from '../../lib/query/paged';
import { useStoredValue } from '../../lib/query/stored';
import { usePendingRows } from '../../lib/outbox/useOutbox';
import { type PendingCommentRow } from '../../lib/outbox/kinds/comment';
import { type CommentNode, type ThreadParams, commentTreeKey, fetchCommentTree, threadSource } from './comments.api';

export interface ThreadState {
  /** Stored comments of the shown pages, in the server's order. */
  comments: CachedComment[];
  /** My comments sent from this device that the stored pages do not hold yet (shown first). */
  fresh: CachedComment[];
  hasMore: boolean;
  isLoading: boolean;
  isFetching: boolean;
  pages: number;
  /** Nothing of the level stored and its first page failed: not known to be empty. */
  unavailable: boolean;
  error: unknown;
  loadMore: () => void;
}

/**
 * One thread level page by page (5 a page, a load-more button), through the paging engine: stored
 * pages paint at once and are fetched again in the background. A failed load is only logged.
 */
export function useThread(
  params: ThreadParams,
  options: { postId: string; enabled?: boolean; deferred?: boolean },
): ThreadState {
  const [shownAt] = useState(() => Date.now());
  const source = threadSource(params);
  const { postId } = options;
  const parentId = params.parentId;
  const pinned = params.pinned ?? null;
  const list = usePaged({
    source,
    queryKey: (dbName) => queryKeys.thread(dbName, source.key),
    enabled: options.enabled ?? true,
    // A deferred level (replies already shown from the pinned tree) loads on the first "load more".
    firstPages: options.deferred ? 0 : 1,
    read: async (db, thread) => {
      const listed = new Set(thread.items.map((c) => c._id));
      // Created after page 1 was read (or, with no page yet, after the list was shown), so no
      // stored page holds them yet.
      const since = thread.stored === 0 ? shownAt : thread.fetchedAt;
      const fresh = await db.comments
        .where('postId')
        .equals(postId)
        .filter((c) => c.parent._id === parentId && c.itsme && !c.deleted && !listed.has(c._id) && c._id !== pinned && c.createdAt > since)
        .toArray();
      fresh.sort((a, b) => b.createdAt - a.createdAt);
      return { ...thread, fresh };
    },
    readDeps: [postId, parentId, pinned, shownAt],
  });
  useEffect(() => {
    if (list.error) console.warn('comments', list.error);
  }, [list.error]);

  return {
    comments: list.items,
    fresh: list.stored?.fresh ?? [],
    hasMore: list.hasMore,
    isLoading: list.isLoading,
    isFetching: list.isFetching,
    pages: list.pages,
    unavailable: list.unavailable,
    error: list.error,
    loadMore: list.loadMore,
  };
}

/** Comments of a post still waiting in the outbox (not created on the server yet), newest first. */
export function usePendingComments(postId: string): PendingCommentRow[] {
  return usePendingRows('comment', { keep: (r) => r.payload.postId === postId, deps: [postId], newestFirst: true });
}

/**
 * The pinned comment's tree (GET /comment/{id}/tree): the stored copy first (offline too), then
 * the server's; null when there is none to show.
 */
export function useCommentTree(commentId: string | null) {
  const db = useDb();
  const stored = useStoredValue<CommentNode>(commentId ? commentTreeKey(commentId) : null, queryKeys.commentTree(db.name, commentId), (db, signal) =>
    fetchCommentTree(commentId!, { signal, db }),
    true,
    // The thread waits for the tree: a failure lets it load at once rather than after retries.
    { retry: false },
  );
  useEffect(() => {
    if (stored.error) console.warn('comment tree', stored.error);
  }, [stored.error]);
  const tree = stored.value ?? null;
  const settled = !commentId || !!tree || (stored.ready && !!stored.error);
  return useMemo(() => ({ tree, /** The tree was found or refused (the list may load). */ settled }), [tree, settled]);
}

/** The stored copy of a comment (likes and deletes land there), over what the list holds. */
export function useLiveComment<T extends Comment>(comment: T): T {
  const db = useDb();
  const live = useLiveQuery(() => db.comments.get(comment._id), [db, comment._id]);
  return live ? ({ ...comment, ...live } as T) : comment;
}
