import type { Executor } from '../../db/schema.js';
import { notify } from '../../db/dialect.js';
import type { JobKind, JobPayloads } from './job-handler.js';
import { type JobAddress, insertJob, insertJobs, parkJobsQueuedBefore, queueStats } from './jobs.repository.js';
import { JOBS_CHANNEL, signalJobEnqueued } from './signal.js';

export type { JobAddress };

/** Where a job that failed MAX_ATTEMPTS times is parked: kept for inspection, never claimed again. */
export const PARKED = Number.MAX_SAFE_INTEGER;

/**
 * Adds a job, in the caller's transaction when given one. On PostgreSQL a NOTIFY in the same
 * transaction wakes every process's worker when (and only if) the transaction commits.
 */
export async function enqueueJob<K extends JobKind>(
  db: Executor,
  kind: K,
  payload: JobPayloads[K],
  now: number = Date.now(),
  address: JobAddress | null = null,
): Promise<void> {
  await insertJob(db, kind, JSON.stringify(payload), now, now, address);
  await notify(db, JOBS_CHANNEL, '');
  // On SQLite the worker's claim waits for the connection, so it sees the row once committed.
  signalJobEnqueued();
}

/**
 * Adds many jobs of one kind at once (one insert per thousand, one wake-up), like enqueueJob;
 * `addressOf` says where each sends to.
 */
export async function enqueueJobs<K extends JobKind>(
  db: Executor,
  kind: K,
  payloads: JobPayloads[K][],
  now: number = Date.now(),
  addressOf?: (payload: JobPayloads[K]) => JobAddress | null,
): Promise<void> {
  if (!payloads.length) return;
  await insertJobs(db, kind, payloads.map((payload) => ({ payload: JSON.stringify(payload), address: addressOf?.(payload) ?? null })), now, now);
  await notify(db, JOBS_CHANNEL, '');
  signalJobEnqueued();
}

/** Parks the waiting jobs of a kind queued before `queuedBefore`, as failed ones are, `reason` their last error; answers how many. */
export const giveUpJobsQueuedBefore = (db: Executor, kind: JobKind, queuedBefore: number, now: number, reason: string): Promise<number> =>
  parkJobsQueuedBefore(db, kind, queuedBefore, now, reason, PARKED);

/** One kind's backlog: jobs waiting, and how long the longest-waiting due one has been due. */
export interface Backlog {
  kind: string;
  depth: number;
  oldestAgeSeconds: number;
}

/** The queue's backlog of every kind in `kinds` (0 when none waits) and of any other kind found. */
export async function queueBacklog(db: Executor, kinds: readonly string[], now: number = Date.now()): Promise<Backlog[]> {
  const stats = new Map((await queueStats(db, now)).map((row) => [row.kind, row]));
  return [...new Set([...kinds, ...stats.keys()])].map((kind) => {
    const row = stats.get(kind);
    const oldestAgeSeconds = row?.oldestDue == null ? 0 : Math.max(0, now - row.oldestDue) / 1000;
    return { kind, depth: row?.depth ?? 0, oldestAgeSeconds };
  });
}
