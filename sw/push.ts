/// <reference lib="webworker" />
import type { PushPayload } from '#core/api/push';
import { appPaths } from '#core/app-paths';

/**
 * Web Push in the service worker: a push from the server (see server/src/modules/notifications/push) shows a
 * notification even with every tab of the app closed, and sets the app icon's badge to the unread
 * count it carries; a click on the notification brings the app forward on the page it names.
 */

/** The app's icon, shown beside the text (and as the small badge where the system uses one). */
export const NOTIFICATION_ICON = '/icons/icon-192.png';
/** Where a push that names no page (or a page elsewhere) leads. */
export const FALLBACK_URL = appPaths.notifications();

/** What of the worker's global scope push handling uses (tests hand in a stand-in). */
export interface PushWorker {
  readonly location: { readonly origin: string };
  readonly registration: Pick<ServiceWorkerRegistration, 'showNotification'>;
  readonly clients: Pick<Clients, 'matchAll' | 'openWindow'>;
  readonly navigator: { setAppBadge?: (count?: number) => Promise<void>; clearAppBadge?: () => Promise<void> };
  addEventListener(type: 'push', listener: (event: PushEvent) => void): void;
  addEventListener(type: 'notificationclick', listener: (event: NotificationEvent) => void): void;
}

const text = (value: unknown, fallback: string): string => (typeof value === 'string' ? value : fallback);

/**
 * The push's message, read defensively: a push that is not the server's JSON still shows something
 * (browsers penalise a push that shows nothing), and only a page of the app is ever opened.
 */
export function readPushPayload(data: Pick<PushMessageData, 'json'> | null | undefined): PushPayload {
  let raw: Record<string, unknown> = {};
  try {
    const parsed: unknown = data?.json();
    if (parsed && typeof parsed === 'object') raw = parsed as Record<string, unknown>;
  } catch {
    // Not JSON: the defaults below.
  }
  const badge = raw.badge;
  return {
    title: text(raw.title, 'Kruh') || 'Kruh',
    body: text(raw.body, ''),
    url: text(raw.url, FALLBACK_URL),
    tag: text(raw.tag, ''),
    ...(typeof badge === 'number' && Number.isInteger(badge) && badge >= 0 ? { badge } : {}),
  };
}

/** The absolute address of an app page: a path of this origin, else the notification list. */
export function appUrl(url: string, origin: string): string {
  try {
    const target = new URL(url, origin);
    if (target.origin === origin) return target.href;
  } catch {
    // Not a URL: the fallback.
  }
  return new URL(FALLBACK_URL, origin).href;
}

/** Shows the count on the app icon (0 clears it), where the browser can. A hint: failures are ignored. */
export async function setAppBadge(worker: Pick<PushWorker, 'navigator'>, count: number | undefined): Promise<void> {
  if (count === undefined) return;
  const { navigator } = worker;
  try {
    if (count > 0) await navigator.setAppBadge?.(count);
    else await navigator.clearAppBadge?.();
  } catch {
    // Not installed, or the platform has no badge.
  }
}

export async function showPush(worker: PushWorker, payload: PushPayload): Promise<void> {
  const options: NotificationOptions = {
    body: payload.body,
    icon: NOTIFICATION_ICON,
    badge: NOTIFICATION_ICON,
    data: { url: payload.url },
  };
  if (payload.tag) options.tag = payload.tag;
  await Promise.all([worker.registration.showNotification(payload.title, options), setAppBadge(worker, payload.badge)]);
}

/**
 * Brings the app forward on `url`: an open window of the app is focused and navigated there (the
 * route is after the `#`, so it changes page without reloading), else a new window opens on it.
 */
export async function openApp(worker: Pick<PushWorker, 'clients' | 'location'>, url: string): Promise<void> {
  const { origin } = worker.location;
  const target = appUrl(url, origin);
  const windows = (await worker.clients.matchAll({ type: 'window', includeUncontrolled: true })) as WindowClient[];
  const open = windows.find((client) => new URL(client.url).origin === origin);
  if (open) {
    // Focus first: the click's permission to raise a window is used up by the first call.
    const focused = (await open.focus().catch(() => open)) ?? open;
    if (focused.url === target) return;
    try {
      await focused.navigate(target);
      return;
    } catch {
      // A window this worker does not control cannot be navigated from here: open one instead.
    }
  }
  await worker.clients.openWindow(target);
}

/** Adds the push and notification-click handlers to the worker. */
export function registerPush(worker: PushWorker): void {
  worker.addEventListener('push', (event) => {
    event.waitUntil(showPush(worker, readPushPayload(event.data)));
  });
  worker.addEventListener('notificationclick', (event) => {
    event.notification.close();
    const data = event.notification.data as { url?: unknown } | null;
    event.waitUntil(openApp(worker, typeof data?.url === 'string' ? data.url : FALLBACK_URL));
  });
}
