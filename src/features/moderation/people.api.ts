import { PEOPLE_PAGE_SIZE, type PersonState, peopleApi } from '#core/api/people';
import { callApi } from '../../lib/api/client';
import { usePagedList } from '../../lib/query/paged-list';
import { listKeys } from '../../lib/query/keys';

/**
 * The instance's accounts for its moderators, by search text and standing, page by page through
 * the paging engine (under the moderation lists, so every moderation action reads them again).
 */
export function usePeople(query: string, state: PersonState | null) {
  const text = query.trim();
  return usePagedList({
    list: listKeys.moderation('people', `${state ?? 'all'}:${text}`),
    endpoint: peopleApi.list,
    field: 'people',
    idOf: (person) => person._id,
    query: { query: text || undefined, state: state ?? undefined },
    limit: PEOPLE_PAGE_SIZE,
    staleTime: 0,
  });
}

/** Makes an account a moderator or takes the role back (instance moderators, online only). */
export const setModerator = (userId: string, moderator: boolean) =>
  callApi(moderator ? peopleApi.grantModerator : peopleApi.revokeModerator, { params: { userId } });
