import { groupsApi } from '#core/api/groups';
import { type Notification, notificationsApi } from '#core/api/notifications';
import { PAGE_SIZES } from '#core/limits';
import { callApi } from '../../lib/api/client';
import type { KruhDb } from '../../lib/db/db';
import { announceNotificationsChanged } from '../../lib/notification-signals';
import type { ItemStore, PagedSource } from '../../lib/query/paged';

/**
 * A notification as GET /notification/ sends it. Copies stored before the server sent pfpUrl and
 * gpUrl lack them; the avatar falls back to the plain address of the id then.
 */
export type { Notification };

/** Newest first; the id (time-ordered) breaks ties. */
export function byNewest(a: Notification, b: Notification): number {
  return b.createdAt - a.createdAt || (a._id < b._id ? 1 : a._id > b._id ? -1 : 0);
}

/** The stored notifications, newest first (each id once: the table is keyed by it). */
export async function readStoredNotifications(db: KruhDb): Promise<Notification[]> {
  const rows = await db.notifications.toArray();
  return rows.map((row) => row.data as Notification).filter((n) => n && typeof n.createdAt === 'number').sort(byNewest);
}

/**
 * How the paging engine stores a page (six items). The page also stands for the stretch of time it
 * covers: stored items inside that stretch the server no longer lists (deleted here or on another
 * device, a join request another admin decided) are removed, so the list read from the database
 * stays true.
 */
export const notificationStore: ItemStore<Notification> = {
  tables: (db) => [db.notifications],
  idOf: (n) => n._id,
  put: async (db, items, { page, hasMore, fetchedAt }) => {
    const fresh = new Set(items.map((n) => n._id));
    const sorted = [...items].sort(byNewest);
    const newest = page === 1 ? Infinity : (sorted[0]?.createdAt ?? null);
    const oldest = !hasMore ? -Infinity : (sorted[sorted.length - 1]?.createdAt ?? null);
    if (newest !== null && oldest !== null) {
      const stale = (await db.notifications.toArray())
        .filter((row) => {
          const n = row.data as Notification | undefined;
          return !fresh.has(row._id) && !!n && n.createdAt <= newest && n.createdAt >= oldest;
        })
        .map((row) => row._id);
      await db.notifications.bulkDelete(stale);
    }
    await db.notifications.bulkPut(items.map((n) => ({ _id: n._id, data: n, cachedAt: fetchedAt })));
  },
  get: async (db, ids) => (await db.notifications.bulkGet(ids)).flatMap((row) => (row ? [row.data as Notification] : [])),
};

/** GET /notification/ for the paging engine; the screen reads the whole table (readStoredNotifications). */
export const notificationSource: PagedSource<typeof notificationsApi.list, 'notifications'> = {
  key: 'notifications',
  endpoint: notificationsApi.list,
  limit: PAGE_SIZES.notifications,
  field: 'notifications',
  store: notificationStore,
};

/** PATCH /notification/seen: everything listed counts as seen, the badge drops to zero. */
export async function markAllSeen(): Promise<void> {
  await callApi(notificationsApi.seen);
  announceNotificationsChanged();
}

export async function deleteNotification(db: KruhDb, id: string): Promise<void> {
  await callApi(notificationsApi.delete, { params: { id } });
  await db.notifications.delete(id);
  announceNotificationsChanged();
}

export async function clearNotifications(db: KruhDb): Promise<void> {
  await callApi(notificationsApi.deleteAll);
  await db.notifications.clear();
  announceNotificationsChanged();
}

export type JoinDecision = 'accept' | 'deny';

/** POST /group/{groupname}/{accept|deny}/{pfp}: decides a join request. */
export function decideJoinRequest(groupname: string, pfp: string, decision: JoinDecision) {
  return callApi(groupsApi[decision], { params: { name: groupname, pfp } });
}
