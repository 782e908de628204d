import type { FastifyInstance } from 'fastify';
import type { Executor } from '../../db/schema.js';
import { addHostFailure, countHostStates, endHostStreak, parkHost } from './job-hosts.repository.js';

/**
 * A circuit breaker per remote host, kept in the database so every process honours it: after
 * `parkAfter` failures in a row the host is parked, and the worker claims none of its jobs until the
 * park ends (claimDueJobsPerHost). Its first jobs after that (as many as the per-host bound) try it
 * again: one failing parks the host at once for twice as long (up to PARK_CAP_MS); one answering
 * ends the streak and every waiting job goes. So a dead host costs a few timeouts per park, not one
 * per queued job.
 */

export interface BreakerRules {
  /** Failures in a row that park a host. */
  parkAfter: number;
  /** How long the first park of a streak lasts. */
  parkMs: number;
}

/** The longest park: a host back up waits at most this long (plus its jobs' own retry delay). */
export const PARK_CAP_MS = 60 * 60 * 1000;

/** How long the park after `parks` parks in a row lasts. */
export const parkLength = (rules: BreakerRules, parks: number): number => Math.min(PARK_CAP_MS, rules.parkMs * 2 ** parks);

/** The host did not answer, or answered that it cannot take the request now. */
export async function hostFailed(app: FastifyInstance, host: string, now: number, rules: BreakerRules): Promise<void> {
  const streak = await addHostFailure(app.db, host, now);
  if (streak.failures < rules.parkAfter) return;
  if (streak.parkedUntil !== null && streak.parkedUntil > now) return;
  const until = now + parkLength(rules, streak.parks);
  if (await parkHost(app.db, host, streak.parks, until, now)) {
    app.log.warn({ host, failures: streak.failures, parkedUntil: new Date(until).toISOString() }, 'remote host parked');
  }
}

/** The host answered: whatever its streak was, it is over. */
export async function hostAnswered(app: FastifyInstance, host: string): Promise<void> {
  const parks = await endHostStreak(app.db, host);
  if (parks) app.log.info({ host, parks }, 'remote host recovered');
}

/** How many hosts are parked now, and how many failed last but are not parked (what the metrics report). */
export const hostStates = (db: Executor, now: number) => countHostStates(db, now);
