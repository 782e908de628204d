import { signRequest } from '@fedify/fedify';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../../config.js';
import type { Executor } from '../../../db/schema.js';
import { EgressRefused } from '../../../lib/egress/egress.js';
import { hostAnswered, hostFailed } from '../../../lib/jobs/host-breaker.js';
import { hostWithPortOf } from '../../../lib/hosts.js';
import type { LaneBound, OutsideJob } from '../../../lib/jobs/job-handler.js';
import { type JobAddress, enqueueJob, enqueueJobs, giveUpJobsQueuedBefore } from '../../../lib/jobs/queue.js';
import packageJson from '../../../../../package.json' with { type: 'json' };
import { keyPairsOf } from '../../remote/actor-keys.js';
import { isUrlBlocked } from '../boundaries.js';
import { purgeKeysOfGoneActors } from '../federation.repository.js';
import { FEDERATION_OUTGOING_JOB } from './outgoing.js';
import { federationRules } from '../../../lib/egress/federation-rules.js';

/**
 * Delivering an activity to a remote inbox: queued as a job (in the transaction that decided it),
 * then signed with the local actor's stored RSA key (HTTP Signatures, as Mastodon verifies) and
 * posted through the outgoing-request guard, never by Fedify's own sender, which uses the global
 * fetch. Many go at once, only a few to one host (config.federationDelivery), and a host that keeps
 * failing is parked for a while (lib/jobs/host-breaker.ts). A failure is tried again for about a day
 * (deliveryRetryDelay); an inbox the guard refuses is given up at once, since it will not become
 * reachable. An inbox on a domain blocked by the time the delivery is due is dropped without a
 * request: a block applies to what was queued before it.
 */
export const FEDERATION_DELIVERY_JOB = 'federation_delivery';

/** Tries in all: with deliveryRetryDelay, the last comes about a day after the first. */
const MAX_ATTEMPTS = 12;
const FIRST_RETRY_MS = 60_000;
const LONGEST_RETRY_MS = 8 * 60 * 60 * 1000;
/** Each wait is up to this share longer or shorter, so a host's failed deliveries do not all come back at once. */
const RETRY_JITTER = 0.1;
/**
 * A delivery still queued this long after it was queued is given up: past its last try however the
 * jitter fell, and long enough for a parked host's last park. Mostly those of a host parked all along.
 */
export const DELIVERY_LIFETIME_MS = 2 * 24 * 60 * 60 * 1000;

/**
 * The wait before the next try of a delivery that failed `attempts` times: a minute, doubling up to
 * 8 hours. The eleven waits add up to about 24.5 hours (22 to 27 with the jitter).
 */
export function deliveryRetryDelay(attempts: number, random: () => number = Math.random): number {
  const wait = Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1));
  return Math.round(wait * (1 + RETRY_JITTER * (2 * random() - 1)));
}

/**
 * How deliveries run: config.federationDelivery's bounds, and a lease that outlasts the request's
 * timeout (signing and the breaker's writes take the rest), so no other worker takes a delivery
 * still being sent.
 */
export const deliveryLane = ({ federationDelivery }: Config): LaneBound => ({
  jobs: federationDelivery.concurrency,
  perHost: federationDelivery.perHost,
  leaseMs: federationDelivery.timeoutMs + 30_000,
});

export interface Delivery {
  /** The local user's or group's id, whose key signs. */
  actorId: string;
  /** The key's id as the actor document publishes it. */
  keyId: string;
  inbox: string;
  /** The activity as JSON-LD. */
  activity: unknown;
}

declare module '../../../lib/jobs/job-handler.js' {
  interface JobPayloads {
    [FEDERATION_DELIVERY_JOB]: Delivery;
  }
}

/**
 * The inbox's host with its port, which the per-host bound and the breaker go by, and the inbox,
 * whose deliveries go one at a time in the order queued (an Update before its Delete); null for no
 * URL, which the guard refuses.
 */
function addressOf(delivery: Delivery): JobAddress | null {
  const url = URL.parse(delivery.inbox);
  return url ? { host: hostWithPortOf(url), target: delivery.inbox } : null;
}

export const enqueueDelivery = (db: Executor, delivery: Delivery, now?: number) => enqueueJob(db, FEDERATION_DELIVERY_JOB, delivery, now, addressOf(delivery));

export const enqueueDeliveries = (db: Executor, deliveries: Delivery[]) => enqueueJobs(db, FEDERATION_DELIVERY_JOB, deliveries, undefined, addressOf);

/** A remote inbox's answer that is not a success. */
export class DeliveryError extends Error {
  constructor(readonly status: number) {
    super(`inbox answered ${status}`);
    this.name = 'DeliveryError';
  }
}

/** No answer, or one saying the server cannot take it now: what counts towards parking its host. */
const hostIsFailing = (status: number) => status >= 500 || status === 429;

async function deliver(app: FastifyInstance, delivery: Delivery, now: number): Promise<void> {
  const [rsa] = await keyPairsOf(app, delivery.actorId);
  if (!rsa) throw new Error(`no key of ${delivery.actorId}`);
  const body = JSON.stringify(delivery.activity);
  const unsigned = new Request(delivery.inbox, {
    method: 'POST',
    headers: { 'Content-Type': 'application/activity+json', 'User-Agent': `Kruh/${packageJson.version} (+${app.config.publicUrl})` },
    body,
  });
  const signed = await signRequest(unsigned, rsa.privateKey, new URL(delivery.keyId));
  const headers: Record<string, string> = {};
  signed.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const settings = app.config.federationDelivery;
  const host = hostWithPortOf(new URL(delivery.inbox));
  let response;
  try {
    response = await app.egress.request(
      delivery.inbox,
      { method: 'POST', headers, body: Buffer.from(body), timeoutMs: settings.timeoutMs, connectTimeoutMs: settings.connectTimeoutMs, maxResponseBytes: 64 * 1024 },
      federationRules(app.config),
    );
  } catch (err) {
    if (!(err instanceof EgressRefused)) await hostFailed(app, host, now, settings);
    throw err;
  }
  const ok = response.status >= 200 && response.status < 300;
  if (!ok && hostIsFailing(response.status)) await hostFailed(app, host, now, settings);
  else await hostAnswered(app, host);
  if (!ok) throw new DeliveryError(response.status);
}

export const federationDeliveryJob: OutsideJob<Delivery> = {
  maxAttempts: MAX_ATTEMPTS,
  retryDelay: (attempts) => deliveryRetryDelay(attempts),
  outside: async (app, delivery, now) => {
    const { inbox } = delivery;
    if (await isUrlBlocked(app.db, inbox)) {
      app.log.info({ inbox }, 'federation delivery to a blocked domain dropped');
      return;
    }
    try {
      await deliver(app, delivery, now);
    } catch (err) {
      if (err instanceof EgressRefused) {
        app.log.warn({ err, inbox }, 'federation delivery refused by the egress guard');
        return;
      }
      throw err;
    }
  },
};

/**
 * A deleted account's or group's keys outlive it only while a delivery still to be tried, or the
 * job that queues deliveries, names it: its last activities (the actor's Delete) are signed with
 * them after it is gone. The maintenance job calls this.
 */
export async function forgetKeysOfGoneActors(db: Executor): Promise<void> {
  await purgeKeysOfGoneActors(db, [FEDERATION_DELIVERY_JOB, FEDERATION_OUTGOING_JOB]);
}

/** Gives up the deliveries queued more than DELIVERY_LIFETIME_MS ago (the maintenance job calls this). */
export async function giveUpStaleDeliveries(db: Executor, now: number): Promise<number> {
  return giveUpJobsQueuedBefore(db, FEDERATION_DELIVERY_JOB, now - DELIVERY_LIFETIME_MS, now, 'not delivered within its lifetime');
}
