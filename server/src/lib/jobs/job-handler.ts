import type { FastifyInstance } from 'fastify';
import type { Transaction } from 'kysely';
import type { Database, Executor } from '../../db/schema.js';

/**
 * What a module hands the job worker to run one kind of job. The worker knows nothing of the kinds
 * themselves: the composition root (server/src/jobs.ts) registers them on the app
 * (`app.jobHandlers`), so the modules that define jobs depend on this folder only, and it on none of them.
 */

/**
 * Every job kind's payload, by the `kind` stored in its row. Empty here: the module that owns a kind
 * adds it where its payload type is declared (`declare module '…/lib/jobs/job-handler.js'`), so this
 * folder imports no module, and enqueueing a kind with another kind's payload does not compile.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by each module's declaration
export interface JobPayloads {}

export type JobKind = keyof JobPayloads;

/** One step of a job, run in a transaction together with saving its progress. */
export interface JobStep {
  /** The payload to resume from, or null when the job is done. */
  next: unknown;
  /** Runs once the step's transaction has committed. */
  afterCommit?: () => void;
  /** With a next payload: run the next step no earlier than this (a recurring job waits here). */
  runAt?: number;
}
export type StepHandler<P = unknown> = (app: FastifyInstance, trx: Transaction<Database>, payload: P, now: number) => Promise<JobStep>;

/**
 * A job that waits on another server (sending mail): it runs outside any transaction, so a slow
 * or unreachable peer holds no database connection or lock, and the job is removed once it
 * returns. A crash in between runs it again, so it must bear being done twice.
 */
export interface OutsideJob<P = unknown> {
  outside: (app: FastifyInstance, payload: P, now: number) => Promise<void>;
  /** Failures before the job is parked, when the default is too few for an outage of the peer. */
  maxAttempts?: number;
  /** The wait before the next try after the job failed `attempts` times, when the queue's own is too short. */
  retryDelay?: (attempts: number) => number;
}
export type JobHandler<P = unknown> = StepHandler<P> | OutsideJob<P>;

/** What runs each kind, its handler taking that kind's payload: what the composition root lists. */
export type JobRegistry = { [K in JobKind]?: JobHandler<JobPayloads[K]> };

/**
 * Every kind of job the app runs, as the worker sees them: by the `kind` stored in a row, each
 * handler taking the payload that row holds (which only enqueueJob of that kind wrote).
 */
export type JobHandlers = Record<string, JobHandler<never>>;

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

/** Makes sure a recurring job is queued (once, however many processes call it); each worker calls it as it starts. */
export type RecurringJob = (db: Executor, now?: number) => Promise<void>;

declare module 'fastify' {
  interface FastifyInstance {
    jobHandlers: JobHandlers;
    jobConcurrency: JobConcurrency;
    recurringJobs: readonly RecurringJob[];
  }
}
