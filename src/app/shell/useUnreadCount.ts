import { useEffect, useState } from 'react';
import { API_BASE, callApi } from '../../lib/api/client';

// The contract (with its schemas) comes with the first logged-in render, not with every visitor's
// first paint.
const loadContract = () => import('#core/api/notifications').then((m) => m.notificationsApi);

/** Reads a count from the shapes the unread call and the stream may carry. */
export function readCount(data: unknown): number | null {
  if (typeof data === 'number' && Number.isFinite(data)) return data;
  if (typeof data === 'string' && data.trim() !== '') {
    const n = Number(data);
    if (Number.isFinite(n)) return n;
    try {
      return readCount(JSON.parse(data));
    } catch {
      return null;
    }
  }
  if (data && typeof data === 'object') {
    const record = data as Record<string, unknown>;
    for (const field of ['unread', 'count']) {
      if (typeof record[field] === 'number') return record[field];
    }
  }
  return null;
}

/**
 * Unread notifications for the badge: GET /notification/unread, then the server's event stream
 * where the browser has EventSource. Failures leave the badge as it is: it is a hint, not data.
 */
export function useUnreadCount(token: string | null): number {
  // Kept with the token it belongs to, so a new session starts from zero.
  const [state, setState] = useState<{ token: string | null; count: number }>({ token: null, count: 0 });

  useEffect(() => {
    if (!token) return;
    const setCount = (count: number) => setState({ token, count });
    let active = true;
    const controller = new AbortController();
    const refresh = () => {
      loadContract().then((api) => callApi(api.unread, {}, { signal: controller.signal })).then(
        (data) => {
          const n = readCount(data);
          if (active && n !== null) setCount(n);
        },
        () => undefined,
      );
    };
    refresh();

    let source: EventSource | undefined;
    const listen = (streamPath: string) => {
      if (!active || typeof EventSource === 'undefined') return;
      try {
        source = new EventSource(`${API_BASE}${streamPath}?token=${encodeURIComponent(token)}`);
        // The server names its events `unread` ({count}); plain messages are read the same way.
        const onEvent = (event: MessageEvent) => {
          const n = readCount(event.data);
          if (n !== null) setCount(n);
          else refresh();
        };
        source.addEventListener('unread', onEvent as EventListener);
        source.onmessage = onEvent;
        // EventSource reconnects on its own; an error needs no handling here.
        source.onerror = () => undefined;
      } catch {
        source = undefined;
      }
    };
    loadContract().then((api) => listen(api.stream.path), () => undefined);
    const onFocus = () => refresh();
    window.addEventListener('focus', onFocus);
    window.addEventListener('kruh:notifications-changed', onFocus);
    return () => {
      active = false;
      controller.abort();
      source?.close();
      window.removeEventListener('focus', onFocus);
      window.removeEventListener('kruh:notifications-changed', onFocus);
    };
  }, [token]);

  return token && state.token === token ? state.count : 0;
}
