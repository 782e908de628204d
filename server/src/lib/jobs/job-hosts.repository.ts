import type { Executor } from '../../db/schema.js';

/** The queries of the remote hosts whose last request failed (job_hosts), which every process shares. */

export interface HostStreak {
  failures: number;
  parks: number;
  parkedUntil: number | null;
}

/** Counts one more failure of the host in a row; answers its streak as it now stands. */
export async function addHostFailure(db: Executor, host: string, now: number): Promise<HostStreak> {
  const row = await db
    .insertInto('job_hosts')
    .values({ host, failures: 1, parks: 0, parked_until: null, updated_at: now })
    .onConflict((oc) => oc.column('host').doUpdateSet((eb) => ({ failures: eb('job_hosts.failures', '+', 1), updated_at: now })))
    .returning(['failures', 'parks', 'parked_until'])
    .executeTakeFirstOrThrow();
  // PostgreSQL's bigint comes back as text from some drivers.
  return { failures: Number(row.failures), parks: Number(row.parks), parkedUntil: row.parked_until === null ? null : Number(row.parked_until) };
}

/**
 * Parks the host until `until`, unless it is parked already or another process parked it since
 * its streak read `parks`: of several failures at once, one parks it. Answers whether this did.
 */
export async function parkHost(db: Executor, host: string, parks: number, until: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('job_hosts')
    .set({ parked_until: until, parks: parks + 1, updated_at: now })
    .where('host', '=', host)
    .where('parks', '=', parks)
    .where((eb) => eb.or([eb('parked_until', 'is', null), eb('parked_until', '<=', now)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Ends the host's streak (it answered); answers how many times it had been parked in it, undefined without one. */
export async function endHostStreak(db: Executor, host: string): Promise<number | undefined> {
  const row = await db.deleteFrom('job_hosts').where('host', '=', host).returning('parks').executeTakeFirst();
  return row === undefined ? undefined : Number(row.parks);
}

/** Hosts parked now, and hosts whose last request failed but are not parked. */
export async function countHostStates(db: Executor, now: number): Promise<{ parked: number; failing: number }> {
  const rows = await db
    .selectFrom('job_hosts')
    .select((eb) => [eb.fn.countAll<number>().as('hosts'), eb.fn.sum<number | null>(eb.case().when('parked_until', '>', now).then(1).else(0).end()).as('parked')])
    .executeTakeFirstOrThrow();
  const parked = Number(rows.parked ?? 0);
  return { parked, failing: Number(rows.hosts) - parked };
}

/** Forgets the streaks of hosts no waiting job talks to any more (parked jobs, at `parkedAt`, do not count). */
export async function forgetIdleHosts(db: Executor, parkedAt: number): Promise<void> {
  await db
    .deleteFrom('job_hosts')
    .where((eb) => eb.not(eb.exists(eb.selectFrom('jobs').select('jobs.id').whereRef('jobs.host', '=', 'job_hosts.host').where('jobs.run_at', '<', parkedAt))))
    .execute();
}
