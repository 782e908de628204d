import { pushApi } from '#core/api/push';
import { callApi } from '../api/client';

/**
 * Notifications on this device while the app is closed (Web Push). The browser asks for permission
 * only when the person turns them on; then the service worker's push manager subscribes with the
 * server's public VAPID key, and the subscription goes to the server, which sends every new
 * notification of the account to it. Turning them off unsubscribes here first (so the device stops
 * receiving whatever happens next), then tells the server.
 */

/** `unsupported`: no service worker, Push API or notifications here (iOS outside the installed app). */
export type DevicePushState = 'unsupported' | 'denied' | 'on' | 'off';

export function pushSupported(): boolean {
  return typeof navigator !== 'undefined' && 'serviceWorker' in navigator && typeof PushManager !== 'undefined' && typeof Notification !== 'undefined';
}

/** How long to wait for the app's service worker on a first visit, while it installs. */
const WORKER_WAIT_MS = 10_000;

/**
 * The app's active service worker registration (push needs an active worker), waiting for it on a
 * first visit while it installs; null where none comes (the dev server has none). Without `wait`,
 * the one there now: a worker still installing holds no subscription to remove.
 */
async function registration(wait = true): Promise<ServiceWorkerRegistration | null> {
  const existing = await navigator.serviceWorker.getRegistration();
  if (existing?.active || !wait) return existing ?? null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const none = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), WORKER_WAIT_MS);
  });
  try {
    return await Promise.race([navigator.serviceWorker.ready, none]);
  } finally {
    clearTimeout(timer);
  }
}

/** The base64url key as the bytes applicationServerKey takes. */
export function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function sameKey(current: ArrayBuffer | null | undefined, key: Uint8Array): boolean {
  if (!current) return true;
  const bytes = new Uint8Array(current);
  return bytes.length === key.length && bytes.every((byte, i) => byte === key[i]);
}

/** What the server stores of a subscription. */
function subscriptionBody(subscription: PushSubscription) {
  const json = subscription.toJSON();
  return { endpoint: subscription.endpoint, keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' } };
}

export async function devicePushState(): Promise<DevicePushState> {
  if (!pushSupported()) return 'unsupported';
  if (Notification.permission === 'denied') return 'denied';
  const worker = await registration();
  if (!worker?.pushManager) return 'unsupported';
  const subscription = await worker.pushManager.getSubscription();
  return subscription && Notification.permission === 'granted' ? 'on' : 'off';
}

/**
 * Subscribes the device with the server's key (again, when its subscription was made with another
 * key: the server's pair changed, so its pushes would be refused) and hands the subscription to
 * the server. Should the server refuse it, the device is left unsubscribed, as it is then shown.
 */
async function subscribeDevice(worker: ServiceWorkerRegistration): Promise<void> {
  const key = keyBytes((await callApi(pushApi.key)).key);
  let subscription = await worker.pushManager.getSubscription();
  if (subscription && !sameKey(subscription.options?.applicationServerKey, key)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await worker.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  try {
    await callApi(pushApi.subscribe, { body: subscriptionBody(subscription) });
  } catch (err) {
    await subscription.unsubscribe().catch(() => undefined);
    throw err;
  }
}

/**
 * Asks for permission (the browser's prompt, answering a tap), subscribes this device and hands the
 * subscription to the server. Answers the state it reached: `denied` or `off` when the permission
 * was refused or dismissed. A failure of the push service or the server throws.
 */
export async function enableDevicePush(): Promise<DevicePushState> {
  if (!pushSupported()) return 'unsupported';
  const permission = await Notification.requestPermission();
  if (permission === 'denied') return 'denied';
  if (permission !== 'granted') return 'off';
  const worker = await registration();
  if (!worker?.pushManager) return 'unsupported';
  await subscribeDevice(worker);
  return 'on';
}

/**
 * Sends this device's subscription again, so the server holds it for the account signed in now
 * with its current keys (it may have dropped it, or had it for another account, or changed its
 * key). Quietly nothing where the device has none.
 */
export async function resendDevicePush(): Promise<void> {
  if (!pushSupported() || Notification.permission !== 'granted') return;
  const worker = await registration();
  if (worker?.pushManager && (await worker.pushManager.getSubscription())) await subscribeDevice(worker);
}

/** Unsubscribes this device, then removes it on the server (it would drop it at the next push anyway). */
export async function disableDevicePush(): Promise<void> {
  if (!pushSupported()) return;
  const subscription = await (await registration(false))?.pushManager?.getSubscription();
  if (!subscription) return;
  const { endpoint } = subscription;
  await subscription.unsubscribe();
  await callApi(pushApi.unsubscribe, { body: { endpoint } });
}

/**
 * Logging out: the account's notifications must stop reaching this device. Unsubscribes here (which
 * works offline) and tells the server when it can, giving up after `ms` so a log-out never waits.
 */
export async function forgetDevicePush(ms = 3000): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  try {
    await Promise.race([disableDevicePush().catch(() => undefined), late]);
  } finally {
    clearTimeout(timer);
  }
}
