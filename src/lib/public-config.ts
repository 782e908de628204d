import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { type PublicConfig, configApi } from '#core/api/config';
import { callApi } from './api/client';
import { useDb } from './db/useDb';
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

/**
 * A switch of the public settings, true or false, remembered in `storageKey` from the last answer,
 * so an app started offline still shows what the switch opens (which then says it is offline).
 */
export function useConfigSwitch(storageKey: string, pick: (config: PublicConfig) => boolean): boolean {
  const db = useDb();
  // One read of the settings, shared by every screen that asks.
  const config = useQuery(publicConfigQuery(db.name));
  const value = config.data ? pick(config.data) : undefined;
  useEffect(() => {
    if (value !== undefined) localStorage.setItem(storageKey, String(value));
  }, [storageKey, value]);
  return value ?? localStorage.getItem(storageKey) === 'true';
}

/** Whether the instance federates: the moderators' blocked domains are shown only then. */
export const useFederation = (): boolean => useConfigSwitch('kruh.federation', (config) => config.federation);
