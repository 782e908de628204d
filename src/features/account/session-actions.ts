import { logoutAndClear } from '../../lib/db/db';
import { clearSession } from '../../lib/session';

/** Logging out ends the session and deletes this account's local database (cache, drafts, outbox). */
export async function logOutAndForget(): Promise<void> {
  try {
    await logoutAndClear();
  } finally {
    clearSession();
  }
}

/** A full page reload (after an account delete, whatever its outcome: ). */
export function reloadPage(): void {
  window.location.reload();
}
