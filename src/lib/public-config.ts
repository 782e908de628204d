import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { configApi } from '#core/api/config';
import { callApi } from './api/client';
import { setMediaBase } from './media-url';
import { queryKeys } from './query/keys';

/**
 * GET /config as one query: the sign-in screen (Google's client id) and the GIF picker (whether
 * Tenor is on) read the same answer, fetched once per account database and kept for the session;
 * its content host of media goes to media-url (loadPublicConfig reads it at start).
 */
export const publicConfigQuery = (dbName: string) =>
  queryOptions({
    queryKey: queryKeys.publicConfig(dbName),
    queryFn: async () => {
      const config = await callApi(configApi.get);
      setMediaBase(config.mediaUrl);
      return config;
    },
    staleTime: Infinity,
    retry: false,
  });

/** At start: the public settings, so media is read from the content host from the first picture on. */
export function loadPublicConfig(client: QueryClient, dbName: string): void {
  client.fetchQuery(publicConfigQuery(dbName)).catch(() => {
    // Offline or refused: media-url keeps the content host last told, GoogleButton and the GIF picker ask again.
  });
}
