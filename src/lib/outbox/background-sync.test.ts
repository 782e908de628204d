import '../../test/setup';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearLocalData } from '../db/db';
import { clearSession, storeSession } from '../session';
import { mockFetch, setOnline } from '../../test/local-first';
import { createStore, get } from 'idb-keyval';
import { SYNC_TAG, mirrorSession, mirrorSessionForWorker, mirroredSession, requestBackgroundSync } from './background-sync';
import { cancelScheduledSend, kickOutbox } from './outbox';
import { queueLike } from './kinds/like';

/**
 * A service worker registration whose SyncManager records the tags asked for (or refuses them);
 * `registration: 'none'` has no registration yet, `'failing'` cannot even look it up.
 */
function stubServiceWorker(withSync = true, refuse = false, registration: 'some' | 'none' | 'failing' = 'some'): string[] {
  const tags: string[] = [];
  const register = async (tag: string) => {
    if (refuse) throw new DOMException('Permission denied.', 'NotAllowedError');
    tags.push(tag);
  };
  const found = withSync ? { sync: { register } } : {};
  const getRegistration = async () => {
    if (registration === 'failing') throw new DOMException('The document is in an invalid state.', 'InvalidStateError');
    return registration === 'none' ? undefined : found;
  };
  Object.defineProperty(navigator, 'serviceWorker', { configurable: true, value: { getRegistration } });
  return tags;
}

afterEach(() => {
  cancelScheduledSend();
  Object.defineProperty(navigator, 'serviceWorker', { configurable: true, value: undefined });
  vi.unstubAllGlobals();
});

describe('the session copy for the service worker', () => {
  it('lives where a service worker of another release reads it: IndexedDB kruh-worker, store session, key session', async () => {
    // A fresh copy of the module: it opens its store once, on first use.
    vi.resetModules();
    const fresh = await import('./background-sync');
    await fresh.mirrorSession({ token: 't9', username: 'zoe', id: 'u9' });
    expect(await get('session', createStore('kruh-worker', 'session'))).toEqual({ token: 't9', username: 'zoe', id: 'u9' });
  });

  it('is kept only for a whole session: a token without an id is no session', async () => {
    await mirrorSession({ token: 't9', username: 'zoe', id: 'u9' });
    await mirrorSession({ token: 't9', username: 'zoe', id: null });
    expect(await mirroredSession()).toBeUndefined();
    await mirrorSession({ token: 't9', username: 'zoe', id: 'u9' });
    await mirrorSession({ token: null, username: 'zoe', id: 'u9' });
    expect(await mirroredSession()).toBeUndefined();
  });

  it('says so on the console, and keeps going, when IndexedDB refuses the copy', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const failing = vi.spyOn(IDBDatabase.prototype, 'transaction').mockImplementation(() => {
      throw new DOMException('blocked', 'SecurityError');
    });
    try {
      storeSession('t1', 'alice', 'u-warn');
      mirrorSessionForWorker()();
      await vi.waitFor(() => expect(warn).toHaveBeenCalledWith('session mirror', expect.anything()));
    } finally {
      failing.mockRestore();
      warn.mockRestore();
    }
  });

  it('follows login, a change of account and logout', async () => {
    const stop = mirrorSessionForWorker();
    try {
      storeSession('t1', 'alice', 'u1');
      await vi.waitFor(async () => expect(await mirroredSession()).toEqual({ token: 't1', username: 'alice', id: 'u1' }));
      storeSession('t2', 'bob', 'u2');
      await vi.waitFor(async () => expect((await mirroredSession())?.id).toBe('u2'));
      clearSession();
      await vi.waitFor(async () => expect(await mirroredSession()).toBeUndefined());
    } finally {
      stop();
    }
  });
});

describe('requestBackgroundSync', () => {
  it('registers the outbox tag where the browser has Background Sync', async () => {
    const tags = stubServiceWorker();
    expect(await requestBackgroundSync()).toBe(true);
    // The tag is what a service worker of another release listens for: it must not change.
    expect(tags).toEqual(['kruh-outbox']);
    expect(SYNC_TAG).toBe('kruh-outbox');
  });

  it('answers false without a service worker, without sync, or when the browser refuses', async () => {
    expect(await requestBackgroundSync()).toBe(false);
    stubServiceWorker(false);
    expect(await requestBackgroundSync()).toBe(false);
    const tags = stubServiceWorker(true, true);
    expect(await requestBackgroundSync()).toBe(false);
    expect(tags).toEqual([]);
  });

  it('answers false where there is no navigator at all', async () => {
    vi.stubGlobal('navigator', undefined);
    try {
      expect(await requestBackgroundSync()).toBe(false);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('answers false before the service worker is registered, or when its registration cannot be read', async () => {
    expect(stubServiceWorker(true, false, 'none')).toEqual([]);
    expect(await requestBackgroundSync()).toBe(false);
    stubServiceWorker(true, false, 'failing');
    expect(await requestBackgroundSync()).toBe(false);
  });

  it('is asked for when the outbox keeps items waiting, and not when it sent everything', async () => {
    const tags = stubServiceWorker();
    storeSession('t1', 'alice', 'u1');
    await clearLocalData();
    setOnline(false);
    await queueLike('post', 'pA', true, false);
    await kickOutbox();
    expect(tags).toContain(SYNC_TAG);

    tags.length = 0;
    setOnline(true);
    mockFetch(() => ({ status: 200, body: { likes: 1, liked: true } }));
    await kickOutbox();
    expect(tags).toEqual([]);
  });
});
