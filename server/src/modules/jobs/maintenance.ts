import type { FastifyInstance } from 'fastify';
import type { Executor } from '../../db/schema.js';
import { longestRateWindow } from '../../lib/content-limits.js';
import { purgeIdempotencyKeys } from '../../lib/idempotency.js';
import { purgeRateEvents } from '../../lib/rate-limit.js';
import { forgetKeysOfGoneActors, giveUpStaleDeliveries } from '../federation/delivery.js';
import { purgeExpiredKv } from '../federation/kv-store.js';
import { forgetIdleHosts } from '../../lib/jobs/job-hosts.repository.js';
import { insertJobUnlessPresent } from '../../lib/jobs/jobs.repository.js';
import type { JobStep } from '../../lib/jobs/job-handler.js';
import { PARKED } from '../../lib/jobs/queue.js';

/**
 * Housekeeping as one recurring job in the durable queue: it forgets idempotency keys past their
 * lifetime, rate events older than any limit's window, deliveries past theirs (given up: a host
 * parked all along), the failure streaks of hosts nothing waits for, the signing keys of deleted
 * actors that nothing queued needs any more and the federation's cached entries (remote keys) past
 * their lifetime, then waits MAINTENANCE_EVERY_MS for its next run. Being a leased
 * job, it runs in one process at a time however many workers there are; a unique index keeps it
 * single when several workers seed it at start.
 */
export const MAINTENANCE_JOB = 'maintenance';
export const MAINTENANCE_EVERY_MS = 10 * 60 * 1000;

/** When it last ran (null before its first run). */
export interface MaintenancePayload {
  lastRunAt: number | null;
}

declare module '../../lib/jobs/job-handler.js' {
  interface JobPayloads {
    [MAINTENANCE_JOB]: MaintenancePayload;
  }
}

/** Makes sure the maintenance job exists; it runs at once when it did not. */
export async function scheduleMaintenance(db: Executor, now: number = Date.now()): Promise<void> {
  const first: MaintenancePayload = { lastRunAt: null };
  await insertJobUnlessPresent(db, MAINTENANCE_JOB, JSON.stringify(first), now, now);
}

export async function maintenanceStep(app: FastifyInstance, trx: Executor, _payload: MaintenancePayload, now: number): Promise<JobStep> {
  await purgeIdempotencyKeys(trx, now);
  await purgeRateEvents(trx, longestRateWindow(app.config.rates), now);
  const givenUp = await giveUpStaleDeliveries(trx, now);
  if (givenUp > 0) app.log.warn({ givenUp }, 'deliveries given up: not delivered within their lifetime');
  await forgetIdleHosts(trx, PARKED);
  await forgetKeysOfGoneActors(trx);
  const expired = await purgeExpiredKv(trx, now);
  if (expired > 0) app.log.info({ expired }, 'expired federation cache entries deleted');
  // The payload changes each run, so the lease guard (which compares payloads) tells runs apart.
  const next: MaintenancePayload = { lastRunAt: now };
  return { next, runAt: now + MAINTENANCE_EVERY_MS };
}
