import type { FastifyInstance } from 'fastify';
import { PAGE_SIZES } from '#core/limits';
import { notFound } from '../../lib/app-error.js';
import type { Executor } from '../../db/schema.js';
import { pageWindow, toPage } from '../../lib/paging.js';
import type { Viewer } from '../../plugins/auth.js';
import { type NotificationReply, toNotification } from './notifications.mapper.js';
import * as repo from './notifications.repository.js';

/**
 * The notification list (six per page, newest first, delete one, clear all) plus the
 * unread badge. Items about a post the viewer can no longer see (a private group they left) are
 * left out when read, as the post itself would be.
 */

export async function listNotifications(
  app: FastifyInstance,
  viewer: Viewer,
  query: { page?: number | undefined; limit?: number | undefined; before?: number | undefined },
): Promise<{ notifications: NotificationReply[]; hasMore: boolean }> {
  const window = pageWindow(query, PAGE_SIZES.notifications);
  const rows = await repo.listPage(app.db, viewer.id, window.offset, window.fetch, query.before);
  const { items, hasMore } = toPage(rows, window);
  return { notifications: await toNotifications(app, items), hasMore };
}

/** The listed rows as the API shows them, with the groups of their group posts. */
async function toNotifications(app: FastifyInstance, items: repo.ListedNotification[]): Promise<NotificationReply[]> {
  const groupPosts = [...new Set(items.filter((row) => row.type === 'GROUP_POST' && row.post_id).map((row) => row.post_id as string))];
  const groupsOfPost = new Map<string, string[]>();
  for (const row of await repo.groupNamesOfPosts(app.db, groupPosts)) {
    const names = groupsOfPost.get(row.post_id) ?? [];
    names.push(row.name);
    groupsOfPost.set(row.post_id, names);
  }
  return items.map((row) => toNotification(row, groupsOfPost));
}

/**
 * One of the user's notifications as the list would show it (the push message is written from
 * it), with whether it was seen; null when it is gone or its post is no longer the user's to see.
 */
export async function findNotification(app: FastifyInstance, userId: string, id: string): Promise<NotificationReply | null> {
  const row = await repo.findListed(app.db, userId, id);
  return row ? ((await toNotifications(app, [row]))[0] ?? null) : null;
}

export async function sessionStillValid(app: FastifyInstance, viewer: Viewer): Promise<boolean> {
  return (await repo.tokenVersion(app.db, viewer.id)) === viewer.user.token_version;
}

export function unreadCount(app: FastifyInstance, userId: string): Promise<number> {
  return repo.unreadCount(app.db, userId);
}

async function changed(app: FastifyInstance, userId: string): Promise<void> {
  (await app.notificationHub.announce(app.db, [userId]))();
}

export async function markAllSeen(app: FastifyInstance, viewer: Viewer): Promise<void> {
  if (await repo.markAllSeen(app.db, viewer.id)) await changed(app, viewer.id);
}

/** Someone else's notification answers like a missing one: 404 invalid_id. */
export async function deleteNotification(app: FastifyInstance, viewer: Viewer, id: string): Promise<void> {
  if (!(await repo.deleteOwn(app.db, viewer.id, id))) throw notFound('invalid_id');
  await changed(app, viewer.id);
}

export async function deleteAllNotifications(app: FastifyInstance, viewer: Viewer): Promise<void> {
  if (await repo.deleteAllOwn(app.db, viewer.id)) await changed(app, viewer.id);
}

/** A group being deleted takes the notifications about it along (in the deletion's transaction). */
export function forgetGroupNotifications(db: Executor, groupId: string): Promise<void> {
  return repo.deleteOfGroup(db, groupId);
}
