import { useQuery } from '@tanstack/react-query';
import { gifsApi } from '#core/api/gifs';
import { useDb } from '../../lib/db/useDb';
import { usePagedList } from '../../lib/query/paged-list';
import { useConfigSwitch } from '../../lib/public-config';
import { listKeys, queryKeys } from '../../lib/query/keys';
import type { PageCursor } from '../../lib/query/paged';
import { type GifLocale, fetchGifCategories } from './gifs.api';

/**
 * Whether the deployment has a Tenor key (GET /config); the picker is hidden otherwise. The last
 * answer is remembered, so an app started offline still offers the picker (which then says so).
 */
export const useGifsEnabled = (): boolean => useConfigSwitch('kruh.gifsEnabled', (config) => config.tenorEnabled);

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
