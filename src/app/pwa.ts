import { registerSW } from 'virtual:pwa-register';
import { toast } from '../lib/toast';
import { setUpdateAvailable } from './pwa-state';

/** Registers the service worker; a waiting new version raises the update banner. */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  const updateSW = registerSW({
    immediate: true,
    onNeedRefresh() {
      setUpdateAvailable(() => updateSW(true));
    },
    onOfflineReady() {
      toast.info('update.offlineReady');
    },
    onRegisterError(error: unknown) {
      console.warn('service worker registration failed', error);
    },
  });
}
