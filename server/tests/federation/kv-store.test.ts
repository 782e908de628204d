import { Temporal } from '@js-temporal/polyfill';
import { describe, expect, it } from 'vitest';
import { DatabaseKvStore } from '../../src/modules/federation/kv-store';
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

  it('reads an expired value as missing', async () => {
    const kv = new DatabaseKvStore(t.app.db);
    await kv.set(['short'], 'x', { ttl: Temporal.Duration.from({ milliseconds: 1 }) });
    await kv.set(['long'], 'y', { ttl: Temporal.Duration.from({ hours: 1 }) });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await kv.get(['short'])).toBeUndefined();
    expect(await kv.get(['long'])).toBe('y');
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
