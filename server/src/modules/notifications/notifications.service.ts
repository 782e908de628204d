import type { FastifyInstance } from 'fastify';
import { PAGE_SIZES } from '#core/limits';
import { notFound } from '../../lib/app-error.js';
import type { Keyset } from '../../db/helpers.js';
import type { Executor } from '../../db/schema.js';
import { pageWindow, toPage } from '../../lib/paging.js';
import type { ServiceContext } from '../../lib/service-context.js';
import type { Viewer } from '../../plugins/auth.js';
import { type NotificationReply, toNotification } from './notifications.mapper.js';
import * as repo from './notifications.repository.js';

/**
 * The notification list (six per page, newest first, delete one, clear all) plus the
 * unread badge. Items about a post the viewer can no longer see (a private group they left) are
 * left out when read, as the post itself would be.
 */

export async function listNotifications(
  ctx: ServiceContext,
  viewer: Viewer,
  query: { page?: number | undefined; limit?: number | undefined; before?: number | undefined },
): Promise<{ notifications: NotificationReply[]; hasMore: boolean }> {
  const window = pageWindow(query, PAGE_SIZES.notifications);
  const rows = await repo.listPage(ctx.db, viewer.id, window.offset, window.fetch, query.before);
  const { items, hasMore } = toPage(rows, window);
  return { notifications: await toNotifications(ctx.db, items), hasMore };
}

/** The listed rows as the API shows them, with the groups of their group posts. */
async function toNotifications(db: Executor, items: repo.ListedNotification[]): Promise<NotificationReply[]> {
  const groupPosts = [...new Set(items.filter((row) => row.type === 'GROUP_POST' && row.post_id).map((row) => row.post_id as string))];
  const groupsOfPost = new Map<string, string[]>();
  for (const row of await repo.groupNamesOfPosts(db, groupPosts)) {
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
  return row ? ((await toNotifications(app.db, [row]))[0] ?? null) : null;
}

/** A notification row as the list reads it, for adapters that write their own entities from it. */
export type { ListedNotification } from './notifications.repository.js';

/**
 * A page of the user's notifications by (time, id), of the kinds asked for, as rows: the client
 * API writes its own entities from them. The same items are left out as from the list.
 */
export function keyedNotifications(ctx: ServiceContext, userId: string, filter: repo.KindFilter, bounds: repo.KeyedBounds): Promise<repo.ListedNotification[]> {
  return repo.keyedPage(ctx.db, userId, filter, bounds);
}

/** Where one of the user's notifications stands in their list; undefined when it is not theirs. */
export function notificationKey(ctx: ServiceContext, userId: string, id: string): Promise<Keyset | undefined> {
  return repo.keyOf(ctx.db, userId, id);
}

/** One of the user's notifications as a row, as the list would show it. */
export function listedNotification(ctx: ServiceContext, userId: string, id: string): Promise<repo.ListedNotification | undefined> {
  return repo.findListed(ctx.db, userId, id);
}

export async function sessionStillValid(ctx: ServiceContext, viewer: Viewer): Promise<boolean> {
  return (await repo.tokenVersion(ctx.db, viewer.id)) === viewer.user.token_version;
}

/** The user's unread count, for the live stream and push messages. */
export function unreadCount(app: FastifyInstance, userId: string): Promise<number> {
  return repo.unreadCount(app.db, userId);
}

/** GET /notifications/unread: the caller's badge. */
export function unread(ctx: ServiceContext, viewer: Viewer): Promise<number> {
  return repo.unreadCount(ctx.db, viewer.id);
}

async function changed(ctx: ServiceContext, userId: string): Promise<void> {
  (await ctx.app.notificationHub.announce(ctx.db, [userId]))();
}

export async function markAllSeen(ctx: ServiceContext, viewer: Viewer): Promise<void> {
  if (await repo.markAllSeen(ctx.db, viewer.id)) await changed(ctx, viewer.id);
}

/** Someone else's notification answers like a missing one: 404 invalid_id. */
export async function deleteNotification(ctx: ServiceContext, viewer: Viewer, id: string): Promise<void> {
  if (!(await repo.deleteOwn(ctx.db, viewer.id, id))) throw notFound('invalid_id');
  await changed(ctx, viewer.id);
}

export async function deleteAllNotifications(ctx: ServiceContext, viewer: Viewer): Promise<void> {
  if (await repo.deleteAllOwn(ctx.db, viewer.id)) await changed(ctx, viewer.id);
}

/** A group being deleted takes the notifications about it along (in the deletion's transaction). */
export function forgetGroupNotifications(db: Executor, groupId: string): Promise<void> {
  return repo.deleteOfGroup(db, groupId);
}
