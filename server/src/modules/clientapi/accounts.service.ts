import type { Account, Relationship } from '#core/api/client-entities';
import { notFound } from '../../lib/app-error.js';
import type { ServiceContext } from '../../lib/service-context.js';
import type { Viewer } from '../../lib/viewer.js';
import { isBlockedBetween } from '../../policy/blocks.js';
import { groupAccount, personAccount } from './account.mapper.js';
import { accountRefOf, groupAccountId } from './client-ids.js';
import { type PageBounds, boundsOf, type ClientPageQuery, cursorOf, keyOfCursor } from './client-paging.js';
import * as repo from './clientapi.repository.js';

/** The instance's address, which every link of an entity starts with. */
export const originOf = (ctx: ServiceContext) => ctx.app.config.publicUrl.replace(/\/$/u, '');

/**
 * Accounts by their client ids (people's and groups'), as the viewer sees them, in one query per
 * kind whatever the count; an id naming nothing readable is left out.
 */
export async function accountsByIds(ctx: ServiceContext, viewer: Viewer | null, ids: readonly string[]): Promise<Map<string, Account>> {
  const people: string[] = [];
  const groups: string[] = [];
  for (const id of new Set(ids)) {
    const ref = accountRefOf(id);
    if (ref?.kind === 'person') people.push(ref.id);
    else if (ref?.kind === 'group') groups.push(ref.id);
  }
  const viewerId = viewer?.id ?? null;
  const origin = originOf(ctx);
  const [personRows, groupRows] = await Promise.all([repo.personRows(ctx.db, people), repo.groupAccountRows(ctx.db, groups, viewerId)]);
  const accounts = new Map<string, Account>();
  for (const row of personRows) accounts.set(row.id, personAccount(origin, row));
  for (const row of groupRows) accounts.set(groupAccountId(row.id), groupAccount(origin, row));
  return accounts;
}

/** Accounts in the order of `ids`, those not found left out. */
export async function accountsInOrder(ctx: ServiceContext, viewer: Viewer | null, ids: readonly string[]): Promise<Account[]> {
  const found = await accountsByIds(ctx, viewer, ids);
  return ids.flatMap((id) => found.get(id) ?? []);
}

/** GET /api/v1/accounts/:id: a person or a group; anything else is user_not_found. */
export async function getAccount(ctx: ServiceContext, viewer: Viewer | null, id: string): Promise<Account> {
  const account = (await accountsByIds(ctx, viewer, [id])).get(id);
  if (!account) throw notFound('user_not_found');
  return account;
}

/**
 * GET /api/v1/accounts/lookup: `name` or `@name`, `name@thishost` as the same, `name@host` for
 * someone of another server known here; a person first, else a group of that name.
 */
export async function lookupAccount(ctx: ServiceContext, viewer: Viewer | null, acct: string): Promise<Account> {
  const host = new URL(originOf(ctx)).host.toLowerCase();
  let name = acct.trim().replace(/^@/u, '');
  if (name.toLowerCase().endsWith(`@${host}`)) name = name.slice(0, -(host.length + 1));
  const personId = await repo.personIdByName(ctx.db, name);
  if (personId) return getAccount(ctx, viewer, personId);
  const groupId = name.includes('@') ? undefined : await repo.groupIdByName(ctx.db, name);
  if (groupId) return getAccount(ctx, viewer, groupAccountId(groupId));
  throw notFound('user_not_found');
}

/** A page of accounts and the cursors of its ends, for the Link header. */
export interface AccountListPage {
  accounts: Account[];
  first?: string | undefined;
  last?: string | undefined;
  full: boolean;
}

/** Accounts of a keyed list (follows, members, likes), in the list's order. */
export async function accountListPage(
  ctx: ServiceContext,
  viewer: Viewer | null,
  query: ClientPageQuery,
  read: (bounds: PageBounds) => Promise<repo.ListedAccount[]>,
): Promise<AccountListPage> {
  const bounds = await boundsOf(query, keyOfCursor);
  const listed = await read(bounds);
  const accounts = await accountsInOrder(ctx, viewer, listed.map((item) => item.id));
  const first = listed[0];
  const last = listed.at(-1);
  return { accounts, first: first && cursorOf(first), last: last && cursorOf(last), full: listed.length >= bounds.limit };
}

/**
 * GET /api/v1/accounts/:id/followers and /following. A group's followers are its members, read only
 * by those who may see them (a private group's by its members); a group follows no one, and a
 * person's groups are never listed as follows.
 */
export async function followList(
  ctx: ServiceContext,
  viewer: Viewer | null,
  input: { id: string; direction: 'followers' | 'following'; query: ClientPageQuery },
): Promise<AccountListPage> {
  // Answers user_not_found for an account the viewer may not read, before any list.
  await getAccount(ctx, viewer, input.id);
  const ref = accountRefOf(input.id)!;
  const viewerId = viewer?.id ?? null;
  if (ref.kind === 'group') {
    const [row] = await repo.groupAccountRows(ctx.db, [ref.id], viewerId);
    if (input.direction === 'following' || !row?.open) return { accounts: [], full: false };
    return accountListPage(ctx, viewer, input.query, (bounds) => repo.memberPage(ctx.db, ref.id, viewerId, bounds));
  }
  // Between two people a block stands between, the lists read empty, as on the profile.
  if (viewerId && (await isBlockedBetween(ctx.db, viewerId, ref.id))) return { accounts: [], full: false };
  return accountListPage(ctx, viewer, input.query, (bounds) => repo.followPage(ctx.db, ref.id, input.direction, viewerId, bounds));
}

/** GET /api/v1/accounts/relationships: the viewer's standing towards each account asked about that exists. */
export async function relationships(ctx: ServiceContext, viewer: Viewer, ids: readonly string[]): Promise<Relationship[]> {
  const refs = ids.map((id) => ({ id, ref: accountRefOf(id) }));
  const people = refs.flatMap(({ ref }) => (ref?.kind === 'person' ? [ref.id] : []));
  const groups = refs.flatMap(({ ref }) => (ref?.kind === 'group' ? [ref.id] : []));
  const [edges, groupEdges] = await Promise.all([repo.edgesOf(ctx.db, viewer.id, people), repo.groupEdgesOf(ctx.db, viewer.id, groups)]);
  return refs.flatMap(({ id, ref }) => {
    if (!ref) return [];
    const none: Relationship = {
      id, following: false, showing_reblogs: false, notifying: false, languages: null, followed_by: false, blocking: false, blocked_by: false,
      muting: false, muting_notifications: false, requested: false, requested_by: false, domain_blocking: false, endorsed: false, note: '',
    };
    if (ref.kind === 'group') return [{ ...none, following: groupEdges.member.has(ref.id), showing_reblogs: groupEdges.member.has(ref.id), requested: groupEdges.requested.has(ref.id) }];
    const notify = edges.following.get(ref.id);
    return [{
      ...none,
      following: notify !== undefined,
      showing_reblogs: notify !== undefined,
      notifying: notify ?? false,
      followed_by: edges.followedBy.has(ref.id),
      blocking: edges.blocking.has(ref.id),
      blocked_by: edges.blockedBy.has(ref.id),
      muting: edges.muting.has(ref.id),
      muting_notifications: edges.muting.has(ref.id),
    }];
  });
}
