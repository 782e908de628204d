import type { FastifyInstance } from 'fastify';
import type { JobStep, LaneBound, OutsideJob } from './job-handler.js';
import { type JobRow, type KindFilter, claimDueJobs, claimDueJobsPerHost, failJob, finishJob, releaseJob, rescheduleJob, saveProgress } from './jobs.repository.js';
import type { PgListener } from './pg-listener.js';
import { JOBS_CHANNEL, onJobEnqueued } from './signal.js';
import { PARKED } from './queue.js';

export const LEASE_MS = 30_000;
export const POLL_MS = 500;
/** How jobs of a kind run, for kinds app.jobConcurrency does not name: one at a time. */
const DEFAULT_BOUND: LaneBound = { jobs: 1 };
/**
 * A lane of at least this many slots (deliveries) claims again when a quarter of them is free, not
 * after each job: every claim is a statement over the lane's whole backlog, and on SQLite it holds
 * the process, its readers included, while it runs.
 */
const BATCHED_LANE = 4;
/** Steps one claim may run before the job goes back in line, so a huge fan-out does not starve others. */
const STEPS_PER_CLAIM = 20;
const MAX_ATTEMPTS = 10;
const MAX_BACKOFF_MS = 60 * 60 * 1000;

class LostLease extends Error {}

export interface RunOptions {
  /** Stop after this many steps in total, leaving the current job leased (tests: a crash mid-run). */
  maxSteps?: number;
  /** The clock (tests move it past a lease). */
  clock?: () => number;
  /** Checked between steps: true hands the current job back and returns. */
  shouldStop?: () => boolean;
  /**
   * Subscribes the run to "new jobs may be due" (answers the unsubscribe): the worker's wake-ups,
   * which include other processes' NOTIFY. By default, jobs enqueued in this process.
   */
  wakeups?: (wake: () => void) => () => void;
}

export function retryDelay(attempts: number): number {
  return Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.max(0, attempts - 1));
}

interface Run {
  clock: () => number;
  options: RunOptions;
  steps: number;
}

const budgetLeft = (run: Run) => run.options.maxSteps === undefined || run.steps < run.options.maxSteps;

/** The key under which jobs of kinds nothing handles are claimed (to be parked). */
const UNHANDLED: unique symbol = Symbol('unhandled');
type Lane = string | typeof UNHANDLED;
interface Claimed {
  job: JobRow;
  lane: Lane;
}

/**
 * Runs due jobs until none is left (or a limit of the options): what the worker does on each
 * tick, and what tests call instead of a running worker. Returns the number of steps run.
 *
 * Each kind has its own lane: up to app.jobConcurrency[kind] of its jobs run at once, claimed
 * apart from the other kinds', so push services that never answer fill the push lane only and
 * a mail queued after them is claimed and sent at once. A lane bound per host also takes no more
 * of one host's jobs than its bound, so inboxes that never answer hold a few delivery slots, not
 * all. While jobs are in flight the run claims again whenever one ends, a job is enqueued, or
 * POLL_MS passes.
 */
export async function runDueJobs(app: FastifyInstance, options: RunOptions = {}): Promise<number> {
  const run: Run = { clock: options.clock ?? Date.now, options, steps: 0 };
  const busy = new Map<Lane, number>();
  const inFlight = new Set<Promise<void>>();
  // Woken by a signal, the poll or a job of a lane that is not batched, the run claims in every lane
  // with room: a job that ends may have queued jobs of another kind (a fan-out, pushes), and its
  // signal comes before its transaction commits. Woken by the end of a batched lane's job (a
  // delivery, which queues nothing), it claims in that lane only, once it has room for a batch.
  let woken: boolean;
  let everyLane = true;
  const ended = new Set<Lane>();
  let resume: (() => void) | null = null;
  const wake = () => {
    woken = true;
    resume?.();
  };
  const signalled = () => {
    everyLane = true;
    wake();
  };
  const unsubscribe = (options.wakeups ?? onJobEnqueued)(signalled);
  let failure: { err: unknown } | null = null;
  try {
    for (;;) {
      woken = false;
      // With nothing in flight, every lane is looked at before the run may end.
      const only = everyLane || inFlight.size === 0 ? null : new Set(ended);
      everyLane = false;
      ended.clear();
      // After a failure of the queue itself (not of a job), the jobs in flight finish and no more start.
      if (!failure && !options.shouldStop?.()) {
        for (const { job, lane } of await claimRound(app, run, busy, inFlight.size, only)) {
          busy.set(lane, (busy.get(lane) ?? 0) + 1);
          const task: Promise<void> = runJob(app, job, run)
            .catch((err: unknown) => {
              failure ??= { err };
            })
            .finally(() => {
              busy.set(lane, (busy.get(lane) ?? 1) - 1);
              inFlight.delete(task);
              if (isBatched(app, lane)) {
                ended.add(lane);
                wake();
              } else signalled();
            });
          inFlight.add(task);
        }
      }
      // A job that ended during the claims may have queued jobs those claims could not see yet.
      if (woken) continue;
      if (!inFlight.size) break;
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        resume = resolve;
        timer = setTimeout(signalled, POLL_MS);
      });
      resume = null;
      clearTimeout(timer);
    }
  } finally {
    unsubscribe();
  }
  if (failure) throw (failure as { err: unknown }).err;
  return run.steps;
}

const boundOf = (app: FastifyInstance, lane: Lane): LaneBound => (typeof lane === 'string' ? (app.jobConcurrency[lane] ?? DEFAULT_BOUND) : DEFAULT_BOUND);
const isBatched = (app: FastifyInstance, lane: Lane) => boundOf(app, lane).jobs >= BATCHED_LANE;

/**
 * Claims, lane by lane, as many due jobs as each lane has room for (and the step budget allows);
 * with `only`, in those lanes alone, and in a batched one only once a quarter of it is free (or
 * none of it is busy). Between lanes it lets the process serve what waits (requests).
 */
async function claimRound(
  app: FastifyInstance,
  run: Run,
  busy: Map<Lane, number>,
  inFlight: number,
  only: Set<Lane> | null,
): Promise<Claimed[]> {
  // Every job claimed takes at least one step: never claim more than the budget has left.
  let room = run.options.maxSteps === undefined ? Infinity : run.options.maxSteps - run.steps - inFlight;
  const kinds = Object.keys(app.jobHandlers);
  const lanes: Array<{ lane: Lane; bound: LaneBound; filter: KindFilter }> = [
    ...kinds.map((kind) => ({ lane: kind, bound: boundOf(app, kind), filter: kind })),
    { lane: UNHANDLED, bound: DEFAULT_BOUND, filter: { except: kinds } },
  ];
  const claimed: Claimed[] = [];
  const now = run.clock();
  for (const { lane, bound, filter } of lanes) {
    if (only && !only.has(lane)) continue;
    const running = busy.get(lane) ?? 0;
    const wanted = Math.min(room, bound.jobs - running);
    if (wanted <= 0) continue;
    if (only && running > 0 && bound.jobs >= BATCHED_LANE && wanted < Math.ceil(bound.jobs / BATCHED_LANE)) continue;
    const leaseMs = bound.leaseMs ?? LEASE_MS;
    const jobs =
      bound.perHost !== undefined && typeof filter === 'string'
        ? await claimDueJobsPerHost(app.db, now, leaseMs, wanted, filter, bound.perHost)
        : await claimDueJobs(app.db, now, leaseMs, wanted, filter);
    room -= jobs.length;
    claimed.push(...jobs.map((job): Claimed => ({ job, lane })));
    if (claimed.length) await new Promise((resolve) => setImmediate(resolve));
  }
  return claimed;
}

/** A stored payload, as the handler of its row's kind takes it: only enqueueJob of that kind wrote it. */
const parsePayload = (stored: string): never => JSON.parse(stored) as never;

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
        const result = await handler(app, trx, parsePayload(payload), now);
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

async function runOutside(app: FastifyInstance, job: JobRow, run: Run, handler: OutsideJob<never>): Promise<void> {
  try {
    await handler.outside(app, parsePayload(job.payload), run.clock());
  } catch (err) {
    await jobFailed(app, job, run, err, handler.maxAttempts ?? MAX_ATTEMPTS, handler.retryDelay);
    return;
  }
  run.steps++;
  if (!(await finishJob(app.db, job.id, job.payload))) {
    app.log.warn({ jobId: job.id }, 'job taken over by another worker after its lease expired');
  }
}

/** Puts a failed job back in line after a growing delay, or parks it after maxAttempts failures. */
async function jobFailed(
  app: FastifyInstance,
  job: JobRow,
  run: Run,
  err: unknown,
  maxAttempts: number,
  delay: (attempts: number) => number = retryDelay,
): Promise<void> {
  run.steps++;
  const attempts = job.attempts + 1;
  const runAt = attempts >= maxAttempts ? PARKED : run.clock() + delay(attempts);
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
  /** Wakes the run in progress, which claims again at once (a mail enqueued while pushes hang). */
  private wakeRun: (() => void) | null = null;

  constructor(
    private readonly app: FastifyInstance,
    private readonly listener: PgListener | null,
  ) {}

  async start(): Promise<void> {
    this.stopped = false;
    for (const seed of this.app.recurringJobs) await seed(this.app.db);
    this.unsubscribe.push(onJobEnqueued(() => this.wake()));
    if (this.listener) this.unsubscribe.push(await this.listener.listen(JOBS_CHANNEL, () => this.wake()));
    this.schedule(0);
  }

  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      this.wakeRun?.();
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
    const wakeups = (wake: () => void) => {
      this.wakeRun = wake;
      return () => {
        this.wakeRun = null;
      };
    };
    this.running = runDueJobs(this.app, { shouldStop: () => this.stopped, wakeups })
      .then(() => undefined)
      .catch((err: unknown) => this.app.log.error({ err }, 'job worker tick failed'))
      .finally(() => {
        this.running = null;
        if (!this.stopped) this.schedule(this.again ? 0 : POLL_MS);
      });
  }
}
