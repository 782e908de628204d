import { DOMAIN_BLOCKS_PAGE_SIZE, DOMAIN_MAX, type DomainBlocksReply } from '#core/api/moderation';
import type { PageQuery } from '#core/api/common';
import type { Executor } from '../../db/schema.js';
import { badRequest } from '../../lib/app-error.js';
import { pageWindow, toPage } from '../../lib/paging.js';
import type { ServiceContext } from '../../lib/service-context.js';
import type { Viewer } from '../../plugins/auth.js';
import { isBlockedBetween } from '../../policy/blocks.js';
import { remoteFollowsEnded } from '../follows/follows.service.js';
import { requireModerator } from '../../policy/moderators.js';
import { logModeratorAction } from '../reports/moderation.service.js';
import * as repo from './boundaries.repository.js';
import { suspendUnsuspended, unsuspendAll } from '../auth/auth.service.js';
import { domainsCovering, hostOf, isHostBlocked, isUrlBlocked } from '../../policy/blocked-domains.js';
import { normalizeHost } from '../../lib/hosts.js';

export { domainsCovering, hostOf, isHostBlocked, isUrlBlocked };
import { removeRemoteFollowsByAccount } from './federation.repository.js';
import { accountOfRemoteActor, remoteActorStanding } from '../remote/remote-accounts.js';

/**
 * Where federation stops: domains the instance moderators blocked (with every subdomain) and remote
 * accounts they suspended. A blocked domain gets nothing (deliveries to it are dropped when they
 * are due) and is heard from no more (the inboxes refuse it before any handler runs); blocking it
 * ends its follows here and suspends its accounts, so the existing suspension hides what they
 * wrote. Inbox handlers call isRemoteActorAllowed on the actor an activity names, whatever reached
 * them, so the rule holds in one place.
 */

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * A domain as blocks store it: the host's one spelling (normalizeHost), at least two labels
 * (blocking a whole top-level domain is too wide to be meant); null for anything else (a URL, a
 * port, a path, a wildcard).
 */
export function normalizeDomain(raw: string): string | null {
  const trimmed = raw.trim();
  if (!trimmed || trimmed.length > DOMAIN_MAX || /[/:@?#*\s]/.test(trimmed)) return null;
  const host = normalizeHost(trimmed);
  if (!host) return null;
  // An ASCII name must come out as it went in, case and final dot aside: the host parser reads
  // `42` or `0x7f.1` as an IPv4 address and rewrites it, which is not what the moderator typed.
  // eslint-disable-next-line no-control-regex -- the ASCII range itself
  if (/^[\x00-\x7f]*$/.test(trimmed) && host !== trimmed.toLowerCase().replace(/\.+$/, '')) return null;
  const labels = host.split('.');
  return labels.length >= 2 && host.length <= DOMAIN_MAX && labels.every((label) => LABEL.test(label)) ? host : null;
}

/**
 * Whether the instance takes activities from this remote actor: its domain is not blocked and its
 * account, if it has one, is not suspended. Every inbox handler asks before acting.
 */
export async function isRemoteActorAllowed(db: Executor, actorId: string): Promise<boolean> {
  if (await isUrlBlocked(db, actorId)) return false;
  return !(await remoteActorStanding(db, actorId))?.suspended;
}

/** Whether a local user blocked the remote actor's account (or it them): such an actor may not follow them. */
export async function isBlockedByLocal(db: Executor, actorId: string, localUserId: string): Promise<boolean> {
  const account = await accountOfRemoteActor(db, actorId);
  return account !== null && (await isBlockedBetween(db, localUserId, account));
}

/** A local user's block of a remote account ends its actor's follow of them, as it ends a local follow. */
export function endRemoteFollowOnBlock(db: Executor, accountId: string, localUserId: string): Promise<void> {
  return removeRemoteFollowsByAccount(db, accountId, localUserId);
}

function domainOrRefuse(ctx: ServiceContext, raw: string): string {
  const domain = normalizeDomain(raw);
  // The instance's own host is local accounts, which suspension covers; blocking it would mean nothing.
  if (!domain || domainsCovering(new URL(ctx.app.config.publicUrl).hostname).includes(domain)) throw badRequest('invalid_domain');
  return domain;
}

/** GET /moderation/domain-blocks (instance moderators). */
export async function listDomainBlocks(ctx: ServiceContext, viewer: Viewer, query: PageQuery): Promise<DomainBlocksReply> {
  requireModerator(viewer);
  const window = pageWindow(query, DOMAIN_BLOCKS_PAGE_SIZE);
  const { items, hasMore } = toPage(await repo.blocksPage(ctx.db, window), window);
  return { domains: items, hasMore };
}

/**
 * POST /moderation/domain-blocks (instance moderators), on the route's transaction: the block, the
 * end of the domain's follows and the suspension of its accounts, logged as one action.
 */
export async function blockDomain(ctx: ServiceContext, viewer: Viewer, raw: string): Promise<void> {
  requireModerator(viewer);
  const domain = domainOrRefuse(ctx, raw);
  const now = Date.now();
  if (!(await repo.addBlock(ctx.db, domain, viewer.id, now))) return;
  await repo.removeFollowsFrom(ctx.db, domain);
  // Their accounts' follows of local users, which the profiles list and count, end with them.
  const accounts = await repo.accountIdsOn(ctx.db, domain);
  await remoteFollowsEnded(ctx.db, accounts);
  await suspendUnsuspended(ctx.db, accounts, now);
  await logModeratorAction(ctx, viewer, 'block_domain', { kind: 'domain', id: domain });
}

/**
 * DELETE /moderation/domain-blocks/{domain} (instance moderators), on the route's transaction: the
 * accounts the block suspended are restored, unless another block (of a parent domain) still covers
 * them; a suspension a moderator made on its own stays. Ended follows stay ended: the remote
 * side follows again if it wants to.
 */
export async function unblockDomain(ctx: ServiceContext, viewer: Viewer, raw: string): Promise<void> {
  requireModerator(viewer);
  const domain = domainOrRefuse(ctx, raw);
  const blockedAt = await repo.removeBlock(ctx.db, domain);
  if (blockedAt === null) return;
  const suspended = await repo.accountsSuspendedAt(ctx.db, domain, blockedAt);
  const restored: string[] = [];
  for (const account of suspended) if (!(await isHostBlocked(ctx.db, account.domain))) restored.push(account.id);
  await unsuspendAll(ctx.db, restored);
  await logModeratorAction(ctx, viewer, 'unblock_domain', { kind: 'domain', id: domain });
}
