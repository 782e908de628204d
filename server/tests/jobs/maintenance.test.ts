import { beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '#core/limits';
import { IDEMPOTENCY_TTL_MS } from '../../src/lib/idempotency';
import { MAINTENANCE_TASKS } from '../../src/jobs';
import { MAINTENANCE_EVERY_MS, MAINTENANCE_JOB, maintenanceStep, scheduleMaintenance } from '../../src/modules/jobs/maintenance';
import { DELIVERY_LIFETIME_MS, FEDERATION_DELIVERY_JOB } from '../../src/modules/federation/outbound/delivery';
import { PARKED } from '../../src/lib/jobs/queue';
import { JobWorker, runDueJobs } from '../../src/lib/jobs/worker';
import { createGroup, createUser, deleteOwnAccount, type TestUser } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';

describe('maintenance job', () => {
  // A rate window longer than the comment window: the purge must keep what this window still counts.
  const t = useTestApp({ RATE_WINDOW_MS: String(2 * LIMITS.commentWindowMs) });
  let user: TestUser;
  beforeAll(async () => {
    user = await createUser(t.app);
  });

  const maintenanceJobs = () => t.app.db.selectFrom('jobs').selectAll().where('kind', '=', MAINTENANCE_JOB).execute();

  it('is seeded once however many workers start, and purges old keys and rate events on each run', async () => {
    const now = Date.now();
    const window = 2 * LIMITS.commentWindowMs;
    await t.app.db
      .insertInto('idempotency_keys')
      .values([
        { user_id: user.id, key: 'expired-key', route: 'POST /api/post', request_hash: 'x', status: 201, body: '{}', created_at: now - IDEMPOTENCY_TTL_MS - 1000 },
        { user_id: user.id, key: 'recent-key', route: 'POST /api/post', request_hash: 'x', status: 201, body: '{}', created_at: now - 1000 },
      ])
      .execute();
    await t.app.db
      .insertInto('rate_events')
      .values([
        { key: 'post:old', created_at: now - window - 1000 },
        { key: 'post:inside', created_at: now - window + 60_000 },
      ])
      .execute();

    // Two processes' workers starting at once: one job.
    const workers = [new JobWorker(t.app, null), new JobWorker(t.app, null)];
    await Promise.all(workers.map((worker) => worker.start()));
    await Promise.all(workers.map((worker) => worker.stop()));
    await scheduleMaintenance(t.app.db);
    expect(await maintenanceJobs()).toHaveLength(1);
    // The workers may have run it already; make it due again for a run on this test's clock.
    await t.app.db.updateTable('jobs').set({ run_at: 0 }).where('kind', '=', MAINTENANCE_JOB).execute();

    const ranAt = Date.now();
    await runDueJobs(t.app, { clock: () => ranAt });
    const keys = await t.app.db.selectFrom('idempotency_keys').select('key').where('user_id', '=', user.id).execute();
    expect(keys.map((row) => row.key)).toEqual(['recent-key']);
    const events = await t.app.db.selectFrom('rate_events').select('key').where('key', 'like', 'post:%').execute();
    expect(events.map((row) => row.key)).toEqual(['post:inside']);

    // It stays queued for its next run, not before.
    const [job] = await maintenanceJobs();
    expect(job).toMatchObject({ run_at: ranAt + MAINTENANCE_EVERY_MS, locked_until: null, attempts: 0 });
    await t.app.db.insertInto('rate_events').values({ key: 'post:old', created_at: ranAt - window - 1000 }).execute();
    expect(await runDueJobs(t.app, { clock: () => ranAt + 1000 })).toBe(0);
    expect(await runDueJobs(t.app, { clock: () => ranAt + MAINTENANCE_EVERY_MS })).toBe(1);
    const left = await t.app.db.selectFrom('rate_events').select('key').where('key', '=', 'post:old').execute();
    expect(left).toEqual([]);
    expect(await maintenanceJobs()).toHaveLength(1);
  });

  it('forgets the keys of deleted actors once no queued delivery still needs them', async () => {
    const gone = await createUser(t.app);
    const group = await createGroup(t.app, user);
    const now = Date.now();
    const keyOf = (actorId: string) => ({ actor_id: actorId, algorithm: 'Ed25519', public_key: '{}', private_key: '{}', created_at: now });
    await t.app.db.insertInto('federation_keys').values([keyOf(user.id), keyOf(group.id), keyOf(gone.id)]).execute();
    expect(await deleteOwnAccount(t.app, gone).then((res) => res.statusCode)).toBe(200);
    // The actor's Delete, still to be tried again, is signed with its key.
    await t.app.db
      .insertInto('jobs')
      .values({ kind: FEDERATION_DELIVERY_JOB, payload: JSON.stringify({ actorId: gone.id, inbox: 'https://remote.example/inbox' }), run_at: now + 60_000, locked_until: null, last_error: null, created_at: now })
      .execute();
    const keptFor = () => t.app.db.selectFrom('federation_keys').select('actor_id').where('actor_id', 'in', [user.id, group.id, gone.id]).execute();
    const maintain = (at: number) => maintenanceStep(MAINTENANCE_TASKS)(t.app, t.app.db, { lastRunAt: null }, at);

    await maintain(now);
    expect((await keptFor()).map((row) => row.actor_id).sort()).toEqual([user.id, group.id, gone.id].sort());

    // Given up on (parked), it needs the key no more.
    await t.app.db.updateTable('jobs').set({ run_at: PARKED }).where('kind', '=', FEDERATION_DELIVERY_JOB).execute();
    await maintain(now + 1000);
    expect((await keptFor()).map((row) => row.actor_id).sort()).toEqual([user.id, group.id].sort());
  });

  it('gives up deliveries queued longer than their lifetime, and forgets the failing hosts nothing waits for', async () => {
    const now = Date.now();
    const delivery = (host: string, queuedAt: number) => ({
      kind: FEDERATION_DELIVERY_JOB,
      payload: JSON.stringify({ actorId: user.id, inbox: `https://${host}/inbox`, queuedAt }),
      run_at: queuedAt,
      locked_until: null,
      last_error: null,
      created_at: queuedAt,
      host,
    });
    // A host parked for two days: its delivery was never even tried.
    await t.app.db.insertInto('jobs').values([delivery('gone.example', now - DELIVERY_LIFETIME_MS - 1), delivery('slow.example', now - DELIVERY_LIFETIME_MS + 60_000)]).execute();
    await t.app.db
      .insertInto('job_hosts')
      .values(['gone.example', 'slow.example', 'quiet.example'].map((host) => ({ host, failures: 7, parks: 3, parked_until: now + 60_000, updated_at: now })))
      .execute();

    await maintenanceStep(MAINTENANCE_TASKS)(t.app, t.app.db, { lastRunAt: null }, now);
    const jobs = await t.app.db.selectFrom('jobs').select(['host', 'run_at']).where('kind', '=', FEDERATION_DELIVERY_JOB).where('host', 'is not', null).orderBy('host').execute();
    expect(jobs).toEqual([
      { host: 'gone.example', run_at: PARKED },
      { host: 'slow.example', run_at: now - DELIVERY_LIFETIME_MS + 60_000 },
    ]);
    const hosts = await t.app.db.selectFrom('job_hosts').select('host').execute();
    expect(hosts).toEqual([{ host: 'slow.example' }]);
  });
});
