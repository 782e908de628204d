import type { FastifyInstance } from 'fastify';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';

/**
 * What a module hands the job worker to run one kind of job. The worker knows nothing of the kinds
 * themselves: they are registered on the app (`app.jobHandlers`), so the modules that define jobs
 * depend on this file only, and the worker on none of them.
 */

/** One step of a job, run in a transaction together with saving its progress. */
export interface JobStep {
  /** The payload to resume from, or null when the job is done. */
  next: unknown;
  /** Runs once the step's transaction has committed. */
  afterCommit?: () => void;
  /** With a next payload: run the next step no earlier than this (a recurring job waits here). */
  runAt?: number;
}
export type StepHandler = (app: FastifyInstance, trx: Transaction<Database>, payload: unknown, now: number) => Promise<JobStep>;

/**
 * A job that waits on another server (sending mail): it runs outside any transaction, so a slow
 * or unreachable peer holds no database connection or lock, and the job is removed once it
 * returns. A crash in between runs it again, so it must bear being done twice.
 */
export interface OutsideJob {
  outside: (app: FastifyInstance, payload: unknown, now: number) => Promise<void>;
  /** Failures before the job is parked, when the default is too few for an outage of the peer. */
  maxAttempts?: number;
  /** The wait before the next try after the job failed `attempts` times, when the queue's own is too short. */
  retryDelay?: (attempts: number) => number;
}
export type JobHandler = StepHandler | OutsideJob;

/** Every kind of job the app runs, by the `kind` stored in its row. */
export type JobHandlers = Record<string, JobHandler>;

/**
 * How one kind's jobs run at once: `jobs` of them in one process; for jobs that name a remote host,
 * no more than `perHost` of one host's at once across every process, and none while the host is
 * parked (host-breaker.ts); each claim held for `leaseMs` when the kind may take longer than the
 * worker's lease.
 */
export interface LaneBound {
  jobs: number;
  perHost?: number;
  leaseMs?: number;
}

/** Each kind's bound; a kind not named runs one at a time. */
export type JobConcurrency = Record<string, LaneBound>;

declare module 'fastify' {
  interface FastifyInstance {
    jobHandlers: JobHandlers;
    jobConcurrency: JobConcurrency;
  }
}
