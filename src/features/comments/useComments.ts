import { useQueries, useQuery } from '@tanstack/react-query';
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useMemo, useState } from 'react';
import type { Comment } from '../../lib/api/types';
import type { CachedComment, OutboxRow } from '../../lib/db/db';
import { useDb } from '../../lib/db/useDb';
import { getSession } from '../../lib/session';
import { type ThreadParams, fetchCommentTree, fetchThreadPage, readThread, threadKey } from './comments.api';

export interface ThreadState {
  /** Stored comments of the shown pages, in the server's order. */
  comments: CachedComment[];
  /** My comments sent from this device that the stored pages do not hold yet (shown first). */
  fresh: CachedComment[];
  hasMore: boolean;
  isLoading: boolean;
  isFetching: boolean;
  pages: number;
  loadMore: () => void;
}

/**
 * One thread level page by page (5 a page, a load-more button): stored pages paint at once and
 * are fetched again in the background. A failed load is only logged.
 */
export function useThread(
  params: ThreadParams,
  options: { postId: string; enabled?: boolean; deferred?: boolean },
): ThreadState {
  const db = useDb();
  const enabled = options.enabled ?? true;
  // A deferred level (replies already shown from the pinned tree) loads on the first "load more".
  const first = options.deferred ? 0 : 1;
  const key = threadKey(params);
  const [paging, setPaging] = useState({ key, pages: first });
  const [shownAt] = useState(() => Date.now());
  const pages = paging.key === key ? paging.pages : first;

  const queries = useQueries({
    queries: Array.from({ length: pages }, (_, i) => ({
      queryKey: ['comments', db.name, key, i + 1],
      queryFn: ({ signal }: { signal: AbortSignal }) => fetchThreadPage({ ...params, page: i + 1 }, { signal, db }),
      enabled,
    })),
  });
  const error = queries.find((q) => q.error)?.error ?? null;
  useEffect(() => {
    if (error) console.warn('comments', error);
  }, [error]);

  const { postId } = options;
  const parentId = params.parentId;
  const pinned = params.pinned ?? null;
  const stored = useLiveQuery(async () => {
    const thread = await readThread(db, key, Math.max(1, pages));
    const listed = new Set(thread.comments.map((c) => c._id));
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
  }, [db, key, pages, postId, parentId, pinned, shownAt]);

  const loadMore = () => setPaging((p) => ({ key, pages: (p.key === key ? p.pages : first) + 1 }));

  const lastQuery = queries[queries.length - 1];
  const hasMore = pages === 0 ? true : (lastQuery?.data?.hasMore ?? stored?.hasMore ?? true) && !(lastQuery?.error && !stored?.stored);
  const isFetching = queries.some((q) => q.isFetching);
  return {
    comments: pages === 0 ? [] : (stored?.comments ?? []),
    fresh: stored?.fresh ?? [],
    hasMore: !!stored && stored.stored >= pages ? hasMore : false,
    isLoading: pages > 0 && (!stored || (stored.stored === 0 && isFetching)),
    isFetching,
    pages,
    loadMore,
  };
}

export type PendingCommentRow = Extract<OutboxRow, { kind: 'comment' }>;

/** Comments of a post still waiting in the outbox (not created on the server yet), newest first. */
export function usePendingComments(postId: string): PendingCommentRow[] {
  const db = useDb();
  return useLiveQuery(
    async () => {
      const rows = (await db.outbox.where('kind').equals('comment').sortBy('seq')) as PendingCommentRow[];
      return rows.filter((r) => r.payload.postId === postId && !r.createdId).reverse();
    },
    [db, postId],
    [],
  );
}

/** A pending comment shaped like a server comment, for the same item. */
export function pendingCommentView(row: PendingCommentRow): Comment {
  const session = getSession();
  return {
    _id: row.clientId,
    postId: row.payload.postId,
    text: row.payload.text,
    parent: { _id: row.payload.parent, author: { username: '' }, directParent: row.payload.parent === row.payload.postId },
    author: { username: session.username ?? '', pfp: session.id },
    createdAt: row.createdAt,
    liked: false,
    likes: 0,
    comments: 0,
    mentions: row.payload.mentions.map((m) => ({ _id: m.id, username: m.query })),
    itsme: true,
    media: [],
  };
}

/**
 * Comments the stored counts do not include yet: created after the counted item was read.
 * Used to raise a post's comment count, or a comment's reply count, as soon as one is added.
 */
export function useNewerComments(postId: string, since: number | undefined, parentId?: string): number {
  const db = useDb();
  return useLiveQuery(
    async () => {
      if (since === undefined) return 0;
      return db.comments
        .where('postId')
        .equals(postId)
        .filter((c) => !c.deleted && c.createdAt > since && (parentId === undefined || c.parent._id === parentId))
        .count();
    },
    [db, postId, since, parentId],
    0,
  );
}

/** The pinned comment's tree (GET /comment/{id}/tree); null when there is none to show. */
export function useCommentTree(commentId: string | null) {
  const db = useDb();
  const query = useQuery({
    queryKey: ['comment-tree', db.name, commentId],
    queryFn: ({ signal }) => fetchCommentTree(commentId!, { signal, db }),
    enabled: !!commentId,
    retry: false,
  });
  useEffect(() => {
    if (query.error) console.warn('comment tree', query.error);
  }, [query.error]);
  return useMemo(
    () => ({
      tree: query.data ?? null,
      /** The tree was answered or refused (the list may load). */
      settled: !commentId || query.isSuccess || query.isError,
    }),
    [commentId, query.data, query.isSuccess, query.isError],
  );
}

/** The stored copy of a comment (likes and deletes land there), over what the list holds. */
export function useLiveComment<T extends Comment>(comment: T): T {
  const db = useDb();
  const live = useLiveQuery(() => db.comments.get(comment._id), [db, comment._id]);
  return live ? ({ ...comment, ...live } as T) : comment;
}
