import type { FastifyInstance } from 'fastify';
import type { Executor } from '../../db/schema.js';
import { longestRateWindow } from '../../lib/content-limits.js';
import { purgeIdempotencyKeys } from '../../lib/idempotency.js';
import { purgeRateEvents } from '../../lib/rate-limit.js';
import { forgetIdleHosts } from '../../lib/jobs/job-hosts.repository.js';
import { insertJobUnlessPresent } from '../../lib/jobs/jobs.repository.js';
import type { JobStep } from '../../lib/jobs/job-handler.js';
import { PARKED } from '../../lib/jobs/queue.js';

/**
 * Housekeeping as one recurring job in the durable queue: each run does the tasks the composition
 * root lists (jobs.ts), in order, then waits MAINTENANCE_EVERY_MS for its next run. Being a leased
 * job, it runs in one process at a time however many workers there are; a unique index keeps it
 * single when several workers seed it at start. The tasks come from outside so that this module,
 * like the queue's plumbing, knows no feature.
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

/** One task of a maintenance run, in the run's transaction. */
export type MaintenanceTask = (app: FastifyInstance, trx: Executor, now: number) => Promise<void>;

/** Forgets idempotency keys past their lifetime and rate events older than any limit's window. */
export const forgetSpentRequests: MaintenanceTask = async (app, trx, now) => {
  await purgeIdempotencyKeys(trx, now);
  await purgeRateEvents(trx, longestRateWindow(app.config.rates), now);
};

/** Forgets the failure streaks of hosts nothing waits for. */
export const forgetIdleJobHosts: MaintenanceTask = async (_app, trx) => {
  await forgetIdleHosts(trx, PARKED);
};

/** Makes sure the maintenance job exists; it runs at once when it did not. */
export async function scheduleMaintenance(db: Executor, now: number = Date.now()): Promise<void> {
  const first: MaintenancePayload = { lastRunAt: null };
  await insertJobUnlessPresent(db, MAINTENANCE_JOB, JSON.stringify(first), now, now);
}

/** The maintenance job's step, running the tasks in order. */
export function maintenanceStep(tasks: readonly MaintenanceTask[]) {
  return async (app: FastifyInstance, trx: Executor, _payload: MaintenancePayload, now: number): Promise<JobStep> => {
    for (const task of tasks) await task(app, trx, now);
    // The payload changes each run, so the lease guard (which compares payloads) tells runs apart.
    const next: MaintenancePayload = { lastRunAt: now };
    return { next, runAt: now + MAINTENANCE_EVERY_MS };
  };
}
