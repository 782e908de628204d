import { useSyncExternalStore } from 'react';

/** Whether a service worker controls this page: the app then opens and reads without a network. */
const controlled = (): boolean => navigator.serviceWorker?.controller != null;

function subscribe(changed: () => void): () => void {
  const container = navigator.serviceWorker;
  if (!container) return () => undefined;
  container.addEventListener('controllerchange', changed);
  return () => container.removeEventListener('controllerchange', changed);
}

/**
 * Said quietly where settings are, rather than announced over the first screen a newcomer sees:
 * being ready offline is what the app is expected to be, not news.
 */
export function useWorksOffline(): boolean {
  return useSyncExternalStore(subscribe, controlled, () => false);
}
