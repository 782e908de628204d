import { createRestAPIClient } from 'masto';
import generator from 'megalodon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebPushSubscription } from '#core/api/client-push';
import { enqueuePushes } from '../../src/modules/notifications/push/push.job';
import { runDueJobs } from '../../src/lib/jobs/worker';
import { type TestUser, addMember, call, createGroup, createUser } from '../helpers/fixtures';
import { type KruhInstance, startInstance } from '../helpers/kruh-instance';
import { useTestApp } from '../helpers/test-app';
import { type FakePushService, PUBLIC_ADDRESS, type TestDevice, decryptPush, newDevice, startPushService } from '../push/support';
import { asApp, expectShape } from './client-calls';
import { appSession, appToken, form } from './oauth-helpers';

/**
 * Web Push for fediverse apps: masto and megalodon over HTTP keep a token's subscription, and the
 * local push service receives each push the way an app's relay would, decrypted here with the
 * device's own keys (RFC 8291) and read as the app reads it.
 */

let service: FakePushService;
beforeAll(async () => {
  service = await startPushService();
});
afterAll(async () => {
  await service.close();
});

/** The messages the device received since `from`, decrypted. */
const pushesTo = (device: TestDevice, from: number) =>
  service.received.slice(from).filter((push) => push.path === device.path).map((push) => decryptPush(device, push) as Record<string, unknown>);

const subscriptionRows = (app: KruhInstance['app'], userId: string) =>
  app.db.selectFrom('client_push_subscriptions').select(['id', 'token_id', 'endpoint', 'policy']).where('user_id', '=', userId).execute();

describe('client API push subscriptions through client libraries, and their pushes', () => {
  let instance: KruhInstance;
  beforeAll(async () => {
    instance = await startInstance({ PUSH_ALLOW_HTTP: 'true' });
  });
  afterAll(async () => {
    await instance.close();
  });

  it('masto creates, reads, changes and removes the token\'s subscription', async () => {
    const ana = await createUser(instance.app);
    const masto = createRestAPIClient({ url: instance.origin, accessToken: await appToken(instance.app, ana, 'read write push') });
    const device = newDevice(service);
    const created = await masto.v1.push.subscription.create({ subscription: device.subscription, data: { alerts: { mention: true, follow: true } }, policy: 'followed' });
    expect(created).toMatchObject({
      endpoint: device.subscription.endpoint,
      standard: true,
      policy: 'followed',
      serverKey: instance.app.vapidKeys.publicKey,
      alerts: { mention: true, follow: true, favourite: false, status: false, reblog: false },
    });
    expect(await masto.v1.push.subscription.fetch()).toEqual(created);

    const updated = await masto.v1.push.subscription.update({ data: { alerts: { status: true } } });
    expect(updated).toMatchObject({ id: created.id, alerts: { mention: false, follow: false, status: true }, policy: 'all' });
    expect(await masto.v1.push.subscription.fetch()).toEqual(updated);

    await masto.v1.push.subscription.remove();
    await expect(masto.v1.push.subscription.fetch()).rejects.toMatchObject({ statusCode: 404 });
    expect(await subscriptionRows(instance.app, ana.id)).toEqual([]);
  });

  it('megalodon subscribes, reads, updates and unsubscribes', async () => {
    const ana = await createUser(instance.app);
    const client = generator('mastodon', instance.origin, await appToken(instance.app, ana, 'read write push'));
    const device = newDevice(service);
    const created = await client.subscribePushNotification(device.subscription, { alerts: { favourite: true, mention: true } });
    expect(created.data).toMatchObject({ endpoint: device.subscription.endpoint, server_key: instance.app.vapidKeys.publicKey, alerts: { favourite: true, mention: true, follow: false } });
    expect((await client.getPushSubscription()).data).toEqual(created.data);
    const updated = await client.updatePushSubscription({ alerts: { follow: true } });
    expect(updated.data).toMatchObject({ id: created.data.id, alerts: { follow: true, mention: false, favourite: false } });
    await client.deletePushSubscription();
    await expect(client.getPushSubscription()).rejects.toMatchObject({ response: { status: 404 } });
  });

  it('a form body subscribes as a JSON one does; one subscription per token, a new one replacing it', async () => {
    const ana = await createUser(instance.app);
    const token = await appToken(instance.app, ana, 'push');
    const other = await appToken(instance.app, ana, 'push');
    const first = newDevice(service);
    const formBody = (device: TestDevice, extra: Record<string, string>) =>
      form({
        'subscription[endpoint]': device.subscription.endpoint,
        'subscription[keys][p256dh]': device.subscription.keys.p256dh,
        'subscription[keys][auth]': device.subscription.keys.auth,
        ...extra,
      });
    const res = await asApp(instance.app, token, {
      method: 'POST',
      url: '/api/v1/push/subscription',
      ...formBody(first, { 'data[alerts][follow]': 'true', 'data[alerts][admin.sign_up]': 'true', 'data[alerts][mention]': 'false', 'data[policy]': 'follower' }),
    });
    expect(res.statusCode, res.body).toBe(200);
    expectShape(WebPushSubscription, res.json());
    expect(res.json()).toMatchObject({ standard: true, policy: 'follower', alerts: { follow: true, 'admin.sign_up': true, mention: false, 'admin.report': false } });

    const second = newDevice(service);
    const again = await asApp(instance.app, token, { method: 'POST', url: '/api/v1/push/subscription', ...formBody(second, {}) });
    expect(again.json()).toMatchObject({ endpoint: second.subscription.endpoint, policy: 'all', alerts: { follow: false } });
    expect(again.json().id).not.toBe(res.json().id);
    const third = await asApp(instance.app, other, { method: 'POST', url: '/api/v1/push/subscription', ...formBody(first, {}) });
    expect(third.statusCode).toBe(200);
    expect((await subscriptionRows(instance.app, ana.id)).map((row) => row.endpoint).sort()).toEqual([first.subscription.endpoint, second.subscription.endpoint].sort());
  });

  /** A person whose app subscribed a new device with these alerts and policy, and the app's token. */
  async function subscribed(alerts: Record<string, boolean>, policy = 'all') {
    const user = await createUser(instance.app);
    const token = await appToken(instance.app, user, 'read write push');
    const device = newDevice(service);
    const masto = createRestAPIClient({ url: instance.origin, accessToken: token });
    await masto.v1.push.subscription.create({ subscription: device.subscription, data: { alerts }, policy: policy as 'all' });
    return { user, token, device, masto };
  }

  const mention = async (author: TestUser, text: string) => {
    const masto = createRestAPIClient({ url: instance.origin, accessToken: await appToken(instance.app, author, 'read write') });
    return masto.v1.statuses.create({ status: text });
  };
  const follow = async (actor: TestUser, user: TestUser) => {
    expect((await call(instance.app, actor, { method: 'POST', url: '/api/follow', payload: { following: user.id } })).statusCode).toBe(201);
  };
  const notificationIds = async (user: TestUser, type: string) =>
    (await instance.app.db.selectFrom('notifications').select('id').where('user_id', '=', user.id).where('type', '=', type).execute()).map((row) => row.id);

  it('pushes a mention and a follow, encrypted to the device, with the token and the notification', async () => {
    const bob = await subscribed({ mention: true, follow: true });
    const alice = await createUser(instance.app);
    const from = service.received.length;
    const status = await mention(alice, `@${bob.user.username} see you at noon`);
    await runDueJobs(instance.app);
    const [mentionId] = await notificationIds(bob.user, 'MENTION');
    expect(pushesTo(bob.device, from)).toEqual([
      {
        access_token: bob.token,
        preferred_locale: 'en',
        notification_id: mentionId,
        notification_type: 'mention',
        icon: expect.stringMatching(new RegExp(`^${instance.origin}/`)),
        title: expect.stringContaining(alice.username),
        body: `@${bob.user.username} see you at noon`,
      },
    ]);
    // The app reads the notification the push names.
    expect(await bob.masto.v1.notifications.$select(mentionId!).fetch()).toMatchObject({ type: 'mention', status: { id: status.id } });

    const next = service.received.length;
    await follow(alice, bob.user);
    await runDueJobs(instance.app);
    const [followId] = await notificationIds(bob.user, 'NEW_FOLLOWER');
    expect(pushesTo(bob.device, next)).toMatchObject([{ notification_type: 'follow', notification_id: followId, access_token: bob.token }]);
  });

  it('pushes nothing of a type its alerts leave off: the next accepted push is the first to arrive', async () => {
    const bob = await subscribed({ follow: true, mention: false });
    const alice = await createUser(instance.app);
    const from = service.received.length;
    await mention(alice, `@${bob.user.username} are you there?`);
    await runDueJobs(instance.app);
    expect(await notificationIds(bob.user, 'MENTION')).toHaveLength(1);
    await follow(alice, bob.user);
    await runDueJobs(instance.app);
    expect(pushesTo(bob.device, from).map((push) => push.notification_type)).toEqual(['follow']);
  });

  it('follows the policy: with "followed", only those the person follows', async () => {
    const bob = await subscribed({ mention: true }, 'followed');
    const stranger = await createUser(instance.app);
    const friend = await createUser(instance.app);
    await follow(bob.user, friend);
    const from = service.received.length;
    await mention(stranger, `@${bob.user.username} hello from a stranger`);
    await runDueJobs(instance.app);
    await mention(friend, `@${bob.user.username} hello from a friend`);
    await runDueJobs(instance.app);
    expect(pushesTo(bob.device, from).map((push) => push.body)).toEqual([`@${bob.user.username} hello from a friend`]);
  });

  it("tells a private group's post only to a member: after the recipient left, its queued push is not sent", async () => {
    const bob = await subscribed({ mention: true, follow: true });
    const alice = await createUser(instance.app);
    const group = await createGroup(instance.app, alice, { isPrivate: true });
    await addMember(instance.app, group.id, bob.user);
    let from = service.received.length;
    const masto = createRestAPIClient({ url: instance.origin, accessToken: await appToken(instance.app, alice, 'read write') });
    await masto.v1.statuses.create({ status: `@${group.name} @${bob.user.username} the secret plans`, visibility: 'private' });
    await runDueJobs(instance.app);
    const pushed = pushesTo(bob.device, from);
    expect(pushed).toMatchObject([{ notification_type: 'mention', body: expect.stringContaining('the secret plans') }]);

    expect((await call(instance.app, bob.user, { method: 'DELETE', url: `/api/group/${group.name}/leave` })).statusCode).toBe(200);
    // The same notification's push, queued as the fan-out queues it, now finds its post out of reach.
    const row = await instance.app.db
      .selectFrom('notifications')
      .select(['id', 'user_id', 'created_at', 'type', 'comment_id'])
      .where('id', '=', pushed[0]!.notification_id as string)
      .executeTakeFirstOrThrow();
    from = service.received.length;
    await enqueuePushes(instance.app.db, [{ ...row, created_at: Number(row.created_at) }]);
    await runDueJobs(instance.app);
    await follow(alice, bob.user);
    await runDueJobs(instance.app);
    expect(pushesTo(bob.device, from).map((push) => push.notification_type)).toEqual(['follow']);
  });

  it('revoking the token removes its subscription, by the app or by its person', async () => {
    const ana = await createUser(instance.app);
    const bySelf = await appSession(instance.app, ana, 'read push');
    const byPerson = await appSession(instance.app, ana, 'read push');
    for (const session of [bySelf, byPerson]) {
      const res = await asApp(instance.app, session.token, { method: 'POST', url: '/api/v1/push/subscription', payload: { subscription: newDevice(service).subscription } });
      expect(res.statusCode, res.body).toBe(200);
    }
    const tokenIds = async () => (await subscriptionRows(instance.app, ana.id)).map((row) => row.token_id);
    expect(await tokenIds()).toHaveLength(2);

    const revoke = await instance.app.inject({
      method: 'POST',
      url: '/oauth/revoke',
      ...form({ client_id: bySelf.client.client_id, client_secret: bySelf.client.client_secret, token: bySelf.token }),
    });
    expect(revoke.statusCode).toBe(200);
    expect(await tokenIds()).toHaveLength(1);

    const apps = (await call(instance.app, ana, { method: 'GET', url: '/api/oauth/authorizations' })).json().apps as Array<{ id: string }>;
    expect(apps).toHaveLength(1);
    expect((await call(instance.app, ana, { method: 'DELETE', url: `/api/oauth/authorizations/${apps[0]!.id}` })).statusCode).toBe(200);
    expect(await tokenIds()).toEqual([]);
  });

  it('stops pushing once the token is no longer in force (a new password), removing the subscription', async () => {
    const bob = await subscribed({ follow: true });
    await instance.app.db.updateTable('users').set((eb) => ({ token_version: eb('token_version', '+', 1) })).where('id', '=', bob.user.id).execute();
    const from = service.received.length;
    await follow(await createUser(instance.app), bob.user);
    await runDueJobs(instance.app);
    expect(pushesTo(bob.device, from)).toEqual([]);
    expect(await subscriptionRows(instance.app, bob.user.id)).toEqual([]);
  });
});

describe('client API push subscriptions: scope and endpoints', () => {
  const t = useTestApp({ PUSH_ALLOW_HTTP: 'true' });

  it('needs the push scope: a read token is refused every call', async () => {
    const ana = await createUser(t.app);
    const reader = await appToken(t.app, ana, 'read write');
    const device = newDevice(service);
    for (const method of ['POST', 'GET', 'PUT', 'DELETE'] as const) {
      const res = await asApp(t.app, reader, { method, url: '/api/v1/push/subscription', ...(method === 'POST' || method === 'PUT' ? { payload: { subscription: device.subscription } } : {}) });
      expect({ status: res.statusCode, message: res.json().message }).toEqual({ status: 403, message: 'error/insufficient_scope' });
    }
    expect((await asApp(t.app, null, { method: 'GET', url: '/api/v1/push/subscription' })).statusCode).toBe(401);
    expect(await t.app.db.selectFrom('client_push_subscriptions').select('id').where('user_id', '=', ana.id).execute()).toEqual([]);
  });

  it('answers 404 for a token without a subscription', async () => {
    const token = await appToken(t.app, await createUser(t.app), 'push');
    for (const method of ['GET', 'PUT'] as const) {
      const res = await asApp(t.app, token, { method, url: '/api/v1/push/subscription', ...(method === 'PUT' ? { payload: { data: { alerts: { mention: true } } } } : {}) });
      expect(res.statusCode).toBe(404);
    }
    expect((await asApp(t.app, token, { method: 'DELETE', url: '/api/v1/push/subscription' })).json()).toEqual({});
  });

  it.each([
    ['a private network address', 'https://10.0.0.1/push/x'],
    ['the cloud metadata service', 'https://169.254.169.254/latest/meta-data/'],
    ['loopback over https', 'https://127.0.0.1/push/x'],
    ['plain http off this machine', `http://${PUBLIC_ADDRESS}/push/x`],
  ])('refuses an endpoint the web app\'s subscriptions are refused: %s', async (_name, endpoint) => {
    const ana = await createUser(t.app);
    const token = await appToken(t.app, ana, 'push');
    const device = newDevice(service);
    const res = await asApp(t.app, token, { method: 'POST', url: '/api/v1/push/subscription', payload: { subscription: { ...device.subscription, endpoint } } });
    expect({ status: res.statusCode, message: res.json().message }).toEqual({ status: 400, message: 'error/invalid_subscription' });
    expect(await t.app.db.selectFrom('client_push_subscriptions').select('id').where('user_id', '=', ana.id).execute()).toEqual([]);
  });

  it('refuses keys a device would not give and a policy that is none of the four', async () => {
    const token = await appToken(t.app, await createUser(t.app), 'push');
    const device = newDevice(service);
    const refused = async (payload: object) => {
      const res = await asApp(t.app, token, { method: 'POST', url: '/api/v1/push/subscription', payload });
      return { status: res.statusCode, message: res.json().message };
    };
    const bad = { status: 400, message: 'error/invalid_subscription' };
    expect(await refused({ subscription: { ...device.subscription, keys: { ...device.subscription.keys, auth: 'short' } } })).toEqual(bad);
    expect(await refused({ subscription: { endpoint: device.subscription.endpoint } })).toEqual(bad);
    expect(await refused({ subscription: device.subscription, data: { policy: 'everyone' } })).toEqual(bad);
  });
});
