import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { gifsApi } from '#core/api/gifs';
import { useDb } from '../../lib/db/useDb';
import { usePagedList } from '../../lib/query/paged-list';
import { publicConfigQuery } from '../../lib/public-config';
import { listKeys, queryKeys } from '../../lib/query/keys';
import type { PageCursor } from '../../lib/query/paged';
import { type GifLocale, fetchGifCategories } from './gifs.api';

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

/** Tenor pages by `pos`: each page's `next` asks for the following one ('' after the last). */
const gifCursor: PageCursor<typeof gifsApi.search | typeof gifsApi.featured> = { param: 'pos', next: (page) => page.next };

/** Search results for a term, or the trending GIFs when the term is null; page by page. */
export function useGifResults(term: string | null, locale: GifLocale, enabled: boolean) {
  return usePagedList({
    list: listKeys.gifResults(term, locale),
    endpoint: term === null ? gifsApi.featured : gifsApi.search,
    query: term === null ? { locale } : { q: term, locale },
    field: 'results',
    idOf: (gif) => gif.id,
    cursor: gifCursor,
    staleTime: 5 * 60 * 1000,
    enabled,
  });
}
