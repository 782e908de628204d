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
 * A full page load, at `path` when given (after an account delete: nothing of the account stays
 * in memory), else of the page as it is.
 */
export function reloadPage(path?: string): void {
  if (path === undefined) window.location.reload();
  else window.location.assign(path);
}
