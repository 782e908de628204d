import '../../../test/setup';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiPost, mockFetch, setOnline, startOnline } from '../../../test/local-first';
import type { Post } from '../../api/types';
import { type SafetyAction, getDb } from '../../db/db';
import { getToasts } from '../../toast';
import { outboxHandlers } from '../handlers';
import { cancelScheduledSend, kickOutbox } from '../outbox';
import { queueSafety } from './safety';
import { safetyStateKey, setSafetyState } from './safety';

beforeEach(async () => {
  await startOnline('u1');
});
afterEach(() => cancelScheduledSend());

const stateOf = async (action: SafetyAction, subject: string) => (await getDb().meta.get(safetyStateKey(action, subject)))?.value;
const rows = async () => (await getDb().outbox.toArray()).map((r) => [r.target, r.payload]);

describe('a block or a mute in the outbox', () => {
  it('keeps the state the screens read under the action and its subject', async () => {
    expect(safetyStateKey('muteTag', 'cats')).toBe('safety:muteTag:cats');
    await setSafetyState(getDb(), 'block', 'u2', true);
    expect(await getDb().meta.get('safety:block:u2')).toEqual({ key: 'safety:block:u2', value: true });
  });

  it('changes the state at once and queues the change, with the name only when one is given', async () => {
    setOnline(false);
    await queueSafety('block', 'u2', true, { label: 'bob' });
    await queueSafety('muteTag', 'cats', true);
    expect(await stateOf('block', 'u2')).toBe(true);
    expect(await stateOf('muteTag', 'cats')).toBe(true);
    expect(await rows()).toEqual([
      ['safety:block:u2', { action: 'block', subject: 'u2', on: true, from: false, label: 'bob' }],
      ['safety:muteTag:cats', { action: 'muteTag', subject: 'cats', on: true, from: false }],
    ]);
  });

  it('folds changes of one subject into one row, and removes it when set back to the known state', async () => {
    setOnline(false);
    await queueSafety('mute', 'u2', true);
    await queueSafety('mute', 'u2', false);
    expect(await stateOf('mute', 'u2')).toBe(false);
    expect(await rows()).toEqual([]);
    // A state another screen saw on the server counts when this device kept none.
    await queueSafety('block', 'u3', false, { from: true });
    expect(await rows()).toEqual([['safety:block:u3', { action: 'block', subject: 'u3', on: false, from: true }]]);
    // Setting what the server already holds queues nothing.
    await queueSafety('block', 'u4', false);
    await queueSafety('mute', 'u5', true, { from: true });
    expect(await rows()).toHaveLength(1);
  });

  it('measures a change against the state kept on this device when the screen gives none', async () => {
    setOnline(false);
    await setSafetyState(getDb(), 'mute', 'u2', true);
    await queueSafety('mute', 'u2', true);
    expect(await rows()).toEqual([]);
    await queueSafety('mute', 'u2', false);
    expect(await rows()).toEqual([['safety:mute:u2', { action: 'mute', subject: 'u2', on: false, from: true }]]);
  });

  it('measures a change made while one is being sent against the one being sent', async () => {
    let during: (() => Promise<void>) | null = async () => {
      // Blocking again changes nothing the server will not hold; lifting the block is queued after it.
      await queueSafety('block', 'u2', true);
      expect((await getDb().outbox.toArray()).map((r) => r.status)).toEqual(['sending']);
      await queueSafety('block', 'u2', false);
    };
    const { calls } = mockFetch(async () => {
      const change = during;
      during = null;
      await change?.();
      return { body: { message: 'info/done' } };
    });
    await queueSafety('block', 'u2', true);
    await kickOutbox();
    expect(calls.map((c) => c.method)).toEqual(['PUT', 'DELETE']);
    expect(await stateOf('block', 'u2')).toBe(false);
  });

  it('takes what a new block or mute hides off the stored pages at once; lifting one takes nothing off', async () => {
    setOnline(false);
    const db = getDb();
    const bobs = { ...(apiPost('p1', { author: { username: 'bob', pfp: 'u2', pfpUrl: '' } }) as Post), cachedAt: 1 };
    await db.posts.put(bobs);
    await db.feedPages.put({ feedKey: 'explore|sort=new|time=all', page: 1, ids: ['p1'], hasMore: false, fetchedAt: 1 });
    await queueSafety('block', 'u2', false, { from: true });
    await queueSafety('mute', 'u2', false, { from: true });
    expect(await db.posts.get('p1')).toBeDefined();
    expect((await db.feedPages.get(['explore|sort=new|time=all', 1]))?.ids).toEqual(['p1']);
    await queueSafety('mute', 'u2', true);
    expect((await db.feedPages.get(['explore|sort=new|time=all', 1]))?.ids).toEqual([]);
  });

  it('sends each change to its own endpoint, with its key', async () => {
    const { calls } = mockFetch(() => ({ body: { message: 'info/done' } }));
    const changes: [SafetyAction, string, boolean][] = [
      ['block', 'u2', true],
      ['block', 'u3', false],
      ['mute', 'u4', true],
      ['mute', 'u5', false],
      ['muteTag', 'cats', true],
      ['muteTag', 'dogs', false],
    ];
    for (const [action, subject, on] of changes) await queueSafety(action, subject, on, { from: !on });
    await kickOutbox();
    expect(calls.map((c) => [c.method, c.path])).toEqual([
      ['PUT', '/api/block/u2'],
      ['DELETE', '/api/block/u3'],
      ['PUT', '/api/mute/u4'],
      ['DELETE', '/api/mute/u5'],
      ['PUT', '/api/mute/tag/cats'],
      ['DELETE', '/api/mute/tag/dogs'],
    ]);
    const keys = calls.map((c) => c.headers['Idempotency-Key']);
    expect(new Set(keys).size).toBe(6);
    expect(await getDb().outbox.count()).toBe(0);
    expect(await stateOf('block', 'u2')).toBe(true);
    expect(await stateOf('block', 'u3')).toBe(false);
  });

  it('a refusal says why and puts the state back as it was', async () => {
    mockFetch(() => ({ status: 400, body: { message: 'error/block_yourself' } }));
    const before = getToasts().length;
    await queueSafety('block', 'u1', true);
    await kickOutbox();
    expect(getToasts().slice(before).map((t) => t.message)).toEqual(['error/block_yourself']);
    expect(await stateOf('block', 'u1')).toBe(false);
    expect(await getDb().outbox.count()).toBe(0);

    await queueSafety('mute', 'u2', false, { from: true });
    await kickOutbox();
    expect(await stateOf('mute', 'u2')).toBe(true);
  });

  it('a refusal without a reason is shown as a server error', async () => {
    expect(outboxHandlers.safety.refusedFallback).toBe('server_error');
    mockFetch(() => ({ status: 404, body: {} }));
    const before = getToasts().length;
    await queueSafety('muteTag', 'cats', true);
    await kickOutbox();
    expect(getToasts().slice(before).map((t) => t.message)).toEqual(['error/server_error']);
  });
});
