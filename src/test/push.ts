import { vi } from 'vitest';

/**
 * The browser's Web Push pieces, which jsdom has none of: Notification with its permission and
 * prompt, PushManager, and a service worker registration whose push manager keeps one subscription.
 * `uninstall()` puts jsdom back as it was.
 */
export interface FakePush {
  /** What the permission prompt answers when asked. */
  answer: NotificationPermission;
  permission: NotificationPermission;
  requestPermission: ReturnType<typeof vi.fn>;
  subscribe: ReturnType<typeof vi.fn>;
  unsubscribe: ReturnType<typeof vi.fn>;
  /** The device's current subscription, or null. */
  current: { endpoint: string; applicationServerKey: Uint8Array } | null;
  /** Gives the device a subscription made earlier (with this key). */
  subscribed(endpoint: string, applicationServerKey: Uint8Array): void;
  uninstall(): void;
}

export const DEVICE_KEYS = { p256dh: 'BDevicePublicKey', auth: 'DeviceAuthSecret' };

export function installFakePush(options: { permission?: NotificationPermission; answer?: NotificationPermission } = {}): FakePush {
  let endpoints = 0;
  const subscription = () => {
    const current = fake.current!;
    return {
      endpoint: current.endpoint,
      options: { userVisibleOnly: true, applicationServerKey: current.applicationServerKey.buffer },
      toJSON: () => ({ endpoint: current.endpoint, expirationTime: null, keys: DEVICE_KEYS }),
      unsubscribe: fake.unsubscribe,
    };
  };
  const fake: FakePush = {
    answer: options.answer ?? 'granted',
    permission: options.permission ?? 'default',
    current: null,
    requestPermission: vi.fn(async () => {
      if (fake.permission === 'default') fake.permission = fake.answer;
      return fake.permission;
    }),
    subscribe: vi.fn(async ({ applicationServerKey }: { applicationServerKey: Uint8Array }) => {
      fake.current = { endpoint: `https://push.example.com/device/${++endpoints}`, applicationServerKey };
      return subscription();
    }),
    unsubscribe: vi.fn(async () => {
      fake.current = null;
      return true;
    }),
    subscribed(endpoint, applicationServerKey) {
      fake.current = { endpoint, applicationServerKey };
    },
    uninstall() {
      vi.unstubAllGlobals();
      delete (navigator as { serviceWorker?: unknown }).serviceWorker;
    },
  };
  const NotificationStub = {
    get permission() {
      return fake.permission;
    },
    requestPermission: fake.requestPermission,
  };
  vi.stubGlobal('Notification', NotificationStub);
  vi.stubGlobal('PushManager', function PushManager() {});
  const pushManager = {
    getSubscription: async () => (fake.current ? subscription() : null),
    subscribe: fake.subscribe,
  };
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: { getRegistration: async () => ({ active: {}, pushManager }), ready: Promise.resolve({ active: {}, pushManager }) },
  });
  return fake;
}
