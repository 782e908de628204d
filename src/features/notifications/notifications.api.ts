import type { NotificationType } from '#core/limits';
import { PAGE_SIZES } from '#core/limits';
import { apiFetch } from '../../lib/api/client';
import type { KruhDb } from '../../lib/db/db';

/** A notification as GET /notification/ sends it. */
export interface Notification {
  _id: string;
  type: NotificationType;
  /** The actor's username, or "<deleted>". */
  author: string;
  seen: boolean;
  /** Excerpt of the post or comment the item is about, else null. */
  reply: string | null;
  context: { post: string | null; comment: string | null; count: number };
  username: string;
  groupname: string | null;
  /** The actor's id (avatar key), null when the account is gone. */
  pfp: string | null;
  gp: string | null;
  /** The avatar at its version (absent from copies stored before the server sent it). */
  pfpUrl?: string;
  /** The group picture at its version (absent from copies stored before the server sent it). */
  gpUrl?: string | null;
  groups: string[];
  createdAt: number;
}

export interface NotificationPage {
  notifications: Notification[];
  hasMore: boolean;
}

/** Tells the shell's unread badge to ask the server again. */
export const NOTIFICATIONS_CHANGED_EVENT = 'kruh:notifications-changed';

export function announceChange(): void {
  window.dispatchEvent(new Event(NOTIFICATIONS_CHANGED_EVENT));
}

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
 * GET one page (six items) and store it. The page also stands for the stretch of time it covers:
 * stored items inside that stretch the server no longer lists (deleted here or on another device,
 * a join request another admin decided) are removed, so the list read from the database stays true.
 */
export async function fetchNotificationPage(db: KruhDb, page: number, signal?: AbortSignal): Promise<NotificationPage> {
  const list = await apiFetch<NotificationPage>('/notification/', {
    query: { page, limit: PAGE_SIZES.notifications },
    signal,
  });
  const items = list.notifications ?? [];
  const fresh = new Set(items.map((n) => n._id));
  const sorted = [...items].sort(byNewest);
  const newest = page === 1 ? Infinity : (sorted[0]?.createdAt ?? null);
  const oldest = !list.hasMore ? -Infinity : (sorted[sorted.length - 1]?.createdAt ?? null);
  const cachedAt = Date.now();
  await db.transaction('rw', db.notifications, async () => {
    if (newest !== null && oldest !== null) {
      const stale = (await db.notifications.toArray())
        .filter((row) => {
          const n = row.data as Notification | undefined;
          return !fresh.has(row._id) && !!n && n.createdAt <= newest && n.createdAt >= oldest;
        })
        .map((row) => row._id);
      await db.notifications.bulkDelete(stale);
    }
    await db.notifications.bulkPut(items.map((n) => ({ _id: n._id, data: n, cachedAt })));
  });
  return { notifications: items, hasMore: list.hasMore };
}

/** PATCH /notification/seen: everything listed counts as seen, the badge drops to zero. */
export async function markAllSeen(): Promise<void> {
  await apiFetch('/notification/seen', { method: 'PATCH' });
  announceChange();
}

export async function deleteNotification(db: KruhDb, id: string): Promise<void> {
  await apiFetch(`/notification/${encodeURIComponent(id)}`, { method: 'DELETE' });
  await db.notifications.delete(id);
  announceChange();
}

export async function clearNotifications(db: KruhDb): Promise<void> {
  await apiFetch('/notification/all', { method: 'DELETE' });
  await db.notifications.clear();
  announceChange();
}

export type JoinDecision = 'accept' | 'deny';

/** POST /group/{groupname}/{accept|deny}/{pfp}: decides a join request. */
export function decideJoinRequest(groupname: string, pfp: string, decision: JoinDecision): Promise<{ message?: string }> {
  return apiFetch(`/group/${encodeURIComponent(groupname)}/${decision}/${encodeURIComponent(pfp)}`, { method: 'POST' });
}
