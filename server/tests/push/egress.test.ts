import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { isIP } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids';
import { isPublicAddress } from '../../src/lib/egress/address';
import { runDueJobs } from '../../src/lib/jobs/worker';
import { expectError, expectInfo } from '../helpers/expect';
import { type TestUser, call, createUser } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';
import {
  type FakePushService,
  PUBLIC_ADDRESS,
  type SilentService,
  newDevice,
  pushJobs,
  rowsOf,
  startPushService,
  startSilentService,
  subscribe,
} from './support';

/**
 * Push endpoints are URLs a client hands the server, which then posts to them: each is held to the
 * outgoing-request guard when subscribed and again when the push is sent, and the connection goes
 * to the very address the guard passed, so a name that turns into this machine's address between
 * the two is never contacted.
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

describe('push: endpoints that reach this machine or its network are refused', () => {
  for (const allowHttp of [false, true]) {
    describe(allowHttp ? 'with PUSH_ALLOW_HTTP' : 'by default', () => {
      const t = useTestApp(allowHttp ? { PUSH_ALLOW_HTTP: 'true' } : {});
      let alice: TestUser;
      beforeEach(async () => {
        alice = await createUser(t.app);
      });

      const refused = async (endpoint: string) => {
        const device = newDevice(service);
        expectError(await subscribe(t.app, alice, { ...device.subscription, endpoint }), 400, 'invalid_subscription');
        expect(await t.app.db.selectFrom('push_subscriptions').select('endpoint').where('user_id', '=', alice.id).execute()).toEqual([]);
      };

      it.each([
        ['loopback with a port', () => `https://127.0.0.1:${silent.port}/push/x`],
        ['the database port on loopback', () => 'https://127.0.0.1:5432/push/x'],
        ['IPv6 loopback', () => 'https://[::1]/push/x'],
        ['loopback as one hexadecimal number', () => 'https://0x7f000001/push/x'],
        ['loopback as one decimal number', () => 'https://2130706433/push/x'],
        ['loopback in octal', () => 'https://0177.0.0.1/push/x'],
        ['loopback shortened', () => 'https://127.1/push/x'],
        ['loopback mapped into IPv6', () => 'https://[::ffff:127.0.0.1]/push/x'],
        ['loopback behind the NAT64 prefix', () => 'https://[64:ff9b::7f00:1]/push/x'],
        ['the unspecified address', () => 'https://0.0.0.0/push/x'],
        ['localhost', () => 'https://localhost/push/x'],
        ["this machine's own name", () => `https://${hostname()}/push/x`],
        ['the cloud metadata service', () => 'https://169.254.169.254/latest/meta-data/'],
        ['the IPv6 cloud metadata service', () => 'https://[fd00:ec2::254]/latest/meta-data/'],
        ['a private network address', () => 'https://10.0.0.1/push/x'],
        ['a carrier-grade NAT address', () => 'https://100.64.0.1/push/x'],
        ['an IPv6 link-local address', () => 'https://[fe80::1]/push/x'],
        ['a multicast address', () => 'https://224.0.0.1/push/x'],
        ['the broadcast address', () => 'https://255.255.255.255/push/x'],
        ['plain http to a private address', () => 'http://10.0.0.1/push/x'],
        ['plain http to the metadata service', () => 'http://169.254.169.254/latest/meta-data/'],
        ['a name that does not resolve', () => 'https://push.invalid/push/x'],
      ])('%s', async (_name, endpoint) => {
        await refused(endpoint());
      });

      it("refuses this machine's own name because of where it leads", async () => {
        const addresses = await lookup(hostname(), { all: true });
        expect(addresses.length).toBeGreaterThan(0);
        expect(addresses.some((a) => !isPublicAddress(a.address))).toBe(true);
        await refused(`https://${hostname()}:${silent.port}/push/x`);
      });

      it('takes an https endpoint on a public address', async () => {
        const device = newDevice(service);
        const endpoint = `https://${PUBLIC_ADDRESS}${device.path}`;
        expectInfo(await subscribe(t.app, alice, { ...device.subscription, endpoint }), 'push_subscribed');
        expect(await rowsOf(t.app, endpoint)).toHaveLength(1);
      });
    });
  }
});

/** Answers for names, from a table the test sets, instead of the system's resolver. */
const answers = new Map<string, string[][]>();
const asked: string[] = [];
async function resolve(name: string): Promise<Array<{ address: string; family: number }>> {
  asked.push(name);
  const queue = answers.get(name);
  if (!queue?.length) throw Object.assign(new Error(`no answer for ${name}`), { code: 'ENOTFOUND' });
  // The last answer stays once the others are used up.
  const next = queue.length > 1 ? queue.shift()! : queue[0]!;
  return next.map((address) => ({ address, family: isIP(address) }));
}

describe('push: the guard at delivery', () => {
  const t = useTestApp({ PUSH_ALLOW_HTTP: 'true', PUSH_TIMEOUT_MS: '2000' }, { resolve });
  let alice: TestUser;
  let bob: TestUser;
  beforeEach(async () => {
    alice = await createUser(t.app);
    bob = await createUser(t.app);
    answers.clear();
    asked.length = 0;
  });

  const follow = async (actor: TestUser, user: TestUser) => {
    const res = await call(t.app, actor, { method: 'POST', url: '/api/follow', payload: { following: user.id } });
    expect(res.statusCode).toBe(201);
  };

  it('connects to the address it resolved and checked: a name leading to this machine works only as PUSH_ALLOW_HTTP allows', async () => {
    answers.set('fake-push.test', [['127.0.0.1']]);
    const device = newDevice(service);
    const endpoint = `${service.origin.replace('127.0.0.1', 'fake-push.test')}${device.path}`;
    expectInfo(await subscribe(t.app, bob, { ...device.subscription, endpoint }), 'push_subscribed');
    const from = service.received.length;
    await follow(alice, bob);
    await runDueJobs(t.app);
    // The system's resolver knows no such name: the push arrived through the guard's own answer.
    expect(service.received.slice(from).filter((push) => push.path === device.path)).toHaveLength(1);
    expect(asked.filter((name) => name === 'fake-push.test').length).toBeGreaterThanOrEqual(2);
  });

  it('refuses at subscribe a name with any address that is not public', async () => {
    answers.set('mixed.test', [[PUBLIC_ADDRESS, '127.0.0.1']]);
    const device = newDevice(service);
    expectError(await subscribe(t.app, bob, { ...device.subscription, endpoint: 'https://mixed.test/push/x' }), 400, 'invalid_subscription');
  });

  it('never contacts a name that turned to this machine after it was subscribed, and drops it', async () => {
    // Public when subscribed, this machine ever after (DNS rebinding).
    answers.set('rebind.test', [[PUBLIC_ADDRESS], ['127.0.0.1']]);
    const device = newDevice(service);
    const endpoint = `https://rebind.test:${silent.port}/push/x`;
    expectInfo(await subscribe(t.app, bob, { ...device.subscription, endpoint }), 'push_subscribed');
    const before = silent.accepted;
    await follow(alice, bob);
    await runDueJobs(t.app);
    expect(asked.filter((name) => name === 'rebind.test').length).toBeGreaterThanOrEqual(2);
    expect(silent.accepted).toBe(before);
    expect(await rowsOf(t.app, endpoint)).toEqual([]);
    expect(await pushJobs(t.app)).toEqual([]);
  });

  it('never contacts a stored endpoint that is an address of this machine, and drops it', async () => {
    // Kept from before endpoints were checked.
    const device = newDevice(service);
    const endpoints = [`https://127.0.0.1:${silent.port}/push/x`, `https://[::ffff:7f00:1]:${silent.port}/push/y`];
    const now = Date.now();
    for (const endpoint of endpoints) {
      await t.app.db
        .insertInto('push_subscriptions')
        .values({ id: newId(now), user_id: bob.id, endpoint, ...device.subscription.keys, created_at: now, updated_at: now })
        .execute();
    }
    const before = silent.accepted;
    await follow(alice, bob);
    await runDueJobs(t.app);
    expect(silent.accepted).toBe(before);
    for (const endpoint of endpoints) expect(await rowsOf(t.app, endpoint)).toEqual([]);
    expect(await pushJobs(t.app)).toEqual([]);
  });
});
