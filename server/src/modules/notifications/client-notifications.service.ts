import type { ClientNotification } from '#core/api/client-notifications';
import type { Status } from '#core/api/client-entities';
import type { Comment } from '#core/api/comments';
import { clientNotificationType, selectKinds } from '#core/client-notifications';
import type { NotificationType } from '#core/limits';
import { notFound } from '../../lib/app-error.js';
import type { ServiceContext } from '../../lib/service-context.js';
import type { Viewer } from '../../lib/viewer.js';
import { readableComment } from '../comments/comments.service.js';
import {
  type ListedNotification,
  deleteAllNotifications,
  deleteNotification,
  keyedNotifications,
  listedNotification,
  notificationKey,
  unread,
} from './notifications.service.js';
import { getPostsForViewer } from '../posts/posts.service.js';
import { accountsByIds, originOf } from '../clientapi/accounts.service.js';
import { goneAccount, isoTime } from '../clientapi/account.mapper.js';
import { commentStatusId, groupAccountId } from '../clientapi/client-ids.js';
import { type ClientPageQuery, boundsOf } from '../clientapi/client-paging.js';
import { asStatuses } from '../clientapi/statuses.service.js';

/** The kinds whose notification is about a status: without one the caller may read, it is not listed. */
const ABOUT_STATUS = new Set<NotificationType>(['MENTION', 'COMMENT_MENTION', 'NEW_REPLY', 'NEW_POST', 'GROUP_POST']);

/**
 * Notification rows as apps read them, with the accounts, groups and statuses of the whole page
 * read together. An item about a status the viewer may no longer read (a comment since deleted)
 * is left out, as the web app shows no text for it.
 */
export async function asClientNotifications(ctx: ServiceContext, viewer: Viewer, rows: readonly ListedNotification[]): Promise<ClientNotification[]> {
  const origin = originOf(ctx);
  const postIds = [...new Set(rows.filter((row) => ABOUT_STATUS.has(row.type as NotificationType) && row.post_id && !row.comment_id).map((row) => row.post_id!))];
  const commentIds = [...new Set(rows.filter((row) => ABOUT_STATUS.has(row.type as NotificationType) && row.comment_id).map((row) => row.comment_id!))];
  const [accounts, posts, comments] = await Promise.all([
    accountsByIds(ctx, viewer, rows.flatMap((row) => [...(row.actor_id ? [row.actor_id] : []), ...(row.group_id ? [groupAccountId(row.group_id)] : [])])),
    getPostsForViewer(ctx.db, postIds, viewer.id, ctx.app),
    Promise.all(commentIds.map((id) => readableComment(ctx, viewer, id))),
  ]);
  const mapped = await asStatuses(ctx, viewer, { posts, comments: comments.filter((c): c is Comment => c !== null) });
  const statuses = new Map<string, Status>([...mapped.posts, ...mapped.comments].map((status) => [status.id, status]));
  return rows.flatMap((row): ClientNotification[] => {
    const kind = row.type as NotificationType;
    const status = ABOUT_STATUS.has(kind) ? statuses.get(row.comment_id ? commentStatusId(row.comment_id) : (row.post_id ?? '')) : undefined;
    if (ABOUT_STATUS.has(kind) && !status) return [];
    const group = row.group_id ? accounts.get(groupAccountId(row.group_id)) : undefined;
    return [
      {
        id: row.id,
        type: clientNotificationType(kind, row.comment_id !== null),
        created_at: isoTime(Number(row.created_at)),
        account: (row.actor_id ? accounts.get(row.actor_id) : undefined) ?? goneAccount(origin),
        ...(status ? { status } : {}),
        ...(group ? { group } : {}),
      },
    ];
  });
}

/** A page of notifications and the ids of its ends (those of the rows read, listed or not). */
export interface NotificationPage {
  notifications: ClientNotification[];
  full: boolean;
  first?: string | undefined;
  last?: string | undefined;
}

/** GET /api/v1/notifications: the caller's notifications of the types asked for, newest first. */
export async function listClientNotifications(
  ctx: ServiceContext,
  viewer: Viewer,
  input: { query: ClientPageQuery; types: readonly string[]; excluded: readonly string[] },
): Promise<NotificationPage> {
  const { query } = input;
  const filter = selectKinds(input.types, input.excluded);
  const bounds = await boundsOf(query, async (id) => (await notificationKey(ctx, viewer.id, id)) ?? keyOfForeignId(id));
  const rows = await keyedNotifications(ctx, viewer.id, filter, bounds);
  return { notifications: await asClientNotifications(ctx, viewer, rows), full: rows.length >= bounds.limit, first: rows[0]?.id, last: rows.at(-1)?.id };
}

/**
 * Where an id that names none of the caller's notifications (one dismissed since) would stand: ids
 * begin with the second they were made, which orders it near enough.
 */
function keyOfForeignId(id: string) {
  return /^[0-9a-f]{8}/u.test(id) ? { at: parseInt(id.slice(0, 8), 16) * 1000, id } : undefined;
}

/** GET /api/v1/notifications/:id: one of the caller's; anyone else's answers as a missing one. */
export async function getClientNotification(ctx: ServiceContext, viewer: Viewer, id: string): Promise<ClientNotification> {
  const row = await listedNotification(ctx, viewer.id, id);
  const [notification] = row ? await asClientNotifications(ctx, viewer, [row]) : [];
  if (!notification) throw notFound('invalid_id');
  return notification;
}

/** POST /api/v1/notifications/:id/dismiss: deletes it, as the web app's delete does. */
export async function dismissNotification(ctx: ServiceContext, viewer: Viewer, id: string): Promise<Record<string, never>> {
  await deleteNotification(ctx, viewer, id);
  return {};
}

/** POST /api/v1/notifications/clear. */
export async function clearNotifications(ctx: ServiceContext, viewer: Viewer): Promise<Record<string, never>> {
  await deleteAllNotifications(ctx, viewer);
  return {};
}

/** GET /api/v1/notifications/unread_count: the web app's badge. */
export async function unreadNotificationCount(ctx: ServiceContext, viewer: Viewer): Promise<{ count: number }> {
  return { count: await unread(ctx, viewer) };
}
