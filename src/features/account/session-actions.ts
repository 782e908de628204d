import { logoutAndClear } from '../../lib/db/db';
import { clearSession } from '../../lib/session';

/**
 * Logging out ends the session, stops this device's notifications (Web Push) and deletes this
 * account's local database (cache, drafts, outbox).
 */
export async function logOutAndForget(): Promise<void> {
  try {
    // The account's notifications stop coming to this device (asked while the session still holds).
    await import('../../lib/push/device-push').then((push) => push.forgetDevicePush(), () => undefined);
    await logoutAndClear();
  } finally {
    clearSession();
  }
}

/**
 * A full page reload, at `path` when given (after an account delete: nothing of the account stays
 * in memory). The app routes after the #, so the new address is set at once, before the reload.
 */
export function reloadPage(path?: string): void {
  if (path !== undefined) window.location.hash = path;
  window.location.reload();
}
