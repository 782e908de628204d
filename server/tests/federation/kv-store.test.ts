import { Temporal } from '@js-temporal/polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseKvStore, KEY_CACHE_LIFETIME_MS, purgeExpiredKv } from '../../src/modules/federation/kv-store';
import { MAINTENANCE_TASKS } from '../../src/jobs';
import { maintenanceStep } from '../../src/modules/jobs/maintenance';
import { AS_CONTEXT, type FakeFediverse, PUBLIC, deliverToInbox, startFakeFediverse } from '../helpers/fake-fediverse';
import { createUser } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';

/** Fedify's key-value store in the database: shared by every process, expiring, listed by prefix. */
describe('federation key-value store', () => {
  const t = useTestApp();

  it('keeps a value for every store on the same database, until deleted', async () => {
    const one = new DatabaseKvStore(t.app.db);
    const other = new DatabaseKvStore(t.app.db);
    await one.set(['activity', 'https://a.example/1'], { seen: true });
    expect(await other.get(['activity', 'https://a.example/1'])).toEqual({ seen: true });
    expect(await other.get(['activity', 'https://a.example/2'])).toBeUndefined();
    await one.set(['activity', 'https://a.example/1'], 2);
    expect(await other.get(['activity', 'https://a.example/1'])).toBe(2);
    await other.delete(['activity', 'https://a.example/1']);
    expect(await one.get(['activity', 'https://a.example/1'])).toBeUndefined();
  });

  it('reads a value past its lifetime as missing, and lists it no more', async () => {
    let clock = 1_000_000;
    const kv = new DatabaseKvStore(t.app.db, { now: () => clock });
    await kv.set(['expiring', 'short'], 'x', { ttl: Temporal.Duration.from({ minutes: 1 }) });
    await kv.set(['expiring', 'long'], 'y', { ttl: Temporal.Duration.from({ hours: 1 }) });
    await kv.set(['expiring', 'kept'], 'z');
    clock += 59_000;
    expect(await kv.get(['expiring', 'short'])).toBe('x');
    clock += 1_000;
    expect(await kv.get(['expiring', 'short'])).toBeUndefined();
    expect(await kv.get(['expiring', 'long'])).toBe('y');
    const listed = [];
    for await (const entry of kv.list(['expiring'])) listed.push(entry.key.join('/'));
    expect(listed).toEqual(['expiring/kept', 'expiring/long']);
    clock += 60 * 60_000;
    expect(await kv.get(['expiring', 'long'])).toBeUndefined();
    expect(await kv.get(['expiring', 'kept'])).toBe('z');
  });

  it('gives a cached public key a lifetime of its own when Fedify names none, and keeps a shorter one it names', async () => {
    const clock = 5_000_000;
    const kv = new DatabaseKvStore(t.app.db, { now: () => clock });
    await kv.set(['_fedify', 'publicKey', 'https://a.example/users/x#main-key'], { id: 'key' });
    await kv.set(['_fedify', 'publicKey', 'https://a.example/users/y#main-key'], null, { ttl: Temporal.Duration.from({ minutes: 10 }) });
    await kv.set(['_fedify', 'publicKeys', 'other'], 1);
    const rows = await t.app.db.selectFrom('federation_kv').select(['key', 'expires_at']).where('key', 'like', '_fedify%').orderBy('key').execute();
    expect(rows.map((row) => [row.key.split('\u001f').at(-1), row.expires_at === null ? null : Number(row.expires_at)])).toEqual([
      ['https://a.example/users/x#main-key', clock + KEY_CACHE_LIFETIME_MS],
      ['https://a.example/users/y#main-key', clock + 10 * 60_000],
      ['other', null],
    ]);
  });

  it('purges the rows past their lifetime, and the maintenance job does on each run', async () => {
    const kv = new DatabaseKvStore(t.app.db, { now: () => 10_000 });
    await kv.set(['purge', 'gone'], 1, { ttl: Temporal.Duration.from({ seconds: 1 }) });
    await kv.set(['purge', 'live'], 2, { ttl: Temporal.Duration.from({ hours: 1 }) });
    await kv.set(['purge', 'forever'], 3);
    const left = async () => (await t.app.db.selectFrom('federation_kv').select('key').where('key', 'like', 'purge%').orderBy('key').execute()).map((row) => row.key.split('\u001f')[1]);
    expect(await purgeExpiredKv(t.app.db, 11_000)).toBeGreaterThanOrEqual(1);
    expect(await left()).toEqual(['forever', 'live']);
    await maintenanceStep(MAINTENANCE_TASKS)(t.app, t.app.db, { lastRunAt: null }, 10_000 + 60 * 60_000);
    expect(await left()).toEqual(['forever']);
  });

  it('lists the keys under a prefix and nothing that merely starts with the same letters', async () => {
    const kv = new DatabaseKvStore(t.app.db);
    await kv.set(['list', 'a'], 1);
    await kv.set(['list', 'b', 'c'], 2);
    await kv.set(['listing', 'a'], 3);
    await kv.set(['list'], 0);
    const listed = [];
    for await (const entry of kv.list(['list'])) listed.push([entry.key.join('/'), entry.value]);
    expect(listed).toEqual([
      ['list', 0],
      ['list/a', 1],
      ['list/b/c', 2],
    ]);
  });
});

/** The keys Fedify caches while checking a signed activity get a lifetime, so a flood of new keys cannot grow the table for good. */
describe('federation key cache', () => {
  const t = useTestApp({ FEDERATION: 'true', FEDERATION_ALLOW_HTTP: 'true', PUBLIC_URL: 'https://kruh.example' });
  let remote: FakeFediverse;
  beforeAll(async () => {
    remote = await startFakeFediverse();
  });
  afterAll(async () => {
    await remote.close();
  });

  it('stores the key a signature verification read with an expiry a key lifetime away', async () => {
    const alice = await createUser(t.app, { username: 'alice' });
    const bob = await remote.actor('bob');
    const before = Date.now();
    const follow = { '@context': AS_CONTEXT, id: `${bob.id}/follows/1`, type: 'Follow', actor: bob.id, object: `https://kruh.example/ap/actors/${alice.id}`, to: [PUBLIC] };
    expect((await deliverToInbox(t.app, '/ap/inbox', follow, bob)).statusCode).toBe(202);
    const rows = await t.app.db.selectFrom('federation_kv').select(['key', 'expires_at']).where('key', 'like', '_fedify\u001fpublicKey\u001f%').execute();
    expect(rows.map((row) => row.key.split('\u001f')[2])).toEqual([bob.keyId.href]);
    const expires = Number(rows[0]!.expires_at);
    expect(expires).toBeGreaterThanOrEqual(before + KEY_CACHE_LIFETIME_MS);
    expect(expires).toBeLessThanOrEqual(Date.now() + KEY_CACHE_LIFETIME_MS);
  });
});
