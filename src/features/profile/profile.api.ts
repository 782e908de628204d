import { followsApi } from '#core/api/follows';
import type { Profile } from '#core/api/profiles';
import { callApi } from '../../lib/api/client';
import type { KruhDb } from '../../lib/db/db';
import { queryKeys } from '../../lib/query/keys';
import { fetchProfile, useStoredSubject } from '../../lib/query/stored';

/**
 * The profile as GET /profile/user/{username} answers it. A stored copy from before the server
 * sent pfpUrl lacks it, so readers fall back to the unversioned avatar.
 */
export type { Profile };

/** Changes the stored copy (after a follow change), so every reader sees it at once. */
export async function patchStoredProfile(db: KruhDb, username: string, change: (p: Profile) => Profile): Promise<void> {
  const row = await db.profiles.get(username);
  if (row) await db.profiles.put({ ...row, data: change(row.data as Profile) });
}

/** The profile from the local database, fetched again from the server. */
export function useProfile(username: string) {
  const fetch = (db: KruhDb, signal: AbortSignal) => fetchProfile(db, username, signal);
  const { data: profile, ...state } = useStoredSubject<Profile>({ key: username, table: (db) => db.profiles, queryKey: (dbName) => queryKeys.profile(dbName, username), fetch });
  return { profile, ...state };
}

export type FollowState = 'follow' | 'notify' | 'silent' | 'login' | 'me' | 'hidden';

export function followStateOf(profile: Pick<Profile, 'itsme' | 'follows' | 'notify'>, loggedIn: boolean): FollowState {
  if (!loggedIn) return 'login';
  if (profile.itsme) return 'me';
  if (!profile.follows) return 'follow';
  return profile.notify ? 'notify' : 'silent';
}

export { follow } from '../../lib/api/memberships';
export const changeFollow = (userId: string, notify: boolean) => callApi(followsApi.change, { body: { following: userId, notify } });
export const unfollow = (userId: string) => callApi(followsApi.unfollow, { body: { following: userId } });
