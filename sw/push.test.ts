import { describe, expect, it, vi } from 'vitest';
import { FALLBACK_URL, NOTIFICATION_ICON, type PushWorker, appUrl, openApp, readPushPayload, registerPush, setAppBadge } from './push';

const ORIGIN = 'https://kruh.test';

const message = (value: unknown) => ({
  json: () => (typeof value === 'string' ? JSON.parse(value) : value) as unknown,
});

interface FakeWindow {
  url: string;
  focus: ReturnType<typeof vi.fn>;
  navigate: ReturnType<typeof vi.fn>;
}

function fakeWindow(url: string, options: { controlled?: boolean } = {}): FakeWindow {
  const client: FakeWindow = {
    url,
    focus: vi.fn(async () => client),
    navigate: vi.fn(async (to: string) => {
      if (options.controlled === false) throw new TypeError('not controlled');
      client.url = to;
      return client;
    }),
  };
  return client;
}

/** The worker's global scope as push handling sees it, recording what it was asked to do. */
function fakeWorker(windows: FakeWindow[] = [], badge: { supported?: boolean } = {}) {
  const handlers: Record<string, (event: unknown) => void> = {};
  const shown: Array<{ title: string; options: NotificationOptions }> = [];
  const navigator = badge.supported === false ? {} : { setAppBadge: vi.fn(async () => undefined), clearAppBadge: vi.fn(async () => undefined) };
  const worker = {
    location: { origin: ORIGIN },
    registration: { showNotification: vi.fn(async (title: string, options: NotificationOptions = {}) => void shown.push({ title, options })) },
    clients: {
      matchAll: vi.fn(async () => windows),
      openWindow: vi.fn(async () => null),
    },
    navigator,
    addEventListener: (type: string, handler: (event: unknown) => void) => {
      handlers[type] = handler;
    },
  };
  registerPush(worker as unknown as PushWorker);
  /** Dispatches an event to the registered handler and waits for what it handed to waitUntil. */
  const dispatch = async (type: string, event: object) => {
    const waits: Array<Promise<unknown>> = [];
    handlers[type]!({ ...event, waitUntil: (promise: Promise<unknown>) => waits.push(promise) });
    expect(waits).toHaveLength(1);
    await Promise.all(waits);
  };
  return { worker, shown, navigator, dispatch };
}

describe('reading a push', () => {
  it("reads the server's message", () => {
    const payload = { title: 'alice started following you', body: 'hi', url: '/u/alice', tag: 'kruh-1', badge: 3 };
    expect(readPushPayload(message(payload))).toEqual(payload);
  });

  it('shows something for a push that is not the expected JSON, and drops a badge that is not a count', () => {
    const defaults = { title: 'Kruh', body: '', url: FALLBACK_URL, tag: '' };
    expect(readPushPayload(null)).toEqual(defaults);
    expect(readPushPayload({ json: () => JSON.parse('not json') as unknown })).toEqual(defaults);
    expect(readPushPayload(message('"a string"'))).toEqual(defaults);
    expect(readPushPayload(message({ title: 42, body: null, url: 7, badge: -1 }))).toEqual(defaults);
    expect(readPushPayload(message({ title: '', badge: 1.5 }))).toEqual(defaults);
    expect(readPushPayload(message({ badge: 0 }))).toEqual({ ...defaults, badge: 0 });
  });
});

describe('the page a notification opens', () => {
  it('is an app page of this origin, else the notification list', () => {
    expect(appUrl('/p/p1?c=c1', ORIGIN)).toBe(`${ORIGIN}/p/p1?c=c1`);
    expect(appUrl(`${ORIGIN}/g/group`, ORIGIN)).toBe(`${ORIGIN}/g/group`);
    expect(appUrl('https://evil.example/p/1', ORIGIN)).toBe(`${ORIGIN}/notifications`);
    expect(appUrl('//evil.example/x', ORIGIN)).toBe(`${ORIGIN}/notifications`);
    expect(appUrl('http://[bad', ORIGIN)).toBe(`${ORIGIN}/notifications`);
  });
});

describe('push event', () => {
  it('shows the notification with its title, text, icon, tag and the page to open', async () => {
    const { shown, dispatch } = fakeWorker();
    await dispatch('push', { data: message({ title: 'bob commented on a post', body: 'Nice!', url: '/p/p1?c=c1', tag: 'kruh-n1' }) });
    expect(shown).toEqual([
      {
        title: 'bob commented on a post',
        options: { body: 'Nice!', icon: NOTIFICATION_ICON, badge: NOTIFICATION_ICON, tag: 'kruh-n1', data: { url: '/p/p1?c=c1' } },
      },
    ]);
  });

  it('sets the app badge to the unread count it carries, and clears it at 0', async () => {
    const { navigator, dispatch } = fakeWorker();
    await dispatch('push', { data: message({ title: 't', badge: 4 }) });
    expect(navigator.setAppBadge).toHaveBeenCalledWith(4);
    await dispatch('push', { data: message({ title: 't', badge: 0 }) });
    expect(navigator.clearAppBadge).toHaveBeenCalledTimes(1);
    await dispatch('push', { data: message({ title: 't' }) });
    expect(navigator.setAppBadge).toHaveBeenCalledTimes(1);
    expect(navigator.clearAppBadge).toHaveBeenCalledTimes(1);
  });

  it('still shows the notification where there is no badge, or setting it fails', async () => {
    const bare = fakeWorker([], { supported: false });
    await bare.dispatch('push', { data: message({ title: 'no badge here', badge: 2 }) });
    expect(bare.shown.map((n) => n.title)).toEqual(['no badge here']);

    const failing = fakeWorker();
    failing.navigator.setAppBadge!.mockRejectedValueOnce(new DOMException('not installed', 'NotAllowedError'));
    await failing.dispatch('push', { data: message({ title: 'badge refused', badge: 2 }) });
    expect(failing.shown.map((n) => n.title)).toEqual(['badge refused']);
  });

  it('setAppBadge does nothing without a count', async () => {
    const { navigator } = fakeWorker();
    await setAppBadge({ navigator }, undefined);
    expect(navigator.setAppBadge).not.toHaveBeenCalled();
    expect(navigator.clearAppBadge).not.toHaveBeenCalled();
  });
});

describe('notificationclick', () => {
  const click = (url: unknown) => {
    const close = vi.fn();
    return { event: { notification: { close, data: url === undefined ? null : { url } } }, close };
  };

  it('focuses an open window of the app and takes it to the page', async () => {
    const open = fakeWindow(`${ORIGIN}/feed`);
    const { worker, dispatch } = fakeWorker([fakeWindow('https://elsewhere.example/'), open]);
    const { event, close } = click('/p/p1?c=c1');
    await dispatch('notificationclick', event);
    expect(close).toHaveBeenCalled();
    expect(open.focus).toHaveBeenCalled();
    expect(open.navigate).toHaveBeenCalledWith(`${ORIGIN}/p/p1?c=c1`);
    // Focused before navigating: the click allows raising a window only at first.
    expect(open.focus.mock.invocationCallOrder[0]!).toBeLessThan(open.navigate.mock.invocationCallOrder[0]!);
    expect(worker.clients.openWindow).not.toHaveBeenCalled();
  });

  it('only focuses a window already on the page', async () => {
    const open = fakeWindow(`${ORIGIN}/u/alice`);
    const { worker, dispatch } = fakeWorker([open]);
    await dispatch('notificationclick', click('/u/alice').event);
    expect(open.focus).toHaveBeenCalled();
    expect(open.navigate).not.toHaveBeenCalled();
    expect(worker.clients.openWindow).not.toHaveBeenCalled();
  });

  it('opens a new window when no window of the app is open', async () => {
    const { worker, dispatch } = fakeWorker([fakeWindow('https://elsewhere.example/')]);
    await dispatch('notificationclick', click('/g/walkers').event);
    expect(worker.clients.matchAll).toHaveBeenCalledWith({ type: 'window', includeUncontrolled: true });
    expect(worker.clients.openWindow).toHaveBeenCalledWith(`${ORIGIN}/g/walkers`);
  });

  it('opens a new window when the open one cannot be navigated from the worker', async () => {
    const open = fakeWindow(`${ORIGIN}/feed`, { controlled: false });
    const { worker, dispatch } = fakeWorker([open]);
    await dispatch('notificationclick', click('/p/p2').event);
    expect(worker.clients.openWindow).toHaveBeenCalledWith(`${ORIGIN}/p/p2`);
  });

  it('opens the notification list for a notification without a page of the app', async () => {
    for (const url of [undefined, 42, 'https://evil.example/']) {
      const { worker, dispatch } = fakeWorker();
      await dispatch('notificationclick', click(url).event);
      expect(worker.clients.openWindow).toHaveBeenCalledWith(`${ORIGIN}/notifications`);
    }
  });

  it('openApp can be called on its own', async () => {
    const { worker } = fakeWorker();
    await openApp(worker as unknown as PushWorker, '/search');
    expect(worker.clients.openWindow).toHaveBeenCalledWith(`${ORIGIN}/search`);
  });
});
