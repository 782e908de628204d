import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { Endpoint } from '#core/api/endpoint';
import { groupsApi } from '#core/api/groups';
import { DOMAIN_BLOCKS_PAGE_SIZE, moderationApi } from '#core/api/moderation';
import { type GroupAdminAction, type ModeratorAction, REPORTS_PAGE_SIZE, reportsApi } from '#core/api/reports';
import { callApi } from './api/client';
import { useDb } from './db/useDb';
import { usePagedList } from './query/paged-list';
import { listKeys, queryKeys } from './query/keys';
import type { ItemOf, ItemsField } from './query/paged';

/**
 * The moderation queues and logs: the instance moderators' (every open report) and a group's
 * (reports of posts in it, for its owner and admins). Read page by page through the paging engine as
 * other lists are: the pages are stored in the account's database and the screen shows the stored
 * copy, so it opens offline.
 * Acting on a report needs the server at once (a decision on stale data must not wait in a queue),
 * so the actions are direct calls and the screens say so while offline.
 */
export type ModerationScope = { kind: 'all' } | { kind: 'group'; name: string };

const scopeKey = (scope: ModerationScope) => (scope.kind === 'all' ? 'all' : `group:${scope.name.toLowerCase()}`);

const byId = (item: { _id: string }) => item._id;

/** A queue or log of the scope page by page, through the paging engine (its pages stored for offline). */
function useModerationList<const E extends Endpoint, F extends ItemsField<E>>(
  what: 'reports' | 'log',
  scope: ModerationScope,
  endpoint: E,
  field: F,
  idOf: (item: ItemOf<E, F>) => string,
) {
  const params = scope.kind === 'all' ? undefined : { name: scope.name };
  return usePagedList({ list: listKeys.moderation(what, scopeKey(scope)), endpoint, params, field, idOf, limit: REPORTS_PAGE_SIZE, staleTime: 0 });
}

/** The open reports of the scope, page by page. */
export const useReportQueue = (scope: ModerationScope) =>
  useModerationList('reports', scope, scope.kind === 'all' ? reportsApi.queue : groupsApi.reportQueue, 'reports', byId);

/** The moderation log of the scope, newest first, page by page. */
export const useModerationLog = (scope: ModerationScope) =>
  useModerationList('log', scope, scope.kind === 'all' ? reportsApi.log : groupsApi.reportLog, 'actions', byId);

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

/** The domains blocked from federating (instance moderators), latest first, page by page. */
export const useDomainBlocks = () =>
  usePagedList({
    list: listKeys.moderation('domains', 'all'),
    endpoint: moderationApi.domainBlocks,
    field: 'domains',
    idOf: (item) => item.domain,
    limit: DOMAIN_BLOCKS_PAGE_SIZE,
    staleTime: 0,
  });

/** Blocks a domain or lifts its block (instance moderators, online only). */
export const setDomainBlocked = (domain: string, blocked: boolean) =>
  blocked ? callApi(moderationApi.blockDomain, { body: { domain } }) : callApi(moderationApi.unblockDomain, { params: { domain } });

/**
 * After an action: the queue, the log and the blocked domains of every scope are read again. A read
 * still under way began before the action and answers the lists as they were, and a first read would
 * be joined rather than started again, so it is dropped first.
 */
export function useRefreshModeration() {
  const db = useDb();
  const queryClient = useQueryClient();
  return useCallback(async () => {
    const queryKey = queryKeys.moderationAll(db.name);
    await queryClient.cancelQueries({ queryKey });
    await queryClient.invalidateQueries({ queryKey });
  }, [db, queryClient]);
}
