import { followsApi } from '#core/api/follows';
import type { Profile } from '#core/api/profiles';
import { callApi } from '../../lib/api/client';
import type { KruhDb } from '../../lib/db/db';

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

export { useProfile } from '../../lib/query/stored';

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
