import { describe, expect, it } from 'vitest';
import { feedsApi } from '#core/api/feeds';
import { mockFetch } from '../test/local-first';
import { callApi } from './api/client';
import { getDb } from './db/db';
import { getSession, storeSession, subscribeSession } from './session-store';

const refused = { status: 401, body: { message: 'error/invalid_token' } };

describe('an expired session', () => {
  it('is marked when the server refuses a call carrying its token, keeping the account and its database', async () => {
    storeSession('tok', 'alice', 'u1');
    await getDb().meta.put({ key: 'kept', value: 1 });
    mockFetch(() => refused);
    await expect(callApi(feedsApi.explore)).rejects.toMatchObject({ status: 401 });
    expect(getSession()).toMatchObject({ token: 'tok', username: 'alice', id: 'u1', expired: true });
    expect(getDb().name).toBe('kruh-u1');
    expect(await getDb().meta.get('kept')).toMatchObject({ value: 1 });
    // Kept in storage: read again from there (as after a reload, or by another tab), it holds.
    const stop = subscribeSession(() => undefined);
    window.dispatchEvent(new StorageEvent('storage', { key: null }));
    stop();
    expect(getSession()).toMatchObject({ token: 'tok', expired: true });
  });

  it('is not marked by a refusal of a call made without a token', async () => {
    mockFetch(() => ({ status: 401, body: { message: 'error/no_token' } }));
    await expect(callApi(feedsApi.explore)).rejects.toMatchObject({ status: 401 });
    expect(getSession().expired).toBeFalsy();
  });

  it('is not marked by a late refusal of a token the session no longer holds', async () => {
    storeSession('old', 'alice', 'u1');
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    mockFetch(async () => {
      await answered;
      return refused;
    });
    const call = callApi(feedsApi.explore).catch((err: unknown) => err);
    storeSession('new', 'alice', 'u1');
    answer();
    expect(await call).toMatchObject({ status: 401 });
    expect(getSession()).toMatchObject({ token: 'new' });
    expect(getSession().expired).toBeFalsy();
  });

  it('ends with the next login', async () => {
    storeSession('tok', 'alice', 'u1');
    mockFetch(() => refused);
    await callApi(feedsApi.explore).catch(() => undefined);
    expect(getSession().expired).toBe(true);
    storeSession('tok-2', 'alice', 'u1');
    expect(getSession()).toEqual({ token: 'tok-2', username: 'alice', id: 'u1' });
  });

  it('gives way to another user logging in, who gets a database of their own', async () => {
    storeSession('tok', 'alice', 'u1');
    await getDb().meta.put({ key: 'alice-only', value: 1 });
    mockFetch(() => refused);
    await callApi(feedsApi.explore).catch(() => undefined);
    storeSession('bob-tok', 'bob', 'u2');
    expect(getSession()).toEqual({ token: 'bob-tok', username: 'bob', id: 'u2' });
    expect(getDb().name).toBe('kruh-u2');
    expect(await getDb().meta.get('alice-only')).toBeUndefined();
    // Alice's database waits for her next login.
    storeSession('tok-2', 'alice', 'u1');
    expect(await getDb().meta.get('alice-only')).toMatchObject({ value: 1 });
  });
});
