import type { Account } from '#core/api/account';
import type { KruhDb } from './db/db';

/** Where the account's last answer is kept (the account screens paint it offline). */
export const ACCOUNT_META_KEY = 'account';

/** An account as stored: a copy kept before the server sent `pfpUrl` lacks it. */
export type StoredAccount = Omit<Account, 'pfpUrl'> & Partial<Pick<Account, 'pfpUrl'>>;

export async function readStoredAccount(db: KruhDb): Promise<StoredAccount | null> {
  const row = await db.meta.get(ACCOUNT_META_KEY);
  return (row?.value as StoredAccount | undefined) ?? null;
}

export async function storeAccount(db: KruhDb, account: StoredAccount): Promise<void> {
  await db.meta.put({ key: ACCOUNT_META_KEY, value: account });
}

/** Changes a few fields of the stored account (a call the server accepted, or a change queued to it). */
export async function patchStoredAccount(db: KruhDb, change: Partial<Account>): Promise<void> {
  await db.transaction('rw', db.meta, async () => {
    const current = await readStoredAccount(db);
    if (current) await storeAccount(db, { ...current, ...change });
  });
}
