import { registerSW } from 'virtual:pwa-register';
import { claimIfUncontrolled } from '../lib/worker-control';
import { setUpdateAvailable } from './pwa-state';

/** How often an open app asks whether a new version was published. */
const UPDATE_CHECK_MS = 60 * 60 * 1000;

/** Registers the service worker; a waiting new version raises the update banner. */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  const updateSW = registerSW({
    immediate: true,
    onNeedRefresh() {
      setUpdateAvailable(() => {
        // Reload once the new version controls the page. The helper reloads by itself only when
        // the page was already controlled as it loaded, which a page open since the first install
        // is not: without this, "Reload" there would do nothing.
        navigator.serviceWorker.addEventListener('controllerchange', () => window.location.reload(), { once: true });
        void updateSW(true);
      });
    },
    onRegisteredSW(_url: string, registration: ServiceWorkerRegistration | undefined) {
      // An installed app may stay open for days: look for a new version now and then, not only
      // when it is started.
      if (registration) setInterval(() => void registration.update().catch(() => undefined), UPDATE_CHECK_MS);
      void claimIfUncontrolled(navigator.serviceWorker).catch(() => undefined);
    },
    onRegisterError(error: unknown) {
      console.warn('service worker registration failed', error);
    },
  });
}
