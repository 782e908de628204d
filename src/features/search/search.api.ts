import { useEffect } from 'react';
import { LIMITS, PAGE_SIZES } from '#core/limits';
import { type Sort, type TimeWindow, listingSearchParams } from '#core/listing';
import type { GroupListItem, UserListItem } from '#core/api/common';
import { searchApi } from '#core/api/search';
import type { Comment } from '../../lib/api/types';
import { usePagedList } from '../../lib/query/paged-list';
import { listKeys } from '../../lib/query/keys';
import type { ItemsField } from '../../lib/query/paged';

/** The tabs of the search page; posts are listed through the shared feed listing. */
export const SEARCH_VIEWS = ['all', 'users', 'groups', 'posts', 'replies'] as const;
export type SearchView = (typeof SEARCH_VIEWS)[number];
export const isSearchView = (value: unknown): value is SearchView =>
  typeof value === 'string' && (SEARCH_VIEWS as readonly string[]).includes(value);

export type ListKind = 'users' | 'groups' | 'replies';
export type SearchItem = UserListItem | GroupListItem | Comment;

/** GET /search/for/{kind}: where the items are in the reply, how they are told apart, page size. */
const LISTS: { [K in ListKind]: { field: ItemsField<(typeof searchApi)[K]>; idOf: (item: SearchItem) => string; limit: number } } = {
  // Users and groups are de-duplicated by their avatar key, comments by id.
  users: { field: 'userList', idOf: (item) => (item as UserListItem).pfp, limit: PAGE_SIZES.users },
  groups: { field: 'groupList', idOf: (item) => (item as GroupListItem).gp, limit: PAGE_SIZES.groups },
  replies: { field: 'comments', idOf: (item) => (item as Comment)._id, limit: PAGE_SIZES.comments },
};

export const searchItemKey = (kind: ListKind, item: SearchItem): string => LISTS[kind].idOf(item);

interface ListQuery {
  q: string;
  sort: Sort;
  time: TimeWindow;
}

/**
 * One kind of result page by page; a new query, sort or time starts again at page 1. `limit`
 * overrides the page size (the all view's previews show 3).
 */
export function useSearchList(kind: ListKind, query: ListQuery, options: { enabled: boolean; limit?: number }) {
  const { field, idOf, limit } = LISTS[kind];
  // Sort and time follow the listing rule: each only when it differs from the default, time only for popular.
  const listing = kind === 'replies' ? listingSearchParams(query.sort, query.time) : {};
  const size = options.limit ?? limit;
  const list = usePagedList({
    list: listKeys.search(kind, size, query.q, listing),
    endpoint: searchApi[kind],
    field,
    idOf,
    limit: size,
    query: { query: query.q, ...listing },
    enabled: options.enabled && query.q !== '',
  });
  // A failed search list is only logged; the page stays usable.
  useEffect(() => {
    if (list.error) console.warn('search', kind, list.error);
  }, [list.error, kind]);
  return list;
}

export const PREVIEW_SIZE = LIMITS.searchPreview;
