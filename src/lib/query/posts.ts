import { type QueryClient, useQuery } from '@tanstack/react-query';
import { useLiveQuery } from 'dexie-react-hooks';
import { DELETED, PAGE_SIZES } from '#core/limits';
import { groupsApi } from '#core/api/groups';
import { type PostVersion, postsApi } from '#core/api/posts';
import { profilesApi } from '#core/api/profiles';
import { searchApi } from '#core/api/search';
import { ApiError, callApi } from '../api/client';
import type { NameResult, Post } from '../api/types';
import { type CachedPost, type KruhDb, getDb } from '../db/db';
import { useDb } from '../db/useDb';
import { usePagedList } from './paged-list';
import { listKeys, queryKeys } from './keys';
import { useStoredValue } from './stored';

/** GET /post/{id} into the database; a post gone from the server is removed there too. */
export async function fetchPost(id: string, options: { signal?: AbortSignal; db?: KruhDb } = {}): Promise<Post> {
  const db = options.db ?? getDb();
  try {
    const post = await callApi(postsApi.get, { params: { postId: id } }, { signal: options.signal });
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
  /** The id is the deleted marker, the post was deleted here, or the server says it is gone. */
  deleted: boolean;
  /** Deleted on this device: said at once, and kept unless reloading shows the post still there. */
  deletedHere: boolean;
}

/** One post: the stored copy paints first, then the server's answer replaces it. */
export function usePost(id: string | null | undefined): PostState {
  const db = useDb();
  const valid = !!id && id !== DELETED;
  const query = useQuery({
    queryKey: queryKeys.post(db.name, id),
    queryFn: ({ signal }) => fetchPost(id!, { signal, db }),
    enabled: valid,
  });
  const post = useLiveQuery(async () => (valid ? ((await db.posts.get(id)) ?? null) : null), [db, id, valid]);
  // Only written by deletePostHere; a query that never runs, so every view of the post hears of it.
  const deletedHere = useQuery({ queryKey: queryKeys.postDeletedHere(db.name, id), queryFn: () => false, enabled: false }).data === true;
  const gone = query.error instanceof ApiError && query.error.status === 404;
  return {
    post: post ?? undefined,
    cached: post !== undefined,
    isFetching: query.isFetching,
    error: query.error,
    deleted: id === DELETED || deletedHere || (gone && !post),
    deletedHere,
  };
}

/** DELETE /post/{id}; the stored copy and its place in stored pages go too. */
export async function deletePost(id: string, db: KruhDb = getDb()): Promise<void> {
  await callApi(postsApi.delete, { params: { postId: id } });
  await db.transaction('rw', db.posts, db.feedPages, async () => {
    await db.posts.delete(id);
    await db.feedPages.toCollection().modify((page) => {
      page.ids = page.ids.filter((x) => x !== id);
    });
  });
}

/**
 * Fetches the post again, whatever came before (a 404 removes the stored copy), and reloads the
 * shown feeds. A failed fetch is left to the views of the post, which show their own states.
 */
export async function reloadPost(queryClient: QueryClient, id: string, db: KruhDb): Promise<void> {
  const queryKey = queryKeys.post(db.name, id);
  // A read still in flight may have left before the change that asks for this reload, and
  // fetchQuery would hand back its answer: cancel it, so the post is read after the change.
  await queryClient.cancelQueries({ queryKey });
  await Promise.all([
    queryClient.fetchQuery({ queryKey, queryFn: () => fetchPost(id, { db }), staleTime: 0 }).catch(() => undefined),
    queryClient.invalidateQueries({ queryKey: queryKeys.feeds(db.name) }),
  ]);
}

/**
 * The author's delete: the post reads as deleted at once wherever it is shown on its own, then the
 * request, then a reload whatever the outcome. The mark stays if the post is no longer stored (the
 * delete went through, or the server no longer has it); a post still stored (the delete failed,
 * or the device is offline) shows again. Rejects as the request did, after the reload.
 */
export async function deletePostHere(queryClient: QueryClient, id: string, db: KruhDb): Promise<void> {
  const mark = queryKeys.postDeletedHere(db.name, id);
  queryClient.setQueryData(mark, true);
  try {
    await deletePost(id, db);
  } finally {
    await reloadPost(queryClient, id, db);
    if (await db.posts.get(id)) queryClient.setQueryData(mark, false);
  }
}

/** Groups the strip over the groups feed asks for at a time (the profile's list asks PAGE_SIZES.groups). */
const GROUP_STRIP_PAGE_SIZE = 20;

/**
 * A user's groups page by page, through the paging engine: the profile's list of them or the
 * strip over the groups feed, each stored for offline under its own key (their page sizes differ).
 */
export function useUserGroups(username: string, where: 'profile' | 'strip') {
  return usePagedList({
    list: where === 'profile' ? listKeys.profileGroups(username) : listKeys.groupStrip(username),
    endpoint: profilesApi.groups,
    params: { username },
    field: 'groupList',
    idOf: (g) => g.gp,
    limit: where === 'profile' ? PAGE_SIZES.groups : GROUP_STRIP_PAGE_SIZE,
  });
}

/** GET /post/{id}/groups: the names of the post's groups the caller may see (a reply goes to them). */
export function usePostGroups(id: string | null): string[] | undefined {
  const db = useDb();
  const key = `post-groups:${id}`;
  return useStoredValue<string[]>(id && id !== DELETED ? key : null, queryKeys.postGroups(db.name, id), async (db, signal) => {
    const names = await callApi(postsApi.groups, { params: { postId: id! } }, { signal });
    await db.meta.put({ key, value: names });
    return names;
  }).value;
}

/** GET /post/{id}/history: the post's earlier versions, newest first, kept so they read offline. */
export function usePostHistory(id: string, editedAt: number | null | undefined): PostVersion[] | undefined {
  const db = useDb();
  const key = `post-history:${id}`;
  return useStoredValue<PostVersion[]>(key, queryKeys.postHistory(db.name, id, editedAt ?? null), async (db, signal) => {
    const { versions } = await callApi(postsApi.history, { params: { postId: id } }, { signal });
    await db.meta.put({ key, value: versions });
    return versions;
  }).value;
}

/**
 * GET /group/{name}/pinned: the group's pinned post, stored with the posts (its id kept under the
 * group's name); a group with none, or one the caller may not see, stores none.
 */
export function usePinnedPost(name: string, enabled: boolean): CachedPost | undefined {
  const db = useDb();
  const key = `pinned-of:${name.toLowerCase()}`;
  const id = useStoredValue<string | null>(key, queryKeys.groupPinned(db.name, name), async (db, signal) => {
    try {
      const post = await callApi(groupsApi.pinned, { params: { name } }, { signal });
      await db.transaction('rw', db.posts, db.meta, async () => {
        await db.posts.put({ ...post, cachedAt: Date.now() });
        await db.meta.put({ key, value: post._id });
      });
      return post._id;
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 404) throw err;
      await db.meta.put({ key, value: null });
      return null;
    }
  }, enabled).value;
  return useLiveQuery(async () => (enabled && id ? await db.posts.get(id) : undefined), [db, id, enabled]);
}

/** Suggestions for a mention (users) or group slot (the user's groups); failures are only logged. */
export async function searchNames(kind: 'users' | 'mygroups', query: string, signal?: AbortSignal): Promise<NameResult[]> {
  try {
    return await callApi(kind === 'users' ? searchApi.suggestUsers : searchApi.suggestMyGroups, { query: { query } }, { signal });
  } catch (err) {
    if ((err as Error)?.name !== 'AbortError') console.warn('search', err);
    return [];
  }
}
