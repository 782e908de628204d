import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useLiveQuery } from 'dexie-react-hooks';
import { useCallback } from 'react';
import { groupsApi } from '#core/api/groups';
import {
  type GroupAdminAction,
  type ModerationLogItem,
  type ModeratorAction,
  REPORTS_PAGE_SIZE,
  type ReportItem,
  reportsApi,
} from '#core/api/reports';
import { callApi, type CallOptions } from './api/client';
import type { KruhDb } from './db/db';
import { useDb } from './db/useDb';
import { queryKeys } from './query/keys';

/**
 * The moderation queues and logs: the instance moderators' (every open report) and a group's
 * (reports of posts in it, for its owner and admins). Read as other screens read: the answer is
 * stored in the account's database and the screen shows the stored copy, so it opens offline.
 * Acting on a report needs the server at once (a decision on stale data must not wait in a queue),
 * so the actions are direct calls and the screens say so while offline.
 */
export type ModerationScope = { kind: 'all' } | { kind: 'group'; name: string };

const scopeKey = (scope: ModerationScope) => (scope.kind === 'all' ? 'all' : `group:${scope.name.toLowerCase()}`);
const metaKey = (what: 'reports' | 'log', scope: ModerationScope) => `moderation:${what}:${scopeKey(scope)}`;

interface Stored<T> {
  items: T[];
  hasMore: boolean;
}

/** Pages 1..`pages` of a list, read in turn, stored as one. */
async function fetchPages<T>(db: KruhDb, key: string, pages: number, page: (n: number, signal?: AbortSignal) => Promise<Stored<T>>, signal?: AbortSignal): Promise<Stored<T>> {
  const items: T[] = [];
  let hasMore = false;
  for (let n = 1; n <= pages; n++) {
    const answer = await page(n, signal);
    items.push(...answer.items);
    hasMore = answer.hasMore;
    if (!hasMore) break;
  }
  const value = { items, hasMore };
  await db.meta.put({ key, value });
  return value;
}

function fetchReports(scope: ModerationScope, page: number, signal?: AbortSignal): Promise<Stored<ReportItem>> {
  const query = { page, limit: REPORTS_PAGE_SIZE };
  const options: CallOptions = { signal };
  const answer = scope.kind === 'all'
    ? callApi(reportsApi.queue, { query }, options)
    : callApi(groupsApi.reportQueue, { params: { name: scope.name }, query }, options);
  return answer.then((a) => ({ items: a.reports, hasMore: a.hasMore }));
}

function fetchLog(scope: ModerationScope, page: number, signal?: AbortSignal): Promise<Stored<ModerationLogItem>> {
  const query = { page, limit: REPORTS_PAGE_SIZE };
  const options: CallOptions = { signal };
  const answer = scope.kind === 'all'
    ? callApi(reportsApi.log, { query }, options)
    : callApi(groupsApi.reportLog, { params: { name: scope.name }, query }, options);
  return answer.then((a) => ({ items: a.actions, hasMore: a.hasMore }));
}

type Fetcher<T> = (scope: ModerationScope, page: number, signal?: AbortSignal) => Promise<Stored<T>>;

function useStoredList<T>(what: 'reports' | 'log', scope: ModerationScope, pages: number, page: Fetcher<T>) {
  const db = useDb();
  const key = metaKey(what, scope);
  const stored = useLiveQuery(async () => ((await db.meta.get(key))?.value as Stored<T> | undefined) ?? null, [db, key]);
  const query = useQuery({
    queryKey: queryKeys.moderation(db.name, what, scopeKey(scope), pages),
    queryFn: ({ signal }) => fetchPages(db, key, pages, (n, s) => page(scope, n, s), signal),
    staleTime: 0,
    retry: false,
  });
  return { list: stored ?? null, ready: stored !== undefined && !query.isPending, error: query.error };
}

/** The open reports of the scope, `pages` pages of them. */
export const useReportQueue = (scope: ModerationScope, pages: number) => useStoredList<ReportItem>('reports', scope, pages, fetchReports);

/** The moderation log of the scope, newest first. */
export const useModerationLog = (scope: ModerationScope, pages: number) => useStoredList<ModerationLogItem>('log', scope, pages, fetchLog);

export type ReportAction = ModeratorAction | GroupAdminAction;

/** Acts on a report (online only); answers the server's message. */
export function actOnReport(scope: ModerationScope, reportId: string, action: ReportAction) {
  return scope.kind === 'all'
    ? callApi(reportsApi.act, { params: { reportId }, body: { action: action as ModeratorAction } })
    : callApi(groupsApi.actOnReport, { params: { name: scope.name, reportId }, body: { action: action as GroupAdminAction } });
}

/** Suspends an account or lifts its suspension (instance moderators, online only). */
export const setSuspended = (userId: string, suspended: boolean) =>
  callApi(suspended ? reportsApi.suspend : reportsApi.unsuspend, { params: { userId } });

/** After an action: the queue and the log of every scope are read again. */
export function useRefreshModeration() {
  const db = useDb();
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: queryKeys.moderationAll(db.name) }), [db, queryClient]);
}
