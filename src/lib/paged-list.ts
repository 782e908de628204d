import { useInfiniteQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { apiFetch } from './api/client';

export interface PagedListOptions<T> {
  /** Query key: also what resets the list to page 1 when it changes. */
  key: readonly unknown[];
  path: string;
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

/** A server list fetched page by page (page, limit), flattened with each item once. */
export function usePagedList<T, R extends PageReply = PageReply>(options: PagedListOptions<T>) {
  const { key, path, field, idOf, limit, query, enabled = true } = options;
  const result = useInfiniteQuery({
    queryKey: key,
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) => apiFetch<R>(path, { query: { ...query, page: pageParam, limit }, signal }),
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
    enabled,
  });
  const items = useMemo(() => {
    const seen = new Set<string>();
    const out: T[] = [];
    for (const page of result.data?.pages ?? []) {
      for (const item of ((page as unknown as Record<string, unknown>)[field] as T[] | undefined) ?? []) {
        const id = idOf(item);
        if (!seen.has(id)) {
          seen.add(id);
          out.push(item);
        }
      }
    }
    return out;
    // idOf is a stable accessor by contract.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [result.data, field]);
  return {
    items,
    first: result.data?.pages[0] as R | undefined,
    hasMore: !!result.hasNextPage,
    loading: result.isPending && result.fetchStatus !== 'idle' ? true : result.isFetchingNextPage,
    error: result.error,
    loadMore: () => void result.fetchNextPage(),
    refetch: () => void result.refetch(),
  };
}
