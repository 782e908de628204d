import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ACCOUNT_MAIL_JOB } from '../../src/modules/auth/auth.emails';
import { runDueJobs } from '../../src/lib/jobs/worker';
import { signup } from '../auth/support';
import { expectInfo, expectSignedUp } from '../helpers/expect';
import { call, createUser } from '../helpers/fixtures';
import { type TestApp, createTestApp, useTestApp } from '../helpers/test-app';
import { type FakePushService, type SilentService, newDevice, pushJobs, startPushService, startSilentService, subscribe } from '../push/support';

/**
 * Jobs of different kinds do not wait for each other: each kind runs up to its own number at once,
 * so push services that accept a connection and never answer hold push slots only, and a
 * verification mail queued behind twenty of them still goes out at once.
 */

let service: FakePushService;
let silent: SilentService;
beforeAll(async () => {
  service = await startPushService();
  silent = await startSilentService();
});
afterAll(async () => {
  await service.close();
  await silent.close();
});

/** Twenty devices of one user, all at the silent service, and something that notifies him. */
async function twentyHungDevices(app: FastifyInstance, port: number): Promise<void> {
  const alice = await createUser(app);
  const bob = await createUser(app);
  for (let i = 0; i < 20; i++) {
    const device = newDevice(service);
    expectInfo(await subscribe(app, bob, { ...device.subscription, endpoint: `http://127.0.0.1:${port}${device.path}` }), 'push_subscribed');
  }
  expect((await call(app, alice, { method: 'POST', url: '/api/follow', payload: { following: bob.id } })).statusCode).toBe(201);
}

const outboxOf = (dataDir: string) => {
  const outbox = join(dataDir, 'outbox');
  // A message being written has a hidden name until it is whole.
  return existsSync(outbox) ? readdirSync(outbox).filter((name) => name.endsWith('.eml')) : [];
};

// A long push timeout: the mail must not go out merely because the hung pushes gave up.
const ENV = { PUSH_ALLOW_HTTP: 'true', JOBS_PUSH_CONCURRENCY: '4', PUSH_TIMEOUT_MS: '120000' };

describe('jobs: kinds run side by side, each within its bound', () => {
  const t = useTestApp(ENV);

  it('sends a verification mail while twenty pushes hang on a silent push service', async () => {
    await twentyHungDevices(t.app, silent.port);
    // The fan-out: one push job per device.
    await runDueJobs(t.app, { maxSteps: 1 });
    expect(await pushJobs(t.app)).toHaveLength(20);

    const mails = () => outboxOf(t.config.dataDir);
    const running = runDueJobs(t.app);
    try {
      // As many pushes in flight as their bound, and no more.
      await vi.waitFor(() => expect(silent.open.size).toBe(4), { timeout: 5000 });

      // Someone signs up while the pushes hang: the mail job is queued after them all.
      expectSignedUp(await signup(t.app, { username: 'Prompt', email: 'prompt@example.test', password: 'secret12' }), 'signup_email');
      await vi.waitFor(() => expect(mails()).toHaveLength(1), { timeout: 5000 });
      expect(mails()[0]).toMatch(/prompt@example\.test\.eml$/);
      expect(await t.app.db.selectFrom('jobs').select('id').where('kind', '=', ACCOUNT_MAIL_JOB).execute()).toEqual([]);

      // Meanwhile not one push has come back: four are in flight, sixteen wait their turn.
      const pushes = await pushJobs(t.app);
      expect(pushes).toHaveLength(20);
      expect(pushes.filter((job) => job.locked_until !== null)).toHaveLength(4);
      expect(pushes.every((job) => job.attempts === 0)).toBe(true);
      expect(silent.open.size).toBe(4);
    } finally {
      // The silent service goes away: the hung pushes fail, the rest are refused, the run ends.
      await silent.close();
      await running;
    }
    // Every push failed at least once and waits for a retry (one due again may have been retried already).
    const failed = await pushJobs(t.app);
    expect(failed).toHaveLength(20);
    expect(failed.every((job) => job.attempts >= 1 && job.locked_until === null)).toBe(true);
  });
});

describe('jobs: the running worker', () => {
  let hung: SilentService;
  let t: TestApp;
  beforeAll(async () => {
    hung = await startSilentService();
    t = await createTestApp({ ...ENV, RUN_WORKER: 'true' });
  });
  afterAll(async () => {
    // Closing the service first ends the hung pushes, so the worker can stop.
    await hung.close();
    await t.close();
  });

  it('claims a mail enqueued while its push lane is full, without waiting for a push to end', async () => {
    await twentyHungDevices(t.app, hung.port);
    await vi.waitFor(() => expect(hung.open.size).toBe(4), { timeout: 5000 });
    expectSignedUp(await signup(t.app, { username: 'Waiting', email: 'waiting@example.test', password: 'secret12' }), 'signup_email');
    await vi.waitFor(() => expect(outboxOf(t.config.dataDir)).toHaveLength(1), { timeout: 5000 });
    expect(hung.open.size).toBe(4);
    expect((await pushJobs(t.app)).every((job) => job.attempts === 0)).toBe(true);
  });
});
