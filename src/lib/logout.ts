import { logoutAndClear } from './db/db';
import { clearSession } from './session';

/**
 * Logging out ends the session, stops this device's notifications (Web Push) and deletes this
 * account's local database (cache, drafts, outbox).
 */
export async function logOutAndForget(): Promise<void> {
  try {
    // The account's notifications stop coming to this device (asked while the session still holds).
    await import('./push/device-push').then((push) => push.forgetDevicePush(), () => undefined);
    await logoutAndClear();
  } finally {
    clearSession();
  }
}
