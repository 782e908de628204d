import type { QueryClient } from '@tanstack/react-query';
import { DELETED } from '#core/limits';
import { type KruhDb, getDb } from '../db/db';
import { queryKeys } from './keys';
import { fetchPost } from './posts';
import { fetchGroup, fetchProfile } from './stored';

/**
 * Fetches into the local database what the page at `pathname` shows first (a post, a profile, a
 * group), under the query key that page reads, so following the link paints at once and does not
 * ask again while the answer is fresh. Other addresses fetch nothing; a failure is left for the
 * page to report (prefetchQuery never throws).
 */
export function prefetchPage(queryClient: QueryClient, db: KruhDb, pathname: string): void {
  const [, kind, raw] = pathname.split('/');
  if (!raw) return;
  const name = decodeURIComponent(raw);
  if (name === DELETED) return;
  if (kind === 'p') {
    void queryClient.prefetchQuery({ queryKey: queryKeys.post(db.name, name), queryFn: ({ signal }) => fetchPost(name, { signal, db }) });
  } else if (kind === 'u') {
    void queryClient.prefetchQuery({ queryKey: queryKeys.profile(db.name, name), queryFn: ({ signal }) => fetchProfile(db, name, signal) });
  } else if (kind === 'g') {
    void queryClient.prefetchQuery({ queryKey: queryKeys.group(db.name, name), queryFn: ({ signal }) => fetchGroup(db, name, signal) });
  }
}

/** prefetchPage into the database of whoever is logged in now. */
export function prefetchForAccount(queryClient: QueryClient, pathname: string): void {
  prefetchPage(queryClient, getDb(), pathname);
}
