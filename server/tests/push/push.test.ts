import type { FastifyInstance } from 'fastify';
import webpush from 'web-push';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config';
import { deleteUserCascade } from '../../src/modules/account/account.repository';
import { enqueueNotificationEvent } from '../../src/modules/notifications/events';
import { runDueJobs } from '../../src/lib/jobs/worker';
import { expectError, expectInfo } from '../helpers/expect';
import { type TestUser, addMember, call, createFollow, createGroup, createPost, createUser } from '../helpers/fixtures';
import { createTestApp, useTestApp } from '../helpers/test-app';
import { openSibling, setLevel, setSettings } from '../notifications/support';
import { type FakePushService, PUBLIC_ADDRESS, type TestDevice, decryptPush, newDevice, pushJobs, rowsOf, startPushService, subscribe, verifyVapid } from './support';

/**
 * Web Push end to end, on the database of the run: a device subscribes, something happens that
 * notifies its user, the job worker runs, and the message the local push service receives is
 * decrypted with the device's own keys (RFC 8291) and read as the device would show it.
 */

let service: FakePushService;
beforeAll(async () => {
  service = await startPushService();
});
afterAll(async () => {
  await service.close();
});

const unsubscribe = (app: FastifyInstance, user: TestUser | null, endpoint: string) =>
  call(app, user, { method: 'DELETE', url: '/api/push/subscribe', payload: { endpoint } });

/** What the service received at the device's endpoint since `from`. */
const receivedBy = (device: TestDevice, from = 0) => service.received.slice(from).filter((push) => push.path === device.path);

describe('push: the public key', () => {
  const t = useTestApp({ PUSH_ALLOW_HTTP: 'true' });

  it('answers the VAPID public key without a login, the same on every call', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/push/key' });
    expect(res.statusCode).toBe(200);
    const { key } = res.json() as { key: string };
    expect(key).toMatch(/^[A-Za-z0-9_-]{87}$/);
    expect(Buffer.from(key, 'base64url')[0]).toBe(0x04);
    expect((await t.app.inject({ method: 'GET', url: '/api/push/key' })).json()).toEqual({ key });
  });

  it('keeps the generated pair in the database: another process on it (or a restart) signs with the same one', async () => {
    const { key } = (await t.app.inject({ method: 'GET', url: '/api/push/key' })).json() as { key: string };
    const sibling = await openSibling(t);
    try {
      expect((await sibling.inject({ method: 'GET', url: '/api/push/key' })).json()).toEqual({ key });
      expect(sibling.vapidKeys).toEqual(t.app.vapidKeys);
    } finally {
      await sibling.close();
    }
    const stored = await t.app.db.selectFrom('server_settings').select('value').where('name', '=', 'vapid_keys').execute();
    expect(stored).toHaveLength(1);
    expect(JSON.parse(stored[0]!.value)).toEqual(t.app.vapidKeys);
  });

  it('uses VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY when they are set', async () => {
    const pair = webpush.generateVAPIDKeys();
    const other = await createTestApp({ VAPID_PUBLIC_KEY: pair.publicKey, VAPID_PRIVATE_KEY: pair.privateKey });
    try {
      expect((await other.app.inject({ method: 'GET', url: '/api/push/key' })).json()).toEqual({ key: pair.publicKey });
    } finally {
      await other.close();
    }
  });
});

describe('push: configuration', () => {
  const problems = (env: Record<string, string>) => {
    try {
      loadConfig({ JWT_SECRET: 'x'.repeat(32), ...env });
      return [];
    } catch (err) {
      if (err instanceof ConfigError) return err.problems;
      throw err;
    }
  };
  const pair = webpush.generateVAPIDKeys();

  it('takes a matching pair, or none', () => {
    expect(problems({ VAPID_PUBLIC_KEY: pair.publicKey, VAPID_PRIVATE_KEY: pair.privateKey })).toEqual([]);
    expect(loadConfig({ JWT_SECRET: 'x'.repeat(32) }).vapid).toBeUndefined();
  });

  it('refuses half a pair, a key that is not one, and a pair that does not match', () => {
    expect(problems({ VAPID_PUBLIC_KEY: pair.publicKey })).toEqual([expect.stringMatching(/set together/)]);
    expect(problems({ VAPID_PUBLIC_KEY: 'short', VAPID_PRIVATE_KEY: pair.privateKey })).toEqual([expect.stringMatching(/VAPID_PUBLIC_KEY/)]);
    expect(problems({ VAPID_PUBLIC_KEY: pair.publicKey, VAPID_PRIVATE_KEY: 'short' })).toEqual([expect.stringMatching(/VAPID_PRIVATE_KEY/)]);
    const other = webpush.generateVAPIDKeys();
    expect(problems({ VAPID_PUBLIC_KEY: pair.publicKey, VAPID_PRIVATE_KEY: other.privateKey })).toEqual([expect.stringMatching(/not the public key/)]);
  });

  it('gives the push services a contact: VAPID_SUBJECT, else the MAIL_FROM address', () => {
    const config = (env: Record<string, string>) => loadConfig({ JWT_SECRET: 'x'.repeat(32), ...env });
    expect(config({}).vapidSubject).toBe('mailto:no-reply@kruh.local');
    expect(config({ MAIL_FROM: 'Kruh Example <hello@example.org>' }).vapidSubject).toBe('mailto:hello@example.org');
    expect(config({ VAPID_SUBJECT: 'https://example.org/contact' }).vapidSubject).toBe('https://example.org/contact');
    expect(problems({ VAPID_SUBJECT: 'example.org' })).toEqual([expect.stringMatching(/VAPID_SUBJECT/)]);
  });
});

describe('push: subscriptions', () => {
  const t = useTestApp({ PUSH_ALLOW_HTTP: 'true' });
  let alice: TestUser;
  let bob: TestUser;
  beforeEach(async () => {
    alice = await createUser(t.app);
    bob = await createUser(t.app);
  });

  it('needs a login to subscribe or unsubscribe', async () => {
    const device = newDevice(service);
    expectError(await subscribe(t.app, null, device.subscription), 401, 'no_token');
    expectError(await unsubscribe(t.app, null, device.subscription.endpoint), 401, 'no_token');
    expect(await rowsOf(t.app, device.subscription.endpoint)).toEqual([]);
  });

  it('stores one row per endpoint; the same endpoint again renews its keys, and another account takes it over', async () => {
    const device = newDevice(service);
    expectInfo(await subscribe(t.app, alice, device.subscription), 'push_subscribed');
    expectInfo(await subscribe(t.app, alice, device.subscription), 'push_subscribed');
    expect(await rowsOf(t.app, device.subscription.endpoint)).toEqual([{ user_id: alice.id, ...device.subscription.keys }]);

    const renewed = newDevice(service);
    const keys = renewed.subscription.keys;
    expectInfo(await subscribe(t.app, bob, { endpoint: device.subscription.endpoint, keys }), 'push_subscribed');
    expect(await rowsOf(t.app, device.subscription.endpoint)).toEqual([{ user_id: bob.id, ...keys }]);
  });

  it('removes only the caller\'s own subscription', async () => {
    const device = newDevice(service);
    expectInfo(await subscribe(t.app, alice, device.subscription), 'push_subscribed');
    // Bob cannot switch off Alice's device: the answer is the same, and her row stays.
    expectInfo(await unsubscribe(t.app, bob, device.subscription.endpoint), 'push_unsubscribed');
    expect(await rowsOf(t.app, device.subscription.endpoint)).toHaveLength(1);
    expectInfo(await unsubscribe(t.app, alice, device.subscription.endpoint), 'push_unsubscribed');
    expect(await rowsOf(t.app, device.subscription.endpoint)).toEqual([]);
    // Already gone: still fine (the device may unsubscribe after the server dropped it).
    expectInfo(await unsubscribe(t.app, alice, device.subscription.endpoint), 'push_unsubscribed');
  });

  it.each([
    ['an endpoint that is not a URL', (d: TestDevice) => ({ ...d.subscription, endpoint: 'not a url' })],
    ['a plain http endpoint off this machine', (d: TestDevice) => ({ ...d.subscription, endpoint: 'http://push.example.com/x' })],
    ['another scheme', (d: TestDevice) => ({ ...d.subscription, endpoint: 'ftp://push.example.com/x' })],
    ['an endpoint with credentials', (d: TestDevice) => ({ ...d.subscription, endpoint: 'https://user:pw@push.example.com/x' })],
    ['an endpoint over 2048 characters', (d: TestDevice) => ({ ...d.subscription, endpoint: `https://push.example.com/${'a'.repeat(2048)}` })],
    ['an empty endpoint', (d: TestDevice) => ({ ...d.subscription, endpoint: '' })],
    ['no keys', (d: TestDevice) => ({ endpoint: d.subscription.endpoint })],
    ['no endpoint', (d: TestDevice) => ({ keys: d.subscription.keys })],
    ['a public key of the wrong length', (d: TestDevice) => ({ ...d.subscription, keys: { ...d.subscription.keys, p256dh: d.subscription.keys.p256dh.slice(0, 40) } })],
    ['a public key off the curve', (d: TestDevice) => ({ ...d.subscription, keys: { ...d.subscription.keys, p256dh: Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 1)]).toString('base64url') } })],
    ['a public key that is not base64url', (d: TestDevice) => ({ ...d.subscription, keys: { ...d.subscription.keys, p256dh: `${'+/'.repeat(43)}A` } })],
    ['an auth secret that is not 16 bytes', (d: TestDevice) => ({ ...d.subscription, keys: { ...d.subscription.keys, auth: Buffer.alloc(8).toString('base64url') } })],
    ['a body that is not an object', (d: TestDevice) => [d.subscription.endpoint]],
  ])('refuses %s with error/invalid_subscription', async (_name, make) => {
    const device = newDevice(service);
    const body = make(device);
    expectError(await subscribe(t.app, alice, body), 400, 'invalid_subscription');
    expect(await t.app.db.selectFrom('push_subscriptions').select('id').where('user_id', '=', alice.id).execute()).toEqual([]);
  });

  it('refuses an unsubscribe without an endpoint', async () => {
    expectError(await call(t.app, alice, { method: 'DELETE', url: '/api/push/subscribe', payload: {} }), 400, 'invalid_subscription');
  });

  it('keeps at most 20 devices per account, forgetting the least recently renewed', async () => {
    const endpoints: string[] = [];
    for (let i = 0; i < 21; i++) {
      const device = newDevice(service);
      endpoints.push(device.subscription.endpoint);
      expectInfo(await subscribe(t.app, alice, device.subscription), 'push_subscribed');
      // Each a millisecond later than the last, so "least recently renewed" is the first.
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    const kept = await t.app.db.selectFrom('push_subscriptions').select('endpoint').where('user_id', '=', alice.id).execute();
    expect(kept.map((row) => row.endpoint).sort()).toEqual(endpoints.slice(1).sort());
  });

  it("goes with the account: deleting it removes its devices", async () => {
    const device = newDevice(service);
    expectInfo(await subscribe(t.app, alice, device.subscription), 'push_subscribed');
    await t.app.db.transaction().execute((trx) => deleteUserCascade(trx, alice.id, `account:${alice.id}`));
    expect(await rowsOf(t.app, device.subscription.endpoint)).toEqual([]);
  });
});

describe('push: plain http endpoints', () => {
  const t = useTestApp();

  it('are refused unless PUSH_ALLOW_HTTP is set, even on this machine', async () => {
    const alice = await createUser(t.app);
    const device = newDevice(service);
    expectError(await subscribe(t.app, alice, device.subscription), 400, 'invalid_subscription');
    const secure = { ...device.subscription, endpoint: `https://${PUBLIC_ADDRESS}${device.path}` };
    expectInfo(await subscribe(t.app, alice, secure), 'push_subscribed');
  });
});

describe('push: sending', () => {
  const t = useTestApp({ PUSH_ALLOW_HTTP: 'true' });
  let alice: TestUser;
  let bob: TestUser;
  let device: TestDevice;
  beforeEach(async () => {
    alice = await createUser(t.app);
    bob = await createUser(t.app);
    device = newDevice(service);
    expectInfo(await subscribe(t.app, bob, device.subscription), 'push_subscribed');
  });

  const follow = async (actor: TestUser, user: TestUser) => {
    const res = await call(t.app, actor, { method: 'POST', url: '/api/follow', payload: { following: user.id } });
    expect(res.statusCode).toBe(201);
  };

  it('encrypts a new follower to the device, which reads it in English with the profile to open', async () => {
    const from = service.received.length;
    await follow(alice, bob);
    await runDueJobs(t.app);
    const pushes = receivedBy(device, from);
    expect(pushes).toHaveLength(1);
    const push = pushes[0]!;
    expect(push.headers['content-encoding']).toBe('aes128gcm');
    expect(push.headers.ttl).toBe(String(24 * 60 * 60));
    const { key } = (await t.app.inject({ method: 'GET', url: '/api/push/key' })).json() as { key: string };
    expect(verifyVapid(push, service.origin)).toMatchObject({ k: key, sub: 'mailto:no-reply@kruh.local' });
    const notification = await t.app.db.selectFrom('notifications').select('id').where('user_id', '=', bob.id).executeTakeFirstOrThrow();
    expect(decryptPush(device, push)).toEqual({
      title: `${alice.username} started following you`,
      body: '',
      url: `/u/${alice.username}`,
      tag: `kruh-${notification.id}`,
      badge: 1,
    });
    expect(await pushJobs(t.app)).toEqual([]);
  });

  it("writes a comment's push in the recipient's language, opening the comment", async () => {
    await t.app.db.updateTable('users').set({ language: 'cs' }).where('id', '=', bob.id).execute();
    const post = await createPost(t.app, bob);
    const res = await call(t.app, alice, { method: 'POST', url: '/api/comment/', payload: { text: 'Pěkná fotka!', parent: post.id } });
    expect(res.statusCode).toBe(201);
    const commentId = (res.json() as { _id: string })._id;
    const from = service.received.length;
    await runDueJobs(t.app);
    const [push] = receivedBy(device, from);
    expect(decryptPush(device, push!)).toMatchObject({
      title: `Uživatel ${alice.username} přidal komentář k vašemu příspěvku`,
      body: 'Pěkná fotka!',
      url: `/p/${post.id}?c=${commentId}`,
      badge: 1,
    });
  });

  it('counts every unread item in the badge, and opens a group for a group event', async () => {
    await follow(alice, bob);
    await runDueJobs(t.app);
    const group = await createGroup(t.app, alice, { name: `pushgroup${Date.now()}` });
    await addMember(t.app, group.id, bob);
    const from = service.received.length;
    await enqueueNotificationEvent(t.app.db, { kind: 'group_made_admin', groupId: group.id, actorId: alice.id, userId: bob.id });
    await runDueJobs(t.app);
    const [push] = receivedBy(device, from);
    expect(decryptPush(device, push!)).toMatchObject({ title: `You are now an admin of ${group.name}`, url: `/g/${group.name}`, badge: 2 });
  });

  it('sends to every device of the recipient, and to no one else', async () => {
    const second = newDevice(service);
    const alicesDevice = newDevice(service);
    expectInfo(await subscribe(t.app, bob, second.subscription), 'push_subscribed');
    expectInfo(await subscribe(t.app, alice, alicesDevice.subscription), 'push_subscribed');
    const from = service.received.length;
    await follow(alice, bob);
    await runDueJobs(t.app);
    expect(receivedBy(device, from)).toHaveLength(1);
    expect(receivedBy(second, from)).toHaveLength(1);
    expect(receivedBy(alicesDevice, from)).toHaveLength(0);
  });

  it('sends nothing when the type is switched off in the settings: no item, no push', async () => {
    await setSettings(t.app, bob, { 0: false });
    const from = service.received.length;
    await follow(alice, bob);
    await runDueJobs(t.app);
    expect(await t.app.db.selectFrom('notifications').select('id').where('user_id', '=', bob.id).execute()).toEqual([]);
    expect(receivedBy(device, from)).toEqual([]);
    expect(await pushJobs(t.app)).toEqual([]);
  });

  it("follows the group's level: a post in a group at level none pushes nothing, at all it does", async () => {
    const group = await createGroup(t.app, alice);
    await addMember(t.app, group.id, bob);
    await setLevel(t.app, group.id, bob, 2);
    const quiet = await createPost(t.app, alice, { groupIds: [group.id] });
    let from = service.received.length;
    await enqueueNotificationEvent(t.app.db, { kind: 'post_created', postId: quiet.id });
    await runDueJobs(t.app);
    expect(receivedBy(device, from)).toEqual([]);

    await setLevel(t.app, group.id, bob, 0);
    const loud = await createPost(t.app, alice, { groupIds: [group.id], text: 'hello group' });
    from = service.received.length;
    await enqueueNotificationEvent(t.app.db, { kind: 'post_created', postId: loud.id });
    await runDueJobs(t.app);
    const [push] = receivedBy(device, from);
    expect(decryptPush(device, push!)).toMatchObject({ title: `${alice.username} posted in ${group.name}`, body: 'hello group', url: `/p/${loud.id}` });
  });

  it('removes a subscription the push service says is gone (410, 404)', async () => {
    for (const status of [410, 404]) {
      const gone = newDevice(service);
      expectInfo(await subscribe(t.app, bob, gone.subscription), 'push_subscribed');
      service.answer(gone.path, status);
      const from = service.received.length;
      const follower = await createUser(t.app);
      await follow(follower, bob);
      await runDueJobs(t.app);
      expect(receivedBy(gone, from)).toHaveLength(1);
      expect(await rowsOf(t.app, gone.subscription.endpoint)).toEqual([]);
      // The other device still got its push; nothing is left to retry.
      expect(await rowsOf(t.app, device.subscription.endpoint)).toHaveLength(1);
      expect(await pushJobs(t.app)).toEqual([]);
    }
  });

  it('tries again later when the push service fails otherwise, keeping the subscription', async () => {
    const flaky = newDevice(service);
    expectInfo(await subscribe(t.app, bob, flaky.subscription), 'push_subscribed');
    service.answer(flaky.path, 503);
    await follow(alice, bob);
    await runDueJobs(t.app);
    const [job] = await pushJobs(t.app);
    expect(job).toMatchObject({ attempts: 1 });
    expect(job!.last_error).toMatch(/503/);
    expect(await rowsOf(t.app, flaky.subscription.endpoint)).toHaveLength(1);

    // The service is back: the retry, once due, delivers.
    service.answer(flaky.path, 201);
    const from = service.received.length;
    await runDueJobs(t.app, { clock: () => Date.now() + 60_000 });
    expect(receivedBy(flaky, from)).toHaveLength(1);
    expect(await pushJobs(t.app)).toEqual([]);
  });

  it('skips an item read or deleted before its push went out, and a device that changed hands', async () => {
    const from = service.received.length;
    await follow(alice, bob);
    // The fan-out runs, its push jobs wait: Bob reads his notifications first.
    await runDueJobs(t.app, { maxSteps: 1 });
    expect(await pushJobs(t.app)).toHaveLength(1);
    await call(t.app, bob, { method: 'PATCH', url: '/api/notification/seen' });
    await runDueJobs(t.app);
    expect(receivedBy(device, from)).toEqual([]);

    const carol = await createUser(t.app);
    await follow(carol, bob);
    await runDueJobs(t.app, { maxSteps: 1 });
    // Alice logs in on Bob's device and subscribes it: Bob's pending push must not reach her.
    expectInfo(await subscribe(t.app, alice, device.subscription), 'push_subscribed');
    await runDueJobs(t.app);
    expect(receivedBy(device, from)).toEqual([]);
    expect(await pushJobs(t.app)).toEqual([]);
  });

  it('queues nothing for a user without devices', async () => {
    const carol = await createUser(t.app);
    await createFollow(t.app, alice, carol);
    await enqueueNotificationEvent(t.app.db, { kind: 'follow', actorId: alice.id, userId: carol.id });
    await runDueJobs(t.app, { maxSteps: 1 });
    expect(await t.app.db.selectFrom('notifications').select('id').where('user_id', '=', carol.id).execute()).toHaveLength(1);
    expect(await pushJobs(t.app)).toEqual([]);
  });
});
