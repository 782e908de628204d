import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { LIMITS, PAGE_SIZES } from '#core/limits';
import type { Sort, TimeWindow } from '#core/listing';
import { apiFetch } from '../../lib/api/client';
import type { Comment } from '../../lib/api/types';

/** The tabs of the search page (000 §2); posts are listed through the shared feed listing. */
export const SEARCH_VIEWS = ['all', 'users', 'groups', 'posts', 'replies'] as const;
export type SearchView = (typeof SEARCH_VIEWS)[number];
export const isSearchView = (value: unknown): value is SearchView =>
  typeof value === 'string' && (SEARCH_VIEWS as readonly string[]).includes(value);

export interface UserResult {
  _id: string;
  pfp: string;
  username: string;
}
export interface GroupResult {
  _id?: string;
  gp: string;
  name: string;
}

interface UserPage {
  userList: UserResult[];
  hasMore: boolean;
}
interface GroupPage {
  groupList: GroupResult[];
  hasMore: boolean;
}
interface ReplyPage {
  comments: Comment[];
  hasMore: boolean;
}

export type ListKind = 'users' | 'groups' | 'replies';
export type ListItem<K extends ListKind> = K extends 'users' ? UserResult : K extends 'groups' ? GroupResult : Comment;

interface ListQuery {
  q: string;
  sort: Sort;
  time: TimeWindow;
}

/** GET /search/for/{users|groups|replies}: one page as items and hasMore. */
export async function fetchSearchPage<K extends ListKind>(
  kind: K,
  query: ListQuery & { page: number; limit: number },
  signal?: AbortSignal,
): Promise<{ items: ListItem<K>[]; hasMore: boolean }> {
  const common = { query: query.q, page: query.page, limit: query.limit };
  if (kind === 'users') {
    const page = await apiFetch<UserPage>('/search/for/users', { query: common, signal });
    return { items: page.userList as ListItem<K>[], hasMore: page.hasMore };
  }
  if (kind === 'groups') {
    const page = await apiFetch<GroupPage>('/search/for/groups', { query: common, signal });
    return { items: page.groupList as ListItem<K>[], hasMore: page.hasMore };
  }
  const page = await apiFetch<ReplyPage>('/search/for/replies', {
    query: { ...common, sort: query.sort, time: query.time },
    signal,
  });
  return { items: page.comments as ListItem<K>[], hasMore: page.hasMore };
}

/** Users and groups are told apart by their avatar key (pfp, gp), comments by id (000 §4). */
function itemKey(kind: ListKind, item: UserResult | GroupResult | Comment): string {
  if (kind === 'users') return (item as UserResult).pfp;
  if (kind === 'groups') return (item as GroupResult).gp;
  return (item as Comment)._id;
}

const pageSize = (kind: ListKind) => (kind === 'replies' ? PAGE_SIZES.comments : kind === 'users' ? PAGE_SIZES.users : PAGE_SIZES.groups);

/** One kind of result page by page; resets when the query, sort or time changes. */
export function useSearchList<K extends ListKind>(kind: K, query: ListQuery, enabled: boolean) {
  const sortKey = kind === 'replies' ? [query.sort, query.time] : [];
  const result = useInfiniteQuery({
    queryKey: ['search', kind, query.q, ...sortKey],
    queryFn: ({ pageParam, signal }) => fetchSearchPage(kind, { ...query, page: pageParam, limit: pageSize(kind) }, signal),
    initialPageParam: 1,
    getNextPageParam: (last, all) => (last.hasMore ? all.length + 1 : undefined),
    enabled: enabled && query.q !== '',
  });
  useEffect(() => {
    if (result.error) console.warn('search', kind, result.error);
  }, [result.error, kind]);
  const items = useMemo(() => {
    const seen = new Set<string>();
    const out: ListItem<K>[] = [];
    for (const page of result.data?.pages ?? []) {
      for (const item of page.items) {
        const key = itemKey(kind, item);
        if (!seen.has(key)) {
          seen.add(key);
          out.push(item);
        }
      }
    }
    return out;
  }, [result.data, kind]);
  return {
    items,
    hasMore: !!result.hasNextPage,
    loading: result.isLoading || result.isFetchingNextPage,
    loadMore: () => void result.fetchNextPage(),
  };
}

/** The first few users or groups for the all view (000 §9: 3 of each). */
export function useSearchPreview<K extends 'users' | 'groups'>(kind: K, q: string, enabled: boolean) {
  const result = useQuery({
    queryKey: ['search-preview', kind, q],
    queryFn: ({ signal }) =>
      fetchSearchPage(kind, { q, sort: 'newest', time: 'all', page: 1, limit: LIMITS.searchPreview }, signal),
    enabled: enabled && q !== '',
  });
  useEffect(() => {
    if (result.error) console.warn('search preview', kind, result.error);
  }, [result.error, kind]);
  return { items: result.data?.items ?? [], hasMore: result.data?.hasMore ?? false, loading: result.isLoading && q !== '' };
}
