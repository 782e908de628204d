import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useLiveQuery } from 'dexie-react-hooks';
import { useCallback, useEffect, useRef, useState } from 'react';
import { NetworkError } from '../../lib/api/client';
import { useDb } from '../../lib/db/useDb';
import { toast } from '../../lib/toast';
import { type Notification, fetchNotificationPage, readStoredNotifications } from './notifications.api';

export interface NotificationsState {
  /** What the local database holds, newest first: painted before (and without) the network. */
  items: Notification[];
  /** Nothing stored and the first page not answered yet. */
  isLoading: boolean;
  isFetching: boolean;
  hasMore: boolean;
  loadMore: () => void;
  /** Asks the server again for every page shown (after a join request was decided). */
  reload: () => Promise<void>;
}

/**
 * The notification list page by page: the server's pages are written into the database
 * and the screen reads the database, so the list paints offline from the last visit.
 */
export function useNotifications(): NotificationsState {
  const db = useDb();
  const queryClient = useQueryClient();
  const [paging, setPaging] = useState({ db: db.name, pages: 1 });
  const pages = paging.db === db.name ? paging.pages : 1;

  const queries = useQueries({
    queries: Array.from({ length: pages }, (_, i) => ({
      queryKey: ['notifications', db.name, i + 1],
      queryFn: ({ signal }: { signal: AbortSignal }) => fetchNotificationPage(db, i + 1, signal),
      staleTime: 0,
    })),
  });
  const stored = useLiveQuery(() => readStoredNotifications(db), [db]);

  const last = queries[queries.length - 1];
  const error = queries.find((q) => q.error)?.error ?? null;
  const items = stored ?? [];

  // A failed page says so once; offline with a stored list says nothing.
  const reported = useRef<unknown>(null);
  useEffect(() => {
    if (!error || reported.current === error) return;
    reported.current = error;
    if (error instanceof NetworkError && items.length > 0) return;
    toast.error('error/while_loading');
  }, [error, items.length]);

  const reload = useCallback(
    () => queryClient.invalidateQueries({ queryKey: ['notifications', db.name] }),
    [queryClient, db.name],
  );

  return {
    items,
    isLoading: stored === undefined || (items.length === 0 && !!queries[0]?.isPending && queries[0]?.fetchStatus !== 'idle'),
    isFetching: queries.some((q) => q.isFetching),
    hasMore: !!last?.data?.hasMore && !last.error && !last.isFetching,
    loadMore: () => setPaging({ db: db.name, pages: pages + 1 }),
    reload,
  };
}
