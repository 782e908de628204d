import { QueryClient } from '@tanstack/react-query';
import { ApiError, NetworkError } from '../api/client';

/**
 * The app's QueryClient. Fetchers write into the local database and screens read from there, so
 * queries are only the "revalidate" half of stale-while-revalidate: `offlineFirst` lets them run
 * (and fail fast) while offline, and 4xx or network failures are not retried in a loop.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        networkMode: 'offlineFirst',
        // Short: a screen opened again a little later (from a notification, say) shows what others
        // did meanwhile, while a prefetch on hover still spares the request of the click after it.
        staleTime: 5_000,
        gcTime: 5 * 60_000,
        refetchOnWindowFocus: false,
        retry: (count, err) => !(err instanceof NetworkError) && !(err instanceof ApiError && err.status < 500) && count < 2,
      },
      mutations: { networkMode: 'offlineFirst', retry: false },
    },
  });
}

export const queryClient = createQueryClient();
