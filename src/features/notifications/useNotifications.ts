import { useFailureToast } from '../../lib/load-failure';
import { queryKeys } from '../../lib/query/keys';
import { usePaged } from '../../lib/query/paged';
import { type Notification, notificationSource, readStoredNotifications } from './notifications.api';

const whileLoading = () => 'error/while_loading';

export interface NotificationsState {
  /** What the local database holds, newest first: painted before (and without) the network. */
  items: Notification[];
  /** Nothing stored and the first page not answered yet. */
  isLoading: boolean;
  isFetching: boolean;
  hasMore: boolean;
  loadMore: () => void;
  /** Nothing stored and the first page failed: not known to be empty. */
  unavailable: boolean;
  error: unknown;
  /** Asks the server again for every page shown (after a join request was decided). */
  reload: () => Promise<void>;
}

/**
 * The notification list page by page, through the paging engine: the server's pages are written
 * into the database and the screen reads the database, so the list paints offline from the last
 * visit. It reads the whole table, not only the shown pages, newest first. With `fetching` false
 * only the stored list shows.
 */
export function useNotifications(fetching = true): NotificationsState {
  const list = usePaged({
    source: notificationSource,
    enabled: fetching,
    queryKey: queryKeys.notifications,
    staleTime: 0,
    read: async (db, stored) => ({ ...stored, items: await readStoredNotifications(db) }),
    moreFromServerOnly: true,
  });
  const { error, items } = list;

  // A failed page says so once; offline and a refused session say nothing here (the page says what
  // it lacks, the shell that the session ended).
  useFailureToast(error, whileLoading);

  return {
    items,
    isLoading: list.isLoading,
    isFetching: list.isFetching,
    hasMore: list.hasMore,
    loadMore: list.loadMore,
    unavailable: list.unavailable,
    error,
    reload: list.reload,
  };
}
