import { useQuery } from '@tanstack/react-query';
import { useLiveQuery } from 'dexie-react-hooks';
import { DELETED } from '#core/limits';
import { ApiError, apiFetch } from '../../lib/api/client';
import type { KruhDb } from '../../lib/db/db';
import { useDb } from '../../lib/db/useDb';

/** The profile as GET /profile/user/{username} answers it. */
export interface Profile {
  _id: string;
  username: string;
  bio: string;
  pfp: string;
  /** The avatar at its version (absent from copies stored before the server sent it). */
  pfpUrl?: string;
  createdAt: number;
  followers: number;
  following: number;
  groups: number;
  itsme: boolean;
  logged: boolean;
  follows: boolean;
  notify: boolean;
  logFollows: boolean;
  isGoogle: boolean;
}

export interface UserListItem {
  _id: string;
  pfp: string;
  /** The avatar at its version (absent from copies stored before the server sent it). */
  pfpUrl?: string;
  username: string;
}

export interface GroupListItem {
  _id?: string;
  gp: string;
  /** The group picture at its version (absent from copies stored before the server sent it). */
  gpUrl?: string;
  name: string;
}

export interface ProfileComment {
  _id: string;
  postId: string;
  text: string;
  createdAt: number;
  author: { username: string; pfp: string | null; pfpUrl?: string };
  parent?: { _id: string; author: { username: string } };
  deleted?: boolean;
}

/** GET the profile and keep a copy in the local database (the screen reads from there). */
export async function fetchProfile(db: KruhDb, username: string, signal?: AbortSignal): Promise<Profile> {
  try {
    const { user } = await apiFetch<{ user: Profile }>(`/profile/user/${encodeURIComponent(username)}`, { signal });
    await db.profiles.put({ username, data: user, cachedAt: Date.now() });
    return user;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) await db.profiles.delete(username);
    throw err;
  }
}

/** Changes the stored copy (after a follow change), so every reader sees it at once. */
export async function patchStoredProfile(db: KruhDb, username: string, change: (p: Profile) => Profile): Promise<void> {
  const row = await db.profiles.get(username);
  if (row) await db.profiles.put({ ...row, data: change(row.data as Profile) });
}

export function useProfile(username: string) {
  const db = useDb();
  const valid = username !== '' && username !== DELETED;
  const query = useQuery({
    queryKey: ['profile', db.name, username],
    queryFn: ({ signal }) => fetchProfile(db, username, signal),
    enabled: valid,
  });
  const stored = useLiveQuery(async () => (valid ? ((await db.profiles.get(username)) ?? null) : null), [db, username, valid]);
  return {
    profile: (stored?.data as Profile | undefined) ?? undefined,
    /** The local read finished (there may be nothing stored). */
    ready: stored !== undefined,
    isFetching: query.isFetching,
    error: query.error,
  };
}

export type FollowState = 'follow' | 'notify' | 'silent' | 'login' | 'me' | 'hidden';

export function followStateOf(profile: Pick<Profile, 'itsme' | 'follows' | 'notify'>, loggedIn: boolean): FollowState {
  if (!loggedIn) return 'login';
  if (profile.itsme) return 'me';
  if (!profile.follows) return 'follow';
  return profile.notify ? 'notify' : 'silent';
}

export const follow = (userId: string) => apiFetch('/follow', { method: 'POST', body: { following: userId } });
export const changeFollow = (userId: string, notify: boolean) =>
  apiFetch('/follow/change', { method: 'PATCH', body: { following: userId, notify } });
export const unfollow = (userId: string) => apiFetch('/follow/delete', { method: 'DELETE', body: { following: userId } });
