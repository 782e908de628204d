import { useQuery } from '@tanstack/react-query';
import { useLiveQuery } from 'dexie-react-hooks';
import { blocksApi } from '#core/api/blocks';
import { callApi } from '../../lib/api/client';
import type { KruhDb, SafetyAction } from '../../lib/db/db';
import { useDb } from '../../lib/db/useDb';
import { queueSafety } from '../../lib/outbox/kinds/safety';
import { safetyStateKey, setSafetyState } from '../../lib/outbox/kinds/safety';
import { queryKeys } from '../../lib/query/keys';
import { toast } from '../../lib/toast';

/** The account's own state of a block or mute as stored: undefined while this device has not learnt it. */
export function useStoredSafetyState(action: SafetyAction, subject: string): boolean | undefined {
  const db = useDb();
  return useLiveQuery(async () => (await db.meta.get(safetyStateKey(action, subject)))?.value as boolean | undefined, [db, action, subject]);
}

/** The same, false until known otherwise. */
export const useSafetyState = (action: SafetyAction, subject: string): boolean => useStoredSafetyState(action, subject) === true;

/**
 * Reads the caller's block and mute of a user from the server into the local database, unless a
 * change of them is still waiting to be sent (the local state is then the newer one).
 */
async function storeBlockState(db: KruhDb, userId: string): Promise<boolean> {
  const state = await callApi(blocksApi.state, { params: { pfp: userId } });
  await db.transaction('rw', db.meta, db.outbox, async () => {
    for (const [action, on] of [['block', state.blocking], ['mute', state.muting]] as const) {
      const waiting = await db.outbox.where('target').equals(`safety:${action}:${userId}`).count();
      if (!waiting) await setSafetyState(db, action, userId, on);
    }
  });
  return state.blockedBy;
}

/** Keeps the stored block and mute of a user fresh while a screen shows them; answers whether they block the caller. */
export function useBlockState(userId: string | null, enabled = true): boolean {
  const db = useDb();
  const query = useQuery({
    queryKey: queryKeys.blockState(db.name, userId ?? ''),
    queryFn: () => storeBlockState(db, userId!),
    enabled: enabled && !!userId,
    // The profile's header and its menu both ask; one answer serves a visit.
    staleTime: 60_000,
  });
  return query.data === true;
}

/** Sets a block, a mute or a muted hashtag through the outbox (sent when online, once). */
export const setSafety = (action: SafetyAction, subject: string, on: boolean, options: { label?: string; from?: boolean } = {}) =>
  queueSafety(action, subject, on, options);

/**
 * Mutes or unmutes a user and says so: a mute changes nothing the screen shows at once (their
 * posts only leave later lists), so without the toast the click would look lost.
 */
export async function setMute(userId: string, username: string, on: boolean): Promise<void> {
  await setSafety('mute', userId, on, { label: username });
  toast.info(on ? 'safety:muted_toast' : 'safety:unmuted_toast', { username });
}
