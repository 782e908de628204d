import { useMemo } from 'react';
import type { Endpoint, ReplyOf } from '#core/api/endpoint';
import { type ListKey, queryKeys, storedListKey } from './keys';
import { type ItemOf, type ItemsField, type Paging, listItemStore, usePaged } from './paged';

/** A list's pages are asked for `limit` items at a time, or by the server's cursor (see PageCursor). */
export type PagedListOptions<E extends Endpoint, F extends ItemsField<E>> = Paging<E> & {
  /** Which list (from listKeys): names its stored pages and, with the account's database, its query key. */
  list: ListKey;
  /** The contract entry of the list, and its path parameters. */
  endpoint: E;
  params?: Record<string, string>;
  /** The reply's field holding the items (userList, groupList...); the items' type comes from it. */
  field: F;
  /** Items are de-duplicated by this (users by pfp, groups by gp). */
  idOf: (item: ItemOf<E, F>) => string;
  query?: Record<string, string | number | undefined>;
  enabled?: boolean;
  /** How long an answer counts as fresh (the app's default otherwise). */
  staleTime?: number;
};

/**
 * A list with no table of its own (followers, members, search results) page by page, through the
 * paging engine: its items are kept in listItems, so it paints from the database and reads offline.
 */
export function usePagedList<const E extends Endpoint, F extends ItemsField<E>>(options: PagedListOptions<E, F>) {
  const { list, endpoint, params, field, idOf, query, enabled = true, staleTime } = options;
  const key = storedListKey(list);
  // idOf is a stable accessor by contract: one store per list.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const store = useMemo(() => listItemStore(idOf), [key]);
  const paged = usePaged({
    source: {
      key,
      endpoint,
      ...(params ? { params } : {}),
      ...(query ? { query } : {}),
      ...(options.cursor ? { cursor: options.cursor } : { limit: options.limit }),
      field,
      store,
    },
    queryKey: (dbName) => queryKeys.list(dbName, list),
    enabled,
    ...(staleTime === undefined ? {} : { staleTime }),
  });
  return {
    items: paged.items,
    /** Page 1's answer apart from its items (a member list's `group`), as stored with the page. */
    first: paged.first as Omit<ReplyOf<E>, F | 'hasMore'> | undefined,
    hasMore: paged.hasMore,
    loading: paged.isLoading || paged.isLoadingMore,
    error: paged.error,
    unavailable: paged.unavailable,
    loadMore: paged.loadMore,
  };
}
