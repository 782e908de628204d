import { type PasskeyItem, passkeysApi } from '#core/api/passkeys';
import { callApi } from '../../lib/api/client';
import type { KruhDb } from '../../lib/db/db';
import { createPasskey } from '../../lib/passkeys';
import { storedList } from '../../lib/query/stored';

/** Where the account's passkeys are kept, so the list shows offline once seen. */
export const PASSKEYS_META_KEY = 'passkeys';

const stored = storedList<PasskeyItem>(PASSKEYS_META_KEY);

export async function fetchPasskeys(db: KruhDb, signal?: AbortSignal): Promise<PasskeyItem[]> {
  const { passkeys } = await callApi(passkeysApi.list, {}, { signal });
  await db.meta.put({ key: PASSKEYS_META_KEY, value: passkeys });
  return passkeys;
}

/** Makes a passkey in the browser for the server's challenge, has the server keep it, and lists it. */
export async function addPasskey(db: KruhDb, name: string): Promise<PasskeyItem> {
  const { challengeId, options } = await callApi(passkeysApi.registrationOptions);
  const response = await createPasskey(options);
  const trimmed = name.trim();
  const added = await callApi(passkeysApi.register, { body: { challengeId, response, ...(trimmed ? { name: trimmed } : {}) } });
  await stored.update(db, (current) => [added, ...current.filter((p) => p._id !== added._id)]);
  return added;
}

/** Removes one passkey; one already gone (removed on another device) leaves the list as well. */
export const removePasskey = (db: KruhDb, id: string): Promise<string> =>
  stored.removeOne(db, (p) => p._id !== id, () => callApi(passkeysApi.remove, { params: { id } }));
