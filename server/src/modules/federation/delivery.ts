import { signRequest } from '@fedify/fedify';
import type { FastifyInstance } from 'fastify';
import type { Executor } from '../../db/schema.js';
import { EgressRefused } from '../../lib/egress/egress.js';
import type { OutsideJob } from '../jobs/job-handler.js';
import { enqueueJob } from '../jobs/queue.js';
import packageJson from '../../../../package.json' with { type: 'json' };
import { keyPairsOf } from './actor-keys.js';
import { isUrlBlocked } from './boundaries.js';
import { purgeKeysOfGoneActors } from './federation.repository.js';
import { FEDERATION_OUTGOING_JOB } from './outgoing.js';
import { federationRules } from './document-loader.js';

/**
 * Delivering an activity to a remote inbox: queued as a job (in the transaction that decided it),
 * then signed with the local actor's stored RSA key (HTTP Signatures, as Mastodon verifies) and
 * posted through the outgoing-request guard, never by Fedify's own sender, which uses the global
 * fetch. A failure is tried again after the queue's growing delay; an inbox the guard refuses is
 * given up at once, since it will not become reachable. An inbox on a domain blocked by the time
 * the delivery is due is dropped without a request: a block applies to what was queued before it.
 */
export const FEDERATION_DELIVERY_JOB = 'federation_delivery';

const TIMEOUT_MS = 10_000;
/** A remote server down for a day or so still gets the activity. */
const MAX_ATTEMPTS = 12;

export interface Delivery {
  /** The local user's or group's id, whose key signs. */
  actorId: string;
  /** The key's id as the actor document publishes it. */
  keyId: string;
  inbox: string;
  /** The activity as JSON-LD. */
  activity: unknown;
}

export const enqueueDelivery = (db: Executor, delivery: Delivery, now?: number) => enqueueJob(db, FEDERATION_DELIVERY_JOB, delivery, now);

/** A remote inbox's answer that is not a success. */
export class DeliveryError extends Error {
  constructor(readonly status: number) {
    super(`inbox answered ${status}`);
    this.name = 'DeliveryError';
  }
}

async function deliver(app: FastifyInstance, delivery: Delivery): Promise<void> {
  const [rsa] = await keyPairsOf(app.db, delivery.actorId);
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
  const response = await app.egress.request(
    delivery.inbox,
    { method: 'POST', headers, body: Buffer.from(body), timeoutMs: TIMEOUT_MS, maxResponseBytes: 64 * 1024 },
    federationRules(app.config),
  );
  if (response.status < 200 || response.status >= 300) throw new DeliveryError(response.status);
}

export const federationDeliveryJob: OutsideJob = {
  maxAttempts: MAX_ATTEMPTS,
  outside: async (app, payload) => {
    const { inbox } = payload as Delivery;
    if (await isUrlBlocked(app.db, inbox)) {
      app.log.info({ inbox }, 'federation delivery to a blocked domain dropped');
      return;
    }
    try {
      await deliver(app, payload as Delivery);
    } catch (err) {
      if (err instanceof EgressRefused) {
        app.log.warn({ err, inbox: (payload as Delivery).inbox }, 'federation delivery refused by the egress guard');
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
