import '../../test/setup';
import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { onNotificationsArrived } from '../../lib/notification-signals';
import { mockFetch } from '../../test/local-first';
import { readStreamCount, useUnreadCount } from './useUnreadCount';

describe('the unread stream', () => {
  it('reads the count of an event, the {count} the unread call answers', () => {
    expect(readStreamCount(JSON.stringify({ count: 4 }))).toBe(4);
    expect(readStreamCount('{"count":0}')).toBe(0);
  });

  it('finds no count in anything else, so the badge asks the call instead', () => {
    for (const data of ['', 'null', '{"count":"4"}', '{"unread":4}', '{"count":', undefined]) expect(readStreamCount(data)).toBeNull();
  });
});

/** The one stream the hook opens, which the test speaks for. */
class FakeEventSource {
  static last: FakeEventSource | null = null;
  private readonly listeners: Array<(event: MessageEvent) => void> = [];
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: (() => void) | null = null;
  constructor(readonly url: string) {
    FakeEventSource.last = this;
  }
  addEventListener(_name: string, listener: (event: MessageEvent) => void) {
    this.listeners.push(listener);
  }
  close() {}
  send(count: number) {
    const event = new MessageEvent('unread', { data: JSON.stringify({ count }) });
    for (const listener of this.listeners) listener(event);
  }
}

describe('the unread badge', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    FakeEventSource.last = null;
  });

  it('tells an open list when the count rises, not when it falls or stays', async () => {
    mockFetch(() => ({ body: { count: 0 } }));
    vi.stubGlobal('EventSource', FakeEventSource);
    const arrivals = vi.fn();
    const off = onNotificationsArrived(arrivals);
    const { result } = renderHook(() => useUnreadCount('tok'));
    await waitFor(() => expect(FakeEventSource.last).not.toBeNull());
    const stream = FakeEventSource.last!;
    for (const count of [0, 2, 2, 1, 3, 0]) act(() => stream.send(count));
    expect(result.current).toBe(0);
    expect(arrivals).toHaveBeenCalledTimes(2);
    off();
  });

  it('opens the stream once its cookie is set, with no session in its address', async () => {
    const { calls } = mockFetch(() => ({ body: { count: 3 } }));
    vi.stubGlobal('EventSource', FakeEventSource);
    const { result } = renderHook(() => useUnreadCount('secret-session-token'));
    await waitFor(() => expect(FakeEventSource.last).not.toBeNull());
    expect(FakeEventSource.last!.url).toBe('/api/notification/stream');
    const cookie = calls.find((c) => c.path === '/api/notification/stream/cookie');
    expect(cookie?.method).toBe('POST');
    await waitFor(() => expect(result.current).toBe(3));
  });
});
