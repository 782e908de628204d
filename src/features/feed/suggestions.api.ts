import { useQuery, useQueryClient } from '@tanstack/react-query';
import { suggestionsApi } from '#core/api/suggestions';
import { callApi } from '../../lib/api/client';
import { useDb } from '../../lib/db/useDb';
import { listKeys, queryKeys } from '../../lib/query/keys';

export type { SuggestedGroup, SuggestedUser } from '#core/api/suggestions';

/**
 * Suggestions are read from the server alone, never stored: they only make sense fresh, and an
 * offline device has nothing to follow or join with anyway.
 */
const SUGGESTIONS_STALE_MS = 5 * 60 * 1000;

export function useUserSuggestions() {
  const db = useDb();
  return useQuery({
    queryKey: queryKeys.suggestions(db.name, 'users'),
    queryFn: ({ signal }) => callApi(suggestionsApi.users, {}, { signal }).then((r) => r.users),
    staleTime: SUGGESTIONS_STALE_MS,
  });
}

export function useGroupSuggestions() {
  const db = useDb();
  return useQuery({
    queryKey: queryKeys.suggestions(db.name, 'groups'),
    queryFn: ({ signal }) => callApi(suggestionsApi.groups, {}, { signal }).then((r) => r.groups),
    staleTime: SUGGESTIONS_STALE_MS,
  });
}

/**
 * After a follow or join from the suggestions: the feeds load again, so the new posts show, and a
 * join also reloads the strip of the user's groups.
 */
export function useRefreshAfterSuggestion() {
  const db = useDb();
  const client = useQueryClient();
  return (username: string | null, joined: boolean) => {
    void client.invalidateQueries({ queryKey: queryKeys.feeds(db.name) });
    if (joined && username) void client.invalidateQueries({ queryKey: queryKeys.list(db.name, listKeys.groupStrip(username)) });
  };
}
