import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dialectOf } from '../../src/db/dialect';
import { JOB_HANDLERS } from '../../src/jobs';
import { claimDueJobs, saveProgress } from '../../src/lib/jobs/jobs.repository';
import { enqueueTestJob as enqueueJob } from '../helpers/test-jobs';
import { LEASE_MS, retryDelay, runDueJobs } from '../../src/lib/jobs/worker';
import { NOTIFICATION_JOB, enqueueNotificationEvent } from '../../src/modules/notifications/events';
import { createFollow, createUser } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';
import { typesFor } from './support';

describe('durable job queue', () => {
  const t = useTestApp();
  const calls: unknown[] = [];
  let failuresLeft = 0;
  beforeAll(() => {
    // A job kind for these tests: fails while failuresLeft > 0, then runs three steps.
    JOB_HANDLERS.test_steps = async (_app, _trx, payload) => {
      calls.push(payload);
      if (failuresLeft > 0) {
        failuresLeft--;
        throw new Error('temporary failure');
      }
      const step = (payload as { step: number }).step;
      return { next: step < 3 ? { step: step + 1 } : null };
    };
  });
  afterAll(() => {
    delete JOB_HANDLERS.test_steps;
  });
  beforeEach(async () => {
    calls.length = 0;
    failuresLeft = 0;
    await t.app.db.deleteFrom('jobs').execute();
  });

  const jobs = () => t.app.db.selectFrom('jobs').selectAll().execute();

  it('runs a job step by step, saving progress, and deletes it once done', async () => {
    await enqueueJob(t.app.db, 'test_steps', { step: 1 });
    expect(await runDueJobs(t.app, { maxSteps: 2 })).toBe(2);
    const [row] = await jobs();
    expect(JSON.parse(row!.payload)).toEqual({ step: 3 });
    // Still leased: a crashed worker's job waits for the lease to expire.
    expect(await runDueJobs(t.app)).toBe(0);
    expect(await runDueJobs(t.app, { clock: () => Date.now() + LEASE_MS + 1 })).toBe(1);
    expect(calls).toEqual([{ step: 1 }, { step: 2 }, { step: 3 }]);
    expect(await jobs()).toEqual([]);
  });

  it('hands a job back at once when the worker stops gracefully mid-job', async () => {
    await enqueueJob(t.app.db, 'test_steps', { step: 1 });
    const steps = await runDueJobs(t.app, { shouldStop: () => calls.length > 0 });
    expect(steps).toBe(1);
    const [row] = await jobs();
    expect(row).toMatchObject({ locked_until: null });
    expect(JSON.parse(row!.payload)).toEqual({ step: 2 });
    // Another worker picks it up right away, without waiting for a lease.
    expect(await runDueJobs(t.app)).toBe(2);
    expect(await jobs()).toEqual([]);
  });

  it('retries a failed job with a growing backoff, keeping attempts and the last error', async () => {
    failuresLeft = 2;
    const start = Date.now();
    await enqueueJob(t.app.db, 'test_steps', { step: 1 });
    await runDueJobs(t.app);
    let [row] = await jobs();
    expect(row).toMatchObject({ attempts: 1, locked_until: null });
    expect(row!.last_error).toContain('temporary failure');
    expect(row!.run_at).toBeGreaterThanOrEqual(start + retryDelay(1));
    expect(await runDueJobs(t.app)).toBe(0);

    await runDueJobs(t.app, { clock: () => row!.run_at });
    [row] = await jobs();
    expect(row).toMatchObject({ attempts: 2 });
    expect(retryDelay(2)).toBeGreaterThan(retryDelay(1));
    await runDueJobs(t.app, { clock: () => row!.run_at });
    expect(await jobs()).toEqual([]);
    expect(calls).toHaveLength(5);
  });

  it('parks a job of an unknown kind instead of retrying it forever', async () => {
    await enqueueJob(t.app.db, 'no_such_kind', {});
    await runDueJobs(t.app);
    const [row] = await jobs();
    expect(row!.attempts).toBeGreaterThanOrEqual(10);
    expect(row!.last_error).toContain('no handler');
    expect(await runDueJobs(t.app, { clock: () => Date.now() + 365 * 24 * 3600_000 })).toBe(0);
  });

  it('leases a claimed job so no other worker takes it until the lease expires', async () => {
    await enqueueJob(t.app.db, 'test_steps', { step: 1 });
    const now = Date.now();
    const first = await claimDueJobs(t.app.db, now, LEASE_MS, 10);
    expect(first).toHaveLength(1);
    expect(await claimDueJobs(t.app.db, now + 1, LEASE_MS, 10)).toEqual([]);
    expect(await claimDueJobs(t.app.db, now + LEASE_MS + 1, LEASE_MS, 10)).toHaveLength(1);
  });

  it('claims no more jobs than asked, whatever plan the database picks', async () => {
    for (let i = 0; i < 20; i++) await enqueueJob(t.app.db, 'test_steps', { step: 1 });
    const claimed = await t.app.db.transaction().execute(async (trx) => {
      // The plan a stale or empty table's statistics can lead PostgreSQL to: the due rows looked
      // up again for every row of the table, each time skipping the rows this very update took.
      if (dialectOf(trx) === 'postgres') {
        for (const knob of ['hashagg', 'hashjoin', 'mergejoin', 'sort', 'material']) await sql.raw(`SET LOCAL enable_${knob} = off`).execute(trx);
      }
      return claimDueJobs(trx, Date.now(), LEASE_MS, 4);
    });
    expect(claimed).toHaveLength(4);
    expect((await jobs()).filter((job) => job.locked_until !== null)).toHaveLength(4);
  });

  it('makes a worker whose lease was taken over drop its step', async () => {
    await enqueueJob(t.app.db, 'test_steps', { step: 1 });
    const [stale] = await claimDueJobs(t.app.db, Date.now(), LEASE_MS, 10);
    // Another worker takes over the expired lease and finishes a step.
    expect(await runDueJobs(t.app, { maxSteps: 1, clock: () => Date.now() + LEASE_MS + 1 })).toBe(1);
    expect(await saveProgress(t.app.db, stale!.id, stale!.payload, JSON.stringify({ step: 99 }), Date.now())).toBe(false);
    expect(JSON.parse((await jobs())[0]!.payload)).toEqual({ step: 2 });
  });

  it('never runs one job twice when two workers drain at once', async () => {
    const user = await createUser(t.app);
    const actors = [];
    for (let i = 0; i < 12; i++) {
      const actor = await createUser(t.app);
      await createFollow(t.app, actor, user);
      await enqueueNotificationEvent(t.app.db, { kind: 'follow', actorId: actor.id, userId: user.id });
      actors.push(actor);
    }
    await Promise.all([runDueJobs(t.app), runDueJobs(t.app), runDueJobs(t.app)]);
    expect(await typesFor(t.app, user)).toHaveLength(12);
    expect(await jobs()).toEqual([]);
  });

  it('enqueues in the caller’s transaction: a rolled-back change leaves no job', async () => {
    await t.app.db
      .transaction()
      .execute(async (trx) => {
        await enqueueJob(trx, NOTIFICATION_JOB, { kind: 'post_created', postId: 'x' });
        throw new Error('rollback');
      })
      .catch(() => {});
    expect(await jobs()).toEqual([]);
  });
});

describe('background worker', () => {
  const t = useTestApp({ RUN_WORKER: 'true' });

  it('delivers an enqueued event without being asked', async () => {
    const [actor, user] = [await createUser(t.app), await createUser(t.app)];
    await createFollow(t.app, actor, user);
    await t.app.db.transaction().execute(async (trx) => {
      await enqueueNotificationEvent(trx, { kind: 'follow', actorId: actor.id, userId: user.id });
    });
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && (await typesFor(t.app, user)).length === 0) await new Promise((r) => setTimeout(r, 20));
    expect(await typesFor(t.app, user)).toEqual(['NEW_FOLLOWER']);
  });
});
