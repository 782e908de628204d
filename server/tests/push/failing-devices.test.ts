import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runDueJobs } from '../../src/lib/jobs/worker';
import { expectInfo } from '../helpers/expect';
import { type TestUser, call, createUser } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';
import { type FakePushService, type SilentService, newDevice, pushJobs, rowsOf, startPushService, startSilentService, subscribe } from './support';

/**
 * A device whose push service keeps failing (an error status, no answer within the timeout, no
 * connection) is tried a bounded number of times in a row, PUSH_MAX_FAILURES, then forgotten; a
 * delivery in between starts the count again.
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

describe('push: devices that keep failing', () => {
  const t = useTestApp({ PUSH_ALLOW_HTTP: 'true', PUSH_MAX_FAILURES: '3', PUSH_TIMEOUT_MS: '300' });
  let bob: TestUser;
  beforeEach(async () => {
    bob = await createUser(t.app);
  });

  /** Something that notifies Bob, with its fan-out run: one push job per device of his. */
  const notifyBob = async () => {
    const actor = await createUser(t.app);
    expect((await call(t.app, actor, { method: 'POST', url: '/api/follow', payload: { following: bob.id } })).statusCode).toBe(201);
    await runDueJobs(t.app, { maxSteps: 1 });
  };
  const failuresOf = async (endpoint: string) =>
    (await t.app.db.selectFrom('push_subscriptions').select('failures').where('endpoint', '=', endpoint).executeTakeFirst())?.failures;

  /** Runs what is due an hour on, past any retry's delay, as often as asked. */
  let clock = Date.now();
  const retry = async () => {
    clock += 60 * 60 * 1000;
    await runDueJobs(t.app, { clock: () => clock });
  };

  it('drops a device whose service never answers after the third timeout in a row, and its push with it', async () => {
    const hung = newDevice(service);
    const endpoint = `http://127.0.0.1:${silent.port}${hung.path}`;
    expectInfo(await subscribe(t.app, bob, { ...hung.subscription, endpoint }), 'push_subscribed');
    const working = newDevice(service);
    expectInfo(await subscribe(t.app, bob, working.subscription), 'push_subscribed');
    const accepted = silent.accepted;
    await notifyBob();

    await retry();
    expect(await failuresOf(endpoint)).toBe(1);
    // The other device got its push, and is not held to the hung one's fate.
    expect(service.received.filter((push) => push.path === working.path)).toHaveLength(1);
    expect(await pushJobs(t.app)).toMatchObject([{ attempts: 1 }]);
    await retry();
    expect(await failuresOf(endpoint)).toBe(2);
    await retry();
    expect(await rowsOf(t.app, endpoint)).toEqual([]);
    expect(await pushJobs(t.app)).toEqual([]);
    expect(silent.accepted - accepted).toBe(3);
    expect(await rowsOf(t.app, working.subscription.endpoint)).toHaveLength(1);
  });

  it('counts failures across pushes, and starts again after a delivery', async () => {
    const flaky = newDevice(service);
    const endpoint = flaky.subscription.endpoint;
    expectInfo(await subscribe(t.app, bob, flaky.subscription), 'push_subscribed');
    service.answer(flaky.path, 503);
    await notifyBob();
    await retry();
    await retry();
    expect(await failuresOf(endpoint)).toBe(2);

    service.answer(flaky.path, 201);
    await retry();
    expect(await failuresOf(endpoint)).toBe(0);
    expect(await pushJobs(t.app)).toEqual([]);

    // Two new pushes fail once each: two in a row, still kept.
    service.answer(flaky.path, 503);
    await notifyBob();
    await notifyBob();
    await retry();
    expect(await failuresOf(endpoint)).toBe(2);
    expect(await pushJobs(t.app)).toHaveLength(2);
    // The third failure in a row drops it; the other push then finds no device and ends.
    await retry();
    expect(await rowsOf(t.app, endpoint)).toEqual([]);
    await retry();
    expect(await pushJobs(t.app)).toEqual([]);
  });

  it('starts the count again when the device subscribes anew', async () => {
    const device = newDevice(service);
    expectInfo(await subscribe(t.app, bob, device.subscription), 'push_subscribed');
    service.answer(device.path, 500);
    await notifyBob();
    await retry();
    expect(await failuresOf(device.subscription.endpoint)).toBe(1);
    expectInfo(await subscribe(t.app, bob, device.subscription), 'push_subscribed');
    expect(await failuresOf(device.subscription.endpoint)).toBe(0);
  });
});
