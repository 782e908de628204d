import { Link, isActor, lookupObject } from '@fedify/fedify/vocab';
import type { FastifyInstance } from 'fastify';
import { LIMITS } from '#core/limits';
import type { Config } from '../../config.js';
import { isLoopbackAddress } from '../../lib/egress/address.js';
import { tryTakeSlot } from '../../lib/rate-limit.js';
import { federationRules, fetchRemoteJson, userAgentOf } from './document-loader.js';
import { enqueueJob } from '../jobs/queue.js';
import { isUrlBlocked } from './blocked-domains.js';
import { htmlToText } from './html.js';
import { remoteAccountFor, remoteAccountName } from './remote-accounts.js';
import { type AvatarPayload, FEDERATION_AVATAR_JOB, guardedLoader, iconUrlOf, refreshIfStale } from './remote-refresh.js';

/**
 * Finding someone on another server by their handle, typed into the user search: the handle's
 * server is asked who it is (WebFinger), the actor it names is read, and the account standing for
 * it here is made or brought up to date, so it is found, shown and followed like anyone. Every
 * request goes through the outgoing-request guard, and each lookup is counted against the one who
 * searched (it costs the instance requests to a server it does not know). A server that cannot be
 * reached, refuses, or names no actor simply finds nobody.
 */

export interface Handle {
  name: string;
  /** The server's host, its port included when it names one. */
  host: string;
}

const HANDLE = /^@?([^\s@/?#:]+)@([^\s@/?#]+)$/;

/** `@name@host` or `name@host` as typed (spaces around it aside); null for anything else. */
export function parseHandle(query: string): Handle | null {
  const match = HANDLE.exec(query.trim());
  if (!match) return null;
  try {
    // The host as a URL holds it: lower case, an international name in its ASCII form.
    return { name: match[1]!, host: new URL(`https://${match[2]}`).host };
  } catch {
    return null;
  }
}

const JRD_ACCEPT = 'application/jrd+json, application/json';
const ACTIVITY_TYPES = new Set(['application/activity+json', 'application/ld+json; profile="https://www.w3.org/ns/activitystreams"']);

/**
 * The scheme a server is asked over: https, or plain http for this machine when the instance
 * allows it (FEDERATION_ALLOW_HTTP, tests with a fake remote server); the guard decides the rest.
 */
function schemeOf(config: Config, host: string): 'http' | 'https' {
  const hostname = new URL(`https://${host}`).hostname.replace(/^\[|\]$/g, '');
  const local = hostname === 'localhost' || isLoopbackAddress(hostname);
  return config.federationAllowHttp && local ? 'http' : 'https';
}

/** The actor's address the handle's server names (its `self` link of an ActivityPub type). */
async function webFinger(app: FastifyInstance, handle: Handle, signal: AbortSignal): Promise<string | null> {
  const resource = `acct:${handle.name}@${handle.host}`;
  const url = `${schemeOf(app.config, handle.host)}://${handle.host}/.well-known/webfinger?resource=${encodeURIComponent(resource)}`;
  const { document } = await fetchRemoteJson(app.egress, url, {
    accept: JRD_ACCEPT,
    userAgent: userAgentOf(app.config),
    rules: federationRules(app.config),
    refused: (address) => isUrlBlocked(app.db, address),
    signal,
  });
  const links = (document as { links?: unknown }).links;
  if (!Array.isArray(links)) return null;
  for (const link of links as Array<{ rel?: unknown; type?: unknown; href?: unknown }>) {
    if (link.rel === 'self' && typeof link.type === 'string' && ACTIVITY_TYPES.has(link.type) && typeof link.href === 'string') return link.href;
  }
  return null;
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
  const actor = await lookupObject(actorUrl, { documentLoader: loader, contextLoader: loader });
  // Fedify may answer null for a document given up on: the deadline still finds nobody.
  deadline.throwIfAborted();
  if (!actor || !isActor(actor) || !actor.id || !actor.inboxId || !actor.preferredUsername) return null;
  const name = actor.preferredUsername.toString();
  if (name.includes('@') || /\s/.test(name)) return null;
  const summary = actor.summary ? htmlToText(actor.summary.toString()) : '';
  const handle = `@${name}@${actor.id.host}`;
  const icon = await iconUrlOf(actor, loader);
  const userId = await remoteAccountFor(
    app.db,
    {
      id: actor.id.href,
      inbox: actor.inboxId.href,
      sharedInbox: actor.endpoints?.sharedInbox?.href ?? null,
      handle,
      url: actor.url instanceof Link ? (actor.url.href?.href ?? null) : (actor.url?.href ?? null),
      bio: [...summary].slice(0, LIMITS.bioMaxLength).join(''),
    },
    Date.now(),
  );
  if (icon) await enqueueJob(app.db, FEDERATION_AVATAR_JOB, { userId, url: icon } satisfies AvatarPayload);
  await enqueueJob(app.db, FEDERATION_BACKFILL_JOB, { actorId: actor.id.href } satisfies BackfillPayload);
  return remoteAccountName(handle);
}

/**
 * Reading a newly found actor's recent posts from its outbox (backfill.ts), so its profile shows
 * something: a job, so the search does not wait on it and a failure there never fails the lookup.
 */
export const FEDERATION_BACKFILL_JOB = 'federation_backfill';
export interface BackfillPayload {
  actorId: string;
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
  const known = await app.db
    .selectFrom('users')
    .leftJoin('remote_actors', 'remote_actors.user_id', 'users.id')
    .select(['users.username', 'remote_actors.id as actor_id', 'remote_actors.fetched_at'])
    .where('users.username_lower', '=', `${handle.name}@${handle.host}`.toLowerCase())
    .executeTakeFirst();
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
