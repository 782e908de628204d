import type { FastifyInstance } from 'fastify';
import type { JobStep, OutsideJob } from './job-handler.js';
import { type JobRow, claimDueJobs, failJob, finishJob, releaseJob, rescheduleJob, saveProgress } from './jobs.repository.js';
import { scheduleMaintenance } from './maintenance.js';
import type { PgListener } from './pg-listener.js';
import { JOBS_CHANNEL, onJobEnqueued } from './signal.js';

export const LEASE_MS = 30_000;
export const POLL_MS = 500;
const CLAIM_LIMIT = 4;
/** Steps one claim may run before the job goes back in line, so a huge fan-out does not starve others. */
const STEPS_PER_CLAIM = 20;
const MAX_ATTEMPTS = 10;
const MAX_BACKOFF_MS = 60 * 60 * 1000;
/** Where a job that failed MAX_ATTEMPTS times is parked: kept for inspection, never claimed again. */
const PARKED = Number.MAX_SAFE_INTEGER;

class LostLease extends Error {}

export interface RunOptions {
  /** Stop after this many steps in total, leaving the current job leased (tests: a crash mid-run). */
  maxSteps?: number;
  /** The clock (tests move it past a lease). */
  clock?: () => number;
  /** Checked between steps: true hands the current job back and returns. */
  shouldStop?: () => boolean;
}

export function retryDelay(attempts: number): number {
  return Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.max(0, attempts - 1));
}

/**
 * Runs due jobs until none is left (or a limit of the options): what the worker does on each
 * tick, and what tests call instead of a running worker. Returns the number of steps run.
 */
export async function runDueJobs(app: FastifyInstance, options: RunOptions = {}): Promise<number> {
  const run: Run = { clock: options.clock ?? Date.now, options, steps: 0 };
  while (budgetLeft(run) && !options.shouldStop?.()) {
    const jobs = await claimDueJobs(app.db, run.clock(), LEASE_MS, CLAIM_LIMIT);
    if (!jobs.length) break;
    for (const [index, job] of jobs.entries()) {
      if (options.shouldStop?.()) {
        // Claimed but not started: give the rest back at once.
        for (const rest of jobs.slice(index)) await releaseJob(app.db, rest.id, rest.payload, rest.run_at);
        break;
      }
      // Out of steps: what is still claimed stays leased, as after a crash.
      if (!budgetLeft(run)) return run.steps;
      await runJob(app, job, run);
    }
  }
  return run.steps;
}

interface Run {
  clock: () => number;
  options: RunOptions;
  steps: number;
}

const budgetLeft = (run: Run) => run.options.maxSteps === undefined || run.steps < run.options.maxSteps;

async function runJob(app: FastifyInstance, job: JobRow, run: Run): Promise<void> {
  const handler = app.jobHandlers[job.kind];
  if (!handler) {
    await failJob(app.db, job.id, MAX_ATTEMPTS, `no handler for job kind "${job.kind}"`, PARKED);
    return;
  }
  if (typeof handler !== 'function') {
    await runOutside(app, job, run, handler);
    return;
  }
  let payload = job.payload;
  for (let steps = 1; ; steps++) {
    let step: JobStep;
    try {
      step = await app.db.transaction().execute(async (trx) => {
        const now = run.clock();
        const result = await handler(app, trx, JSON.parse(payload), now);
        const next = result.next === null ? null : JSON.stringify(result.next);
        let kept: boolean;
        if (next === null) kept = await finishJob(trx, job.id, payload);
        else if (result.runAt !== undefined) kept = await rescheduleJob(trx, job.id, payload, next, result.runAt);
        else kept = await saveProgress(trx, job.id, payload, next, now + LEASE_MS);
        if (!kept) throw new LostLease();
        if (next !== null) payload = next;
        return result;
      });
    } catch (err) {
      if (err instanceof LostLease) {
        app.log.warn({ jobId: job.id }, 'job taken over by another worker after its lease expired');
        return;
      }
      await jobFailed(app, job, run, err, MAX_ATTEMPTS);
      return;
    }
    run.steps++;
    step.afterCommit?.();
    if (step.next === null || step.runAt !== undefined || !budgetLeft(run)) return;
    if (run.options.shouldStop?.() || steps >= STEPS_PER_CLAIM) {
      await releaseJob(app.db, job.id, payload, run.clock());
      return;
    }
  }
}

async function runOutside(app: FastifyInstance, job: JobRow, run: Run, handler: OutsideJob): Promise<void> {
  try {
    await handler.outside(app, JSON.parse(job.payload), run.clock());
  } catch (err) {
    await jobFailed(app, job, run, err, handler.maxAttempts ?? MAX_ATTEMPTS);
    return;
  }
  run.steps++;
  if (!(await finishJob(app.db, job.id, job.payload))) {
    app.log.warn({ jobId: job.id }, 'job taken over by another worker after its lease expired');
  }
}

/** Puts a failed job back in line after a growing delay, or parks it after maxAttempts failures. */
async function jobFailed(app: FastifyInstance, job: JobRow, run: Run, err: unknown, maxAttempts: number): Promise<void> {
  run.steps++;
  const attempts = job.attempts + 1;
  const runAt = attempts >= maxAttempts ? PARKED : run.clock() + retryDelay(attempts);
  app.log.error({ err, jobId: job.id, kind: job.kind, attempts }, 'job failed');
  await failJob(app.db, job.id, attempts, err instanceof Error ? (err.stack ?? err.message) : String(err), runAt);
}

/**
 * Polls for due jobs every POLL_MS, and wakes at once on an enqueue in this process or (on
 * PostgreSQL) a NOTIFY from any process.
 */
export class JobWorker {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = true;
  private unsubscribe: Array<() => void> = [];

  constructor(
    private readonly app: FastifyInstance,
    private readonly listener: PgListener | null,
  ) {}

  async start(): Promise<void> {
    this.stopped = false;
    await scheduleMaintenance(this.app.db);
    this.unsubscribe.push(onJobEnqueued(() => this.wake()));
    if (this.listener) this.unsubscribe.push(await this.listener.listen(JOBS_CHANNEL, () => this.wake()));
    this.schedule(0);
  }

  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const off of this.unsubscribe.splice(0)) off();
    await this.running;
  }

  private schedule(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.tick(), ms);
    this.timer.unref();
  }

  private tick(): void {
    this.timer = null;
    if (this.stopped || this.running) return;
    this.again = false;
    this.running = runDueJobs(this.app, { shouldStop: () => this.stopped })
      .then(() => undefined)
      .catch((err: unknown) => this.app.log.error({ err }, 'job worker tick failed'))
      .finally(() => {
        this.running = null;
        if (!this.stopped) this.schedule(this.again ? 0 : POLL_MS);
      });
  }
}
