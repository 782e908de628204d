import { useEffect, useState } from 'react';
import type { UnreadReply } from '#core/api/notifications';
import { API_BASE, callApi } from '../../lib/api/client';
import { announceNotificationsArrived, onNotificationsChanged } from '../../lib/notification-signals';

// The contract (with its schemas) comes with the first logged-in render, not with every visitor's
// first paint.
const loadContract = () => import('#core/api/notifications').then((m) => m.notificationsApi);

/**
 * The count of the stream's `unread` event: its data is the same {count} as the unread call's
 * reply, as JSON text. Anything else is no count (the badge then asks the call instead).
 */
export function readStreamCount(data: unknown): number | null {
  if (typeof data !== 'string') return null;
  try {
    const { count } = (JSON.parse(data) ?? {}) as Partial<UnreadReply>;
    return typeof count === 'number' && Number.isFinite(count) ? count : null;
  } catch {
    return null;
  }
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
    let last: number | null = null;
    const setCount = (count: number) => {
      // A rise is a notification that arrived while the app is open: an open list fetches it. The
      // first count rises from nothing, since the list may have been fetched just before it.
      if (count > (last ?? 0)) announceNotificationsArrived();
      last = count;
      setState({ token, count });
    };
    let active = true;
    const controller = new AbortController();
    const refresh = () => {
      loadContract()
        .then((api) => callApi(api.unread, {}, { signal: controller.signal }))
        .then((reply) => {
          if (active) setCount(reply.count);
        })
        .catch(() => undefined);
    };
    refresh();

    let source: EventSource | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    // The session goes to the stream in a cookie for its path alone (POST first), never in the
    // address, which every proxy on the way writes to its access log.
    const listen = (api: Awaited<ReturnType<typeof loadContract>>) => {
      if (!active || typeof EventSource === 'undefined') return;
      callApi(api.streamCookie, {}, { signal: controller.signal })
        .then((reply) => {
          if (!active) return;
          setCount(reply.count);
          source = new EventSource(`${API_BASE}${api.stream.path}`);
          // The server names its events `unread` ({count}); plain messages are read the same way.
          const onEvent = (event: MessageEvent) => {
            const n = readStreamCount(event.data);
            if (n !== null) setCount(n);
            else refresh();
          };
          source.addEventListener('unread', onEvent as EventListener);
          source.onmessage = onEvent;
          // EventSource reconnects on its own, but not after a refusal (the cookie expired): then
          // it asks for the cookie again and opens a new stream.
          source.onerror = () => {
            if (source?.readyState !== EventSource.CLOSED) return;
            source = undefined;
            retry = setTimeout(() => listen(api), 5_000);
          };
        })
        .catch(() => {
          // Offline, or the server is away: try again later, as EventSource itself would.
          if (active) retry = setTimeout(() => listen(api), 30_000);
        });
    };
    loadContract().then(listen, () => undefined);
    const onFocus = () => refresh();
    window.addEventListener('focus', onFocus);
    const offChanged = onNotificationsChanged(refresh);
    return () => {
      active = false;
      controller.abort();
      source?.close();
      clearTimeout(retry);
      window.removeEventListener('focus', onFocus);
      offChanged();
    };
  }, [token]);

  return token && state.token === token ? state.count : 0;
}
