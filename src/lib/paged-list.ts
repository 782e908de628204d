import { useMemo } from 'react';
import type { Endpoint } from '#core/api/endpoint';
import { type ListKey, queryKeys, storedListKey } from './query/keys';
import { listItemStore, usePaged } from './query/paged';

export interface PagedListOptions<T> {
  /** Which list (from listKeys): names its stored pages and, with the account's database, its query key. */
  list: ListKey;
  /** The contract entry of the list, and its path parameters. */
  endpoint: Endpoint;
  params?: Record<string, string>;
  /** The reply's field holding the items (userList, groupList...). */
  field: string;
  /** Items are de-duplicated by this (users by pfp, groups by gp). */
  idOf: (item: T) => string;
  limit: number;
  query?: Record<string, string | number | undefined>;
  enabled?: boolean;
}

interface PageReply {
  hasMore: boolean;
}

/**
 * A list with no table of its own (followers, members, search results) page by page, through the
 * paging engine: its items are kept in listItems, so it paints from the database and reads offline.
 */
export function usePagedList<T, R extends PageReply = PageReply>(options: PagedListOptions<T>) {
  const { list, endpoint, params, field, idOf, limit, query, enabled = true } = options;
  const key = storedListKey(list);
  // idOf is a stable accessor by contract: one store per list.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const store = useMemo(() => listItemStore(idOf), [key]);
  const paged = usePaged({
    source: { key, endpoint, ...(params ? { params } : {}), ...(query ? { query } : {}), limit, field, store },
    queryKey: (dbName) => queryKeys.list(dbName, list),
    enabled,
  });
  return {
    items: paged.items,
    /** Page 1's answer apart from its items (a member list's `group`). */
    first: paged.first as Omit<R, 'hasMore'> | undefined,
    hasMore: paged.hasMore,
    loading: paged.isLoading || paged.isLoadingMore,
    error: paged.error,
    unavailable: paged.unavailable,
    loadMore: paged.loadMore,
  };
}
