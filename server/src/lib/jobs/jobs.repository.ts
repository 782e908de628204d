import type { ExpressionBuilder, Selectable } from 'kysely';
import { lockingRead } from '../../db/dialect.js';
import type { Database, Db, Executor, JobsTable } from '../../db/schema.js';

/** The durable job queue's queries. Every process may run them; the lease keeps work single. */
export type JobRow = Selectable<JobsTable>;

/**
 * Where a job sends to: the remote host (with its port), of which only a few jobs run at once, and
 * the address on it, whose jobs run one at a time in the order queued.
 */
export interface JobAddress {
  host: string;
  target: string;
}

export async function insertJob(db: Executor, kind: string, payload: string, runAt: number, now: number, address: JobAddress | null = null): Promise<void> {
  await db
    .insertInto('jobs')
    .values({ kind, payload, run_at: runAt, locked_until: null, last_error: null, created_at: now, host: address?.host ?? null, target: address?.target ?? null })
    .execute();
}

/** Rows per INSERT: 1,000 rows of 8 columns stay under SQLite's and PostgreSQL's parameter limits. */
const INSERT_CHUNK = 1000;

/** A job's payload, and where it sends to when it does. */
export interface NewJob {
  payload: string;
  address: JobAddress | null;
}

/** Adds jobs of one kind in multi-row inserts. */
export async function insertJobs(db: Executor, kind: string, jobs: NewJob[], runAt: number, now: number): Promise<void> {
  for (let i = 0; i < jobs.length; i += INSERT_CHUNK) {
    const rows = jobs
      .slice(i, i + INSERT_CHUNK)
      .map(({ payload, address }) => ({ kind, payload, run_at: runAt, locked_until: null, last_error: null, created_at: now, host: address?.host ?? null, target: address?.target ?? null }));
    await db.insertInto('jobs').values(rows).execute();
  }
}

/** Adds the job unless a unique index already holds one like it (a singleton job kind). */
export async function insertJobUnlessPresent(db: Executor, kind: string, payload: string, runAt: number, now: number): Promise<void> {
  await db
    .insertInto('jobs')
    .values({ kind, payload, run_at: runAt, locked_until: null, last_error: null, created_at: now })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** Which kinds a claim takes: one kind, or every kind but these (kinds nothing runs). */
export type KindFilter = string | { except: string[] };

/**
 * Leases up to `limit` due jobs (of the given kinds, all when none) until now + leaseMs. On
 * PostgreSQL, SKIP LOCKED lets concurrent workers take disjoint sets; on SQLite the single
 * statement runs under the one writer lock.
 */
export async function claimDueJobs(db: Db, now: number, leaseMs: number, limit: number, kinds?: KindFilter): Promise<JobRow[]> {
  let due = db
    .selectFrom('jobs')
    .select('id')
    .where('run_at', '<=', now)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
    .orderBy('run_at')
    .orderBy('id')
    .limit(limit);
  if (typeof kinds === 'string') due = due.where('kind', '=', kinds);
  else if (kinds?.except.length) due = due.where('kind', 'not in', kinds.except);
  due = due.$call(lockingRead(db, { skipLocked: true }));
  // The due rows are chosen once, in a materialized CTE. As a subquery of the UPDATE, PostgreSQL may
  // run them again for every row it updates, and each run skips the rows this statement already
  // updated and takes the next ones: LIMIT would then bound nothing.
  const rows = await db
    .with((cte) => cte('due').materialized(), () => due)
    .updateTable('jobs')
    .set({ locked_until: now + leaseMs })
    .where('id', 'in', (eb) => eb.selectFrom('due').select('due.id'))
    .returningAll()
    .execute();
  return rows.sort((a, b) => a.run_at - b.run_at || a.id - b.id);
}

/**
 * Leases up to `limit` due jobs of one kind, as claimDueJobs does, but only the first due job of a
 * target, and none while another of its jobs is leased (a target's jobs go one at a time, in the
 * order queued); no more of one host's than leave at most `perHost` of its jobs leased (of any kind,
 * by any process); and none of a parked host. What is leased and the claim are one statement: two
 * processes claiming at once may both see room, but the lease check in the UPDATE (run again on a
 * row a concurrent claim changed) leaves each job to one of them.
 */
export async function claimDueJobsPerHost(db: Db, now: number, leaseMs: number, limit: number, kind: string, perHost: number): Promise<JobRow[]> {
  const free = (eb: ExpressionBuilder<Database, 'jobs'>) => eb.or([eb('jobs.locked_until', 'is', null), eb('jobs.locked_until', '<', now)]);
  const rows = await db
    .with('busy', (qb) =>
      qb
        .selectFrom('jobs')
        .select((eb) => ['host', eb.fn.countAll<number>().as('leased')])
        .where('host', 'is not', null)
        .where('locked_until', '>=', now)
        .groupBy('host'),
    )
    .with('ready', (qb) =>
      qb
        .selectFrom('jobs')
        .select((eb) => [
          'jobs.id',
          'jobs.host',
          'jobs.target',
          'jobs.run_at',
          eb.fn.agg<number>('row_number').over((ob) => ob.partitionBy('jobs.target').orderBy('jobs.run_at').orderBy('jobs.id')).as('turn'),
        ])
        .where('jobs.kind', '=', kind)
        .where('jobs.run_at', '<=', now)
        .where(free)
        .where((eb) =>
          eb.not(eb.exists(eb.selectFrom('job_hosts').select('job_hosts.host').whereRef('job_hosts.host', '=', 'jobs.host').where('job_hosts.parked_until', '>', now))),
        )
        .where((eb) =>
          eb.not(eb.exists(eb.selectFrom('jobs as sending').select('sending.id').whereRef('sending.target', '=', 'jobs.target').where('sending.locked_until', '>=', now))),
        ),
    )
    .with('ranked', (qb) =>
      qb
        .selectFrom('ready')
        .select((eb) => ['ready.id', 'ready.host', 'ready.run_at', eb.fn.agg<number>('row_number').over((ob) => ob.partitionBy('ready.host').orderBy('ready.run_at').orderBy('ready.id')).as('place')])
        .where((eb) => eb.or([eb('ready.target', 'is', null), eb('ready.turn', '=', 1)])),
    )
    // Materialized for the reason claimDueJobs gives.
    .with(
      (cte) => cte('due').materialized(),
      (qb) =>
        qb
          .selectFrom('ranked')
          .leftJoin('busy', 'busy.host', 'ranked.host')
          .select('ranked.id')
          .where((eb) => eb(eb('ranked.place', '+', eb.fn.coalesce('busy.leased', eb.lit(0))), '<=', perHost))
          .orderBy('ranked.run_at')
          .orderBy('ranked.id')
          .limit(limit),
    )
    .updateTable('jobs')
    .set({ locked_until: now + leaseMs })
    .where('id', 'in', (eb) => eb.selectFrom('due').select('due.id'))
    .where(free)
    .returningAll()
    .execute();
  return rows.sort((a, b) => a.run_at - b.run_at || a.id - b.id);
}

/**
 * Stores a step's progress and renews the lease, only if the payload is still the one this worker
 * read: a worker whose lease expired and was taken over finds 0 rows and must roll back its step.
 * Run first in the step's transaction, so on PostgreSQL a second holder waits here, not after
 * doing the work.
 */
export async function saveProgress(trx: Executor, id: number, expected: string, next: string, lockedUntil: number): Promise<boolean> {
  const result = await trx
    .updateTable('jobs')
    .set({ payload: next, locked_until: lockedUntil })
    .where('id', '=', id)
    .where('payload', '=', expected)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Stores a step's progress and hands the job back until `runAt` (a recurring job), under the same guard. */
export async function rescheduleJob(trx: Executor, id: number, expected: string, next: string, runAt: number): Promise<boolean> {
  const result = await trx
    .updateTable('jobs')
    .set({ payload: next, run_at: runAt, locked_until: null })
    .where('id', '=', id)
    .where('payload', '=', expected)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Removes a finished job under the same guard as saveProgress. */
export async function finishJob(trx: Executor, id: number, expected: string): Promise<boolean> {
  const result = await trx.deleteFrom('jobs').where('id', '=', id).where('payload', '=', expected).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** Gives a job back before its lease ends (a graceful stop, or letting other due jobs run). */
export async function releaseJob(db: Executor, id: number, expected: string, runAt: number): Promise<void> {
  await db.updateTable('jobs').set({ locked_until: null, run_at: runAt }).where('id', '=', id).where('payload', '=', expected).execute();
}

export async function failJob(db: Executor, id: number, attempts: number, error: string, runAt: number): Promise<void> {
  await db
    .updateTable('jobs')
    .set({ attempts, last_error: error.slice(0, 2000), run_at: runAt, locked_until: null })
    .where('id', '=', id)
    .execute();
}

/** One kind's waiting jobs: how many, and the earliest run_at among those already due (null: none is due). */
export interface QueueStats {
  kind: string;
  depth: number;
  oldestDue: number | null;
}

/** Every kind's waiting jobs, due or scheduled for later (what the metrics report). */
export async function queueStats(db: Executor, now: number): Promise<QueueStats[]> {
  const rows = await db
    .selectFrom('jobs')
    .select((eb) => [
      'kind',
      eb.fn.countAll<number>().as('depth'),
      eb.fn.min<number | null>(eb.case().when('run_at', '<=', now).then(eb.ref('run_at')).end()).as('oldestDue'),
    ])
    .groupBy('kind')
    .execute();
  // Counts come back as text from some drivers; min as text from PostgreSQL's bigint.
  return rows.map((row) => ({ kind: row.kind, depth: Number(row.depth), oldestDue: row.oldestDue === null ? null : Number(row.oldestDue) }));
}

/**
 * Parks (at `parkedAt`) the waiting jobs of a kind queued before `queuedBefore` that no worker
 * holds, with `error` as their last error. Answers how many.
 */
export async function parkJobsQueuedBefore(db: Executor, kind: string, queuedBefore: number, now: number, error: string, parkedAt: number): Promise<number> {
  const result = await db
    .updateTable('jobs')
    .set({ run_at: parkedAt, last_error: error })
    .where('kind', '=', kind)
    .where('created_at', '<', queuedBefore)
    .where('run_at', '<', parkedAt)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
