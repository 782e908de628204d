/** What a page sends the active service worker to be taken under its control (see claimIfUncontrolled). */
export const CLAIM_MESSAGE = 'CLAIM_CLIENT';

/**
 * Asks the active worker to control this page when it does not yet. The worker claims every open
 * page as it activates, but a page whose load was under way at that moment is missed by the
 * browser: it would stay uncontrolled (its lazy screens failing offline, Settings saying the app is
 * not ready offline) until it was loaded again.
 */
export async function claimIfUncontrolled(container: ServiceWorkerContainer): Promise<void> {
  const registration = await container.ready;
  if (!container.controller) registration.active?.postMessage({ type: CLAIM_MESSAGE });
}
