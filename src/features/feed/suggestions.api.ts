import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useLiveQuery } from 'dexie-react-hooks';
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

/** The suggestions of one kind, as `read` fetches them. */
function useSuggestions<T>(kind: 'users' | 'groups', read: (signal: AbortSignal) => Promise<T[]>) {
  const db = useDb();
  return useQuery({ queryKey: queryKeys.suggestions(db.name, kind), queryFn: ({ signal }) => read(signal), staleTime: SUGGESTIONS_STALE_MS });
}

export const useUserSuggestions = () => useSuggestions('users', (signal) => callApi(suggestionsApi.users, {}, { signal }).then((r) => r.users));

export const useGroupSuggestions = () => useSuggestions('groups', (signal) => callApi(suggestionsApi.groups, {}, { signal }).then((r) => r.groups));

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

export type SuggestionKind = 'users' | 'groups';

const hiddenKey = (kind: SuggestionKind) => `suggestions-hidden:${kind}`;

/** Whether the account hid the suggestions of this kind on this device; undefined while reading. */
export function useSuggestionsHidden(kind: SuggestionKind): boolean | undefined {
  const db = useDb();
  return useLiveQuery(async () => (await db.meta.get(hiddenKey(kind)))?.value === true, [db, kind]);
}

/** Hides the suggestions of this kind for good on this device (the account's own database). */
export function useHideSuggestions(kind: SuggestionKind): () => void {
  const db = useDb();
  return () => void db.meta.put({ key: hiddenKey(kind), value: true });
}
