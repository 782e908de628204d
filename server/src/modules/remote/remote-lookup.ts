import { isActor, lookupObject } from '@fedify/fedify/vocab';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import { tryTakeSlot } from '../../lib/rate-limit.js';
import { enqueueJob } from '../../lib/jobs/queue.js';
import { knownContextLoader } from './document-loader.js';
import { hostWithPortOf } from '../../lib/hosts.js';
import { actorInfo, remoteAccountName, storeRemoteActor } from './remote-accounts.js';
import { accountNamed, usernameOf } from './remote.repository.js';
import { FEDERATION_AVATAR_JOB, guardedLoader, iconUrlOf, refreshIfStale } from './remote-refresh.js';
import { type Handle, webFinger } from './webfinger.js';

export type { Handle };

/**
 * Finding someone on another server by their handle, typed into the user search: the handle's
 * server is asked who it is (WebFinger), the actor it names is read, and the account standing for
 * it here is made or brought up to date, so it is found, shown and followed like anyone. Every
 * request goes through the outgoing-request guard, and each lookup is counted against the one who
 * searched (it costs the instance requests to a server it does not know). A server that cannot be
 * reached, refuses, or names no actor simply finds nobody.
 */

const HANDLE = /^@?([^\s@/?#:]+)@([^\s@/?#]+)$/;

/** `@name@host` or `name@host` as typed (spaces around it aside); null for anything else. */
export function parseHandle(query: string): Handle | null {
  const match = HANDLE.exec(query.trim());
  if (!match) return null;
  try {
    // The host as hosts are stored: lower case, no final dot, an international name in its ASCII form.
    return { name: match[1]!, host: hostWithPortOf(new URL(`https://${match[2]}`)) };
  } catch {
    return null;
  }
}

/**
 * Reads the handle's actor and stores it; the name of the account standing for it, or null. The
 * search waits on WebFinger and the actor only, both within one deadline
 * (FEDERATION_LOOKUP_TIMEOUT_MS); the picture and the posts are fetched by jobs once it has answered.
 */
async function resolveHandle(app: FastifyInstance, typed: Handle): Promise<string | null> {
  const deadline = AbortSignal.timeout(app.config.federationLookupTimeoutMs);
  const actorUrl = await webFinger(app, typed, deadline);
  if (!actorUrl) return null;
  // A blocked domain is never asked, however the handle or a redirect leads there.
  const loader = guardedLoader(app, deadline);
  const actor = await lookupObject(actorUrl, { documentLoader: loader, contextLoader: knownContextLoader });
  // Fedify may answer null for a document given up on: the deadline still finds nobody.
  deadline.throwIfAborted();
  if (!isActor(actor) || !actor.id) return null;
  // The actor keeps the rules of remote names, or nobody is found.
  const info = actorInfo(actor, actor.id);
  if (!info) return null;
  const icon = await iconUrlOf(actor, loader);
  // WebFinger has just named this actor for its name when it is the one typed.
  const named = actor.id.href === actorUrl && remoteAccountName(info.handle).toLowerCase() === `${typed.name}@${typed.host}`.toLowerCase();
  const userId = await storeRemoteActor(app, info, named);
  if (!userId) return null;
  if (icon) await enqueueJob(app.db, FEDERATION_AVATAR_JOB, { userId, url: icon });
  await enqueueJob(app.db, FEDERATION_BACKFILL_JOB, { actorId: actor.id.href });
  return usernameOf(app.db, userId);
}

/**
 * Reading a newly found actor's recent posts from its outbox (backfill.ts), so its profile shows
 * something: a job, so the search does not wait on it and a failure there never fails the lookup.
 */
export const FEDERATION_BACKFILL_JOB = 'federation_backfill';
export interface BackfillPayload {
  actorId: string;
}
declare module '../../lib/jobs/job-handler.js' {
  interface JobPayloads {
    [FEDERATION_BACKFILL_JOB]: BackfillPayload;
  }
}

/** The one who searched may have one more handle looked up (RATE_REMOTE_LOOKUPS_PER_HOUR). */
const lookupRule = (config: Config, userId: string) => ({ key: `remote-lookup:${userId}`, max: config.rates.remoteLookupsPerHour, windowMs: config.rates.windowMs });

/**
 * The name here of the account a search for a fediverse handle finds: a local account for this
 * instance's own handles; a remote account already known, without asking its server again; else
 * the one its server names, made here the first time (one read over a day ago is read again by a
 * job, see remote-refresh.ts). Null when federation is off, there is no
 * searcher (a visitor, or a later page of the list) or they are out of lookups, or the server names
 * no actor.
 */
export async function lookUpHandle(app: FastifyInstance, searcherId: string | null, handle: Handle): Promise<string | null> {
  // Never asked of ourselves: our own actor would come back as a remote copy of a local account.
  if (handle.host === new URL(app.config.publicUrl).host) return handle.name;
  const known = await accountNamed(app.db, `${handle.name}@${handle.host}`);
  if (known) {
    // Found by a search: read again once what is kept of it is old (a job; the search does not wait).
    if (known.actor_id && known.fetched_at != null) await refreshIfStale(app, { id: known.actor_id, fetchedAt: Number(known.fetched_at) });
    return known.username;
  }
  if (!app.config.federation || !searcherId) return null;
  if (!(await tryTakeSlot(app.db, lookupRule(app.config, searcherId)))) return null;
  try {
    return await resolveHandle(app, handle);
  } catch (error) {
    app.log.info({ err: error, handle: `${handle.name}@${handle.host}` }, 'remote handle not resolved');
    return null;
  }
}

/**
 * Looks up the handles (`name@host`) typed into a post by its author, so the post can mention
 * them: each one counts as a search of the author's would.
 */
export async function lookUpTypedHandles(app: FastifyInstance, authorId: string, handles: string[]): Promise<void> {
  for (const typed of handles) {
    const handle = parseHandle(typed);
    if (handle) await lookUpHandle(app, authorId, handle);
  }
}
