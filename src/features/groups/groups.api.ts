import { useQuery } from '@tanstack/react-query';
import { useLiveQuery } from 'dexie-react-hooks';
import { DELETED, type GroupNotificationLevel } from '#core/limits';
import { ApiError, apiFetch } from '../../lib/api/client';
import type { KruhDb } from '../../lib/db/db';
import { useDb } from '../../lib/db/useDb';

/** The group as GET /group/{name} answers it (admin is true for the owner too). */
export interface Group {
  _id: string;
  name: string;
  description: string;
  gp: string;
  /** The group picture at its version (absent from copies stored before the server sent it). */
  gpUrl?: string;
  private: boolean;
  requestJoin: boolean;
  everyoneCanPost: boolean;
  members: number;
  bans: number;
  pinnedPost: string | null;
  member: boolean;
  banned: boolean;
  owner: boolean;
  admin: boolean;
  logged: boolean;
  canUserPost: boolean;
  requested?: boolean;
  createdAt: number;
  notification?: number | null;
}

export interface GroupUser {
  _id: string;
  pfp: string;
  /** The avatar at its version (absent from copies stored before the server sent it). */
  pfpUrl?: string;
  username: string;
  admin: boolean;
  owner: boolean;
  banned: boolean;
}

export interface GroupUserList {
  userList: GroupUser[];
  logged: boolean;
  hasMore: boolean;
  group: { _id: string; name: string; admin: boolean; owner: boolean };
}

export interface GroupInput {
  name: string;
  description: string;
  isPrivate: boolean;
  requestJoin: boolean;
  everyoneCanPost: boolean;
}

const groupPath = (name: string) => `/group/${encodeURIComponent(name)}`;

/** GET the group and keep a copy in the local database (the screen reads from there). */
export async function fetchGroup(db: KruhDb, name: string, signal?: AbortSignal): Promise<Group> {
  try {
    const { group } = await apiFetch<{ group: Group }>(groupPath(name), { signal });
    await db.groups.put({ name, data: group, cachedAt: Date.now() });
    return group;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) await db.groups.delete(name);
    throw err;
  }
}

export const groupQueryKey = (dbName: string, name: string) => ['group', dbName, name] as const;

export function useGroup(name: string) {
  const db = useDb();
  const valid = name !== '' && name !== DELETED;
  const query = useQuery({
    queryKey: groupQueryKey(db.name, name),
    queryFn: ({ signal }) => fetchGroup(db, name, signal),
    enabled: valid,
  });
  const stored = useLiveQuery(async () => (valid ? ((await db.groups.get(name)) ?? null) : null), [db, name, valid]);
  return {
    group: (stored?.data as Group | undefined) ?? undefined,
    ready: stored !== undefined,
    error: query.error,
    refetch: () => query.refetch(),
  };
}

interface MessageReply {
  message?: string;
}

export const joinGroup = (name: string) => apiFetch<MessageReply>(`${groupPath(name)}/join`, { method: 'PUT' });
export const leaveGroup = (name: string) => apiFetch<MessageReply>(`${groupPath(name)}/leave`, { method: 'DELETE' });
export const requestToJoin = (name: string) => apiFetch<MessageReply>(`${groupPath(name)}/request`, { method: 'POST' });

export type ModerationAction = 'admin' | 'deadmin' | 'ban' | 'unban';
const ACTION_METHOD = { admin: 'PATCH', deadmin: 'PATCH', ban: 'PUT', unban: 'PUT' } as const;

export const moderate = (name: string, action: ModerationAction, pfp: string) =>
  apiFetch<MessageReply>(`${groupPath(name)}/${action}/${encodeURIComponent(pfp)}`, { method: ACTION_METHOD[action] });

/** PATCH /group/{name}/owner/{pfp}: the owner hands the group to a member and stays an admin. */
export const transferOwnership = (name: string, pfp: string) =>
  apiFetch<MessageReply>(`${groupPath(name)}/owner/${encodeURIComponent(pfp)}`, { method: 'PATCH' });

export const setNotificationLevel = (groupId: string, notification: GroupNotificationLevel) =>
  apiFetch<{ notification: number }>(`/group/${encodeURIComponent(groupId)}/notification`, { method: 'PATCH', body: { notification } });

interface SavedGroup {
  group: { _id: string; name: string };
  message?: string;
}

/** POST /group (create) or PATCH /group/{id}/update; a create carries one key per submitted form. */
export function saveGroup(input: GroupInput, options: { id?: string; idempotencyKey?: string } = {}) {
  if (options.id) return apiFetch<SavedGroup>(`/group/${encodeURIComponent(options.id)}/update`, { method: 'PATCH', body: input });
  return apiFetch<SavedGroup>('/group', {
    method: 'POST',
    body: input,
    ...(options.idempotencyKey ? { headers: { 'Idempotency-Key': options.idempotencyKey } } : {}),
  });
}

export function uploadGroupAvatar(groupId: string, file: Blob) {
  const form = new FormData();
  form.append('gp', file);
  return apiFetch<{ url: string }>(`/upload/gp/${encodeURIComponent(groupId)}`, { method: 'POST', formData: form });
}

export const deleteGroup = (groupId: string) => apiFetch<MessageReply>(`/group/${encodeURIComponent(groupId)}`, { method: 'DELETE' });
