import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { dialectOf } from '../../src/db/dialect';
import { claimDueJobsPerHost, failJob } from '../../src/lib/jobs/jobs.repository';
import { enqueueTestJob as enqueueJob } from '../helpers/test-jobs';
import { LEASE_MS } from '../../src/lib/jobs/worker';
import { useTestApp } from '../helpers/test-app';

/**
 * Claims bound per host: however many of a host's jobs are due, no more than the bound are leased
 * at once, counting those leased before (by any process), and none of a parked host's.
 */

const KIND = 'test_host_calls';

describe('claims bound per host', () => {
  const t = useTestApp();

  const hostsOf = (jobs: Array<{ host: string | null }>) => jobs.map((job) => job.host).sort();

  it('leases at most the bound of one host at once, whatever the plan, and none of a parked host', async () => {
    const now = Date.now();
    // Each to an inbox of its own: only the host's bound holds them back.
    const at = (host: string, i: number) => ({ host, target: `https://${host}/users/${i}/inbox` });
    for (let i = 0; i < 6; i++) await enqueueJob(t.app.db, KIND, { i }, now - 10, at('busy.example', i));
    await enqueueJob(t.app.db, KIND, { i: 6 }, now - 10, at('other.example', 6));
    await enqueueJob(t.app.db, KIND, { i: 7 }, now - 10, at('parked.example', 7));
    await t.app.db.insertInto('job_hosts').values({ host: 'parked.example', failures: 5, parks: 1, parked_until: now + 10_000, updated_at: now }).execute();

    const claim = (at: number) =>
      t.app.db.transaction().execute(async (trx) => {
        // The plan a stale or empty table's statistics can lead PostgreSQL to (see the queue's own test).
        if (dialectOf(trx) === 'postgres') {
          for (const knob of ['hashagg', 'hashjoin', 'mergejoin', 'sort', 'material']) await sql.raw(`SET LOCAL enable_${knob} = off`).execute(trx);
        }
        return claimDueJobsPerHost(trx, at, LEASE_MS, 10, KIND, 2);
      });

    expect(hostsOf(await claim(now))).toEqual(['busy.example', 'busy.example', 'other.example']);
    // Those two still leased: nothing more of busy.example, however much room the claim has.
    expect(await claim(now + 1)).toEqual([]);

    // One ends: one more of busy.example may go.
    const [leased] = await t.app.db.selectFrom('jobs').select('id').where('host', '=', 'busy.example').where('locked_until', 'is not', null).execute();
    await t.app.db.deleteFrom('jobs').where('id', '=', leased!.id).execute();
    expect(hostsOf(await claim(now + 2))).toEqual(['busy.example']);

    // The park over (the other leases still held), the parked host's job is claimed.
    expect(hostsOf(await claim(now + 10_001))).toEqual(['parked.example']);
  });

  it("leases a target's jobs one at a time, in the order queued, and a failed one does not hold up the next", async () => {
    const now = Date.now();
    const inbox = { host: 'order.example', target: 'https://order.example/inbox' };
    // A kind of its own: the jobs of the test before are still there.
    const kind = 'test_inbox_calls';
    for (let i = 0; i < 3; i++) await enqueueJob(t.app.db, kind, { n: i }, now - 10 + i, inbox);
    const claim = (at: number) => claimDueJobsPerHost(t.app.db, at, LEASE_MS, 10, kind, 5);
    const payloads = (jobs: Array<{ payload: string }>) => jobs.map((job) => JSON.parse(job.payload) as unknown);

    const [first] = await claim(now);
    expect(payloads([first!])).toEqual([{ n: 0 }]);
    expect(await claim(now + 1)).toEqual([]);
    // The first fails and waits for its retry: the next in line goes.
    await failJob(t.app.db, first!.id, 1, 'no answer', now + 60_000);
    expect(payloads(await claim(now + 2))).toEqual([{ n: 1 }]);
  });
});
