import { useQuery } from '@tanstack/react-query';
import { useLiveQuery } from 'dexie-react-hooks';
import { DELETED } from '#core/limits';
import { ApiError, apiFetch } from '../api/client';
import type { GroupList, NameResult, Post } from '../api/types';
import { type CachedPost, type KruhDb, getDb } from '../db/db';
import { useDb } from '../db/useDb';

/** GET /post/{id} into the database; a post gone from the server is removed there too. */
export async function fetchPost(id: string, options: { signal?: AbortSignal; db?: KruhDb } = {}): Promise<Post> {
  const db = options.db ?? getDb();
  try {
    const post = await apiFetch<Post>(`/post/${encodeURIComponent(id)}`, { signal: options.signal });
    await db.posts.put({ ...post, cachedAt: Date.now() });
    return post;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) await db.posts.delete(id);
    throw err;
  }
}

export interface PostState {
  post: CachedPost | undefined;
  /** The stored copy was read (it may not exist). */
  cached: boolean;
  isFetching: boolean;
  error: unknown;
  /** The id is the deleted marker, or the server says the post is gone. */
  deleted: boolean;
}

/** One post: the stored copy paints first, then the server's answer replaces it. */
export function usePost(id: string | null | undefined): PostState {
  const db = useDb();
  const valid = !!id && id !== DELETED;
  const query = useQuery({
    queryKey: ['post', db.name, id],
    queryFn: ({ signal }) => fetchPost(id!, { signal, db }),
    enabled: valid,
  });
  const post = useLiveQuery(async () => (valid ? ((await db.posts.get(id)) ?? null) : null), [db, id, valid]);
  const gone = query.error instanceof ApiError && query.error.status === 404;
  return {
    post: post ?? undefined,
    cached: post !== undefined,
    isFetching: query.isFetching,
    error: query.error,
    deleted: id === DELETED || (gone && !post),
  };
}

/** DELETE /post/{id}; the stored copy and its place in stored pages go too. */
export async function deletePost(id: string, db: KruhDb = getDb()): Promise<void> {
  await apiFetch(`/post/${encodeURIComponent(id)}`, { method: 'DELETE' });
  await db.transaction('rw', db.posts, db.feedPages, async () => {
    await db.posts.delete(id);
    await db.feedPages.toCollection().modify((page) => {
      page.ids = page.ids.filter((x) => x !== id);
    });
  });
}

/** GET /profile/user/{username}/groups (first page), stored under the user's profile. */
export async function fetchUserGroups(username: string, options: { signal?: AbortSignal; db?: KruhDb } = {}): Promise<GroupList> {
  const db = options.db ?? getDb();
  const list = await apiFetch<GroupList>(`/profile/user/${encodeURIComponent(username)}/groups`, {
    query: { page: 1, limit: 20 },
    signal: options.signal,
  });
  await db.meta.put({ key: `groups-of:${username}`, value: list });
  return list;
}

export function useUserGroups(username: string | null, enabled = true): GroupList | undefined {
  const db = useDb();
  useQuery({
    queryKey: ['user-groups', db.name, username],
    queryFn: ({ signal }) => fetchUserGroups(username!, { signal, db }),
    enabled: enabled && !!username,
  });
  return useLiveQuery(
    async () => (username ? ((await db.meta.get(`groups-of:${username}`))?.value as GroupList | undefined) : undefined),
    [db, username],
  );
}

/** Suggestions for a mention (users) or group slot (the user's groups); failures are only logged. */
export async function searchNames(kind: 'users' | 'mygroups', query: string, signal?: AbortSignal): Promise<NameResult[]> {
  try {
    return await apiFetch<NameResult[]>(`/search/${kind}`, { query: { query }, signal });
  } catch (err) {
    if ((err as Error)?.name !== 'AbortError') console.warn('search', err);
    return [];
  }
}
