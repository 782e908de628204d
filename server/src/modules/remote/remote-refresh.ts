import { type Actor, Link, isActor, lookupObject } from '@fedify/fedify/vocab';
import type { DocumentLoader } from '@fedify/fedify';
import type { FastifyInstance } from 'fastify';
import { LIMITS } from '#core/limits';
import { newTransaction } from '../../db/helpers.js';
import type { OutsideJob } from '../../lib/jobs/job-handler.js';
import { enqueueJob } from '../../lib/jobs/queue.js';
import { storeAvatar } from '../media/avatars.js';
import { federationRules, userAgentOf } from '../../lib/egress/federation-rules.js';
import { isUrlBlocked } from '../../policy/blocked-domains.js';
import { type Signer, egressDocumentLoader, knownContextLoader } from './document-loader.js';
import { instanceSigner } from './instance-signer.js';
import { saveActorDocument } from './remote-accounts.js';
import { claimStaleActor, remoteActorStanding } from './remote.repository.js';

/**
 * Keeping a remote account's picture, name and bio up to date without making anyone wait on its
 * server: the picture of an account just found is fetched by a job, and an account whose actor was
 * last read more than a day ago is read again by a job when someone searches for it or opens its
 * profile. Every request goes through the outgoing-request guard and never to a blocked domain.
 */

/**
 * The guarded loader of remote documents that never reads a blocked domain's, each GET signed by
 * the instance actor unless `signer` is another local actor's key; `signal` gives it up early.
 */
export const guardedLoader = (app: FastifyInstance, signal?: AbortSignal, signer: Signer = instanceSigner(app)): DocumentLoader =>
  egressDocumentLoader(app.egress, userAgentOf(app.config), federationRules(app.config), (address) => isUrlBlocked(app.db, address), signal, signer);

/** The address of an actor's picture, null when it names none or it cannot be read. */
export async function iconUrlOf(actor: Actor, loader: DocumentLoader): Promise<string | null> {
  try {
    const icon = await actor.getIcon({ documentLoader: loader, contextLoader: knownContextLoader });
    const url = icon?.url instanceof Link ? icon.url.href : icon?.url;
    return url?.href ?? null;
  } catch {
    return null;
  }
}

/** Fetches a remote account's picture and stores it re-encoded, as every avatar is; left as it was when it cannot be had. */
async function storeRemoteAvatar(app: FastifyInstance, userId: string, url: string): Promise<void> {
  try {
    if (await isUrlBlocked(app.db, url)) return;
    const response = await app.egress.request(
      url,
      { method: 'GET', headers: { Accept: 'image/*', 'User-Agent': userAgentOf(app.config) }, timeoutMs: 10_000, maxResponseBytes: LIMITS.imageMaxBytes },
      federationRules(app.config),
    );
    if (response.status !== 200) return;
    await storeAvatar(app, 'pfp', userId, response.body);
  } catch (error) {
    app.log.debug({ err: error, userId }, 'remote avatar not stored');
  }
}

/** A remote account's picture, fetched after the search that found the account has answered. */
export const FEDERATION_AVATAR_JOB = 'federation_avatar';
export interface AvatarPayload {
  userId: string;
  url: string;
}

/** Tried once: a picture that cannot be had leaves the default one until the actor is read again. */
export const federationAvatarJob: OutsideJob<AvatarPayload> = {
  outside: async (app, { userId, url }) => {
    await storeRemoteAvatar(app, userId, url);
  },
};

/**
 * How old what is kept of a remote actor may grow before a search or a profile view has it read
 * again: a day keeps a renamed account or a new picture from showing for long, and costs its server
 * one request a day per account people here look at, however often they do.
 */
export const REMOTE_ACTOR_STALE_MS = 24 * 60 * 60 * 1000;

/** Reading a known remote actor again (its name, bio and picture). */
export const FEDERATION_ACTOR_REFRESH_JOB = 'federation_actor_refresh';
export interface ActorRefreshPayload {
  actorId: string;
}
declare module '../../lib/jobs/job-handler.js' {
  interface JobPayloads {
    [FEDERATION_AVATAR_JOB]: AvatarPayload;
    [FEDERATION_ACTOR_REFRESH_JOB]: ActorRefreshPayload;
  }
}

/**
 * Queues the reading of a remote actor last read over a day ago; nothing for a fresh one, with
 * federation off, or on a blocked domain. The actor is marked read when queued, in the same
 * transaction: of the searches and views that find it stale at once only one queues it, and a
 * server that fails to answer is asked again a day later, not on every view.
 */
export async function refreshIfStale(app: FastifyInstance, actor: { id: string; fetchedAt: number }, now: number = Date.now()): Promise<void> {
  if (!app.config.federation || now - actor.fetchedAt < REMOTE_ACTOR_STALE_MS) return;
  if (await isUrlBlocked(app.db, actor.id)) return;
  await newTransaction(app.db, async (trx) => {
    if (await claimStaleActor(trx, actor.id, now, now - REMOTE_ACTOR_STALE_MS)) await enqueueJob(trx, FEDERATION_ACTOR_REFRESH_JOB, { actorId: actor.id });
  });
}

/**
 * Reads the actor again and stores it as its own Update of itself would, then its picture. Tried
 * once: a failure is logged and the account keeps what it had until a day later.
 */
export const federationActorRefreshJob: OutsideJob<ActorRefreshPayload> = {
  outside: async (app, { actorId }) => {
    try {
      // A suspended account's actor is not listened to, as its activities are not.
      const standing = await remoteActorStanding(app.db, actorId);
      if (!standing || standing.suspended) return;
      const loader = guardedLoader(app);
      const actor = await lookupObject(actorId, { documentLoader: loader, contextLoader: knownContextLoader });
      const userId = await saveActorDocument(app, actor, new URL(actorId));
      if (!userId || !isActor(actor)) return;
      const icon = await iconUrlOf(actor, loader);
      if (icon) await storeRemoteAvatar(app, userId, icon);
    } catch (error) {
      app.log.info({ err: error, actorId }, 'remote actor not refreshed');
    }
  },
};
