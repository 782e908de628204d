import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useDb } from '../../lib/db/useDb';
import { publicConfigQuery } from '../../lib/public-config';
import { queryKeys } from '../../lib/query/keys';
import { type GifLocale, featuredGifs, fetchGifCategories, searchGifs } from './gifs.api';

const ENABLED_KEY = 'kruh.gifsEnabled';

/**
 * Whether the deployment has a Tenor key (GET /config); the picker is hidden otherwise. The last
 * answer is remembered, so an app started offline still offers the picker (which then says so).
 */
export function useGifsEnabled(): boolean {
  const db = useDb();
  // Shared with the sign-in screen's read of the same settings.
  const config = useQuery(publicConfigQuery(db.name));
  const enabled = config.data?.tenorEnabled;
  useEffect(() => {
    if (enabled !== undefined) localStorage.setItem(ENABLED_KEY, String(enabled));
  }, [enabled]);
  return enabled ?? localStorage.getItem(ENABLED_KEY) === 'true';
}

export { useOnline } from '../../lib/online';

export function useGifCategories(locale: GifLocale, enabled: boolean) {
  const db = useDb();
  return useQuery({
    queryKey: queryKeys.gifCategories(db.name, locale),
    queryFn: ({ signal }) => fetchGifCategories(locale, signal),
    staleTime: 60 * 60 * 1000,
    enabled,
  });
}

/** Search results for a term, or the trending GIFs when the term is null; page by page. */
export function useGifResults(term: string | null, locale: GifLocale, enabled: boolean) {
  const db = useDb();
  return useInfiniteQuery({
    queryKey: queryKeys.gifResults(db.name, term, locale),
    queryFn: ({ pageParam, signal }) =>
      term === null ? featuredGifs(pageParam || undefined, locale, signal) : searchGifs(term, pageParam || undefined, locale, signal),
    initialPageParam: '',
    getNextPageParam: (last) => last.next || undefined,
    staleTime: 5 * 60 * 1000,
    enabled,
  });
}
