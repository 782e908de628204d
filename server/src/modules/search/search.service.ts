import { LIMITS, PAGE_SIZES } from '#core/limits';
import { type PageQuery, pageWindow, toPage } from '../../lib/paging.js';
import type { ServiceContext } from '../../lib/service-context.js';
import type { Viewer } from '../../plugins/auth.js';
import { toGroupListReply, toUserListReply } from '../profiles/profiles.mapper.js';
import type { GroupListReply, UserListReply } from '#core/api/common';
import * as repo from './search.repository.js';
import { lookUpHandle, parseHandle } from '../remote/remote-lookup.js';
import { followedCommunitiesMatching } from '../remote/remote-communities.js';
import type { NameResult } from '#core/api/search';

/** Suggestions under the search box and in mention slots: only for non-blank input. */
export async function suggestUsers(ctx: ServiceContext, viewer: Viewer | null, query: string | undefined): Promise<NameResult[]> {
  if (!query?.trim()) return [];
  const rows = await repo.findUsers(ctx.db, query, { limit: LIMITS.suggestionsMax, viewerId: viewer?.id ?? null });
  return rows.map((r) => ({ _id: r.id, name: r.username }));
}

/**
 * Group slots of the composer: only the viewer's groups they may post in, then, in the room left,
 * the communities of other servers they follow (named `name@host`), which a post may go into too.
 */
export async function suggestPostableGroups(ctx: ServiceContext, viewer: Viewer, query: string | undefined): Promise<NameResult[]> {
  if (!query?.trim()) return [];
  const rows = await repo.postableGroups(ctx.db, viewer.id, query, LIMITS.suggestionsMax);
  const communities = await followedCommunitiesMatching(ctx.db, viewer.id, query, LIMITS.suggestionsMax - rows.length);
  return [...rows.map((r) => ({ _id: r.id, name: r.name })), ...communities.map((c) => ({ _id: c.id, name: c.username }))];
}

/**
 * A fediverse handle (`@bob@other.example`) on the first page is looked up on its server when the
 * account is not known here yet (remote/remote-lookup.ts); the list then searches by the name the
 * account has here, so it comes first like any name typed in full.
 */
export async function searchUsers(ctx: ServiceContext, viewer: Viewer | null, query: PageQuery): Promise<UserListReply> {
  if (query.query) query = { ...query, query: await nameSearchedFor(ctx, (query.page ?? 1) <= 1 ? (viewer?.id ?? null) : null, query.query) };
  const window = pageWindow(query, PAGE_SIZES.users);
  const page = toPage(await repo.usersPage(ctx.db, query, window, viewer?.id ?? null), window);
  return toUserListReply(ctx.db, page, viewer?.id ?? null);
}

/**
 * The name a query searches for: a handle's name here (looked up on its server first when
 * `searcherId` may have it looked up), else the query as typed.
 */
async function nameSearchedFor(ctx: ServiceContext, searcherId: string | null, query: string): Promise<string> {
  const handle = parseHandle(query);
  if (!handle) return query;
  return (await lookUpHandle(ctx.app, searcherId, handle)) ?? `${handle.name}@${handle.host}`;
}

/**
 * The ids of the people matching `query`, in the search list's order, `offset` in: what the client
 * API lists as accounts. A handle is looked up on its server only when `resolve` is asked by a
 * signed-in person, on the first page.
 */
export async function matchingUserIds(
  ctx: ServiceContext,
  viewer: Viewer | null,
  input: { query: string; offset: number; limit: number; resolve: boolean },
): Promise<string[]> {
  const searcher = input.resolve && input.offset === 0 ? (viewer?.id ?? null) : null;
  const name = await nameSearchedFor(ctx, searcher, input.query);
  const rows = await repo.findUsers(ctx.db, name, { limit: input.limit, offset: input.offset, viewerId: viewer?.id ?? null });
  return rows.map((row) => row.id);
}

/** The ids of the groups whose names match (names are public; a private group's content is not). */
export async function matchingGroupIds(ctx: ServiceContext, input: { query: string; offset: number; limit: number }): Promise<string[]> {
  const rows = await repo.findGroups(ctx.db, input.query, { limit: input.limit, offset: input.offset });
  return rows.map((row) => row.id);
}

/** Group names are public: private groups are found by name (their content stays hidden). */
export async function searchGroups(ctx: ServiceContext, viewer: Viewer | null, query: PageQuery): Promise<GroupListReply> {
  const window = pageWindow(query, PAGE_SIZES.groups);
  const page = toPage(await repo.groupsPage(ctx.db, query, window), window);
  return toGroupListReply(page, viewer?.id ?? null);
}
