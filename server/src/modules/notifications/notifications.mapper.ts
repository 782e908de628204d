import type { Notification } from '#core/api/notifications';
import { DELETED, type NotificationType } from '#core/limits';
import { avatarUrl } from '../../policy/media-urls.js';
import type { ListedNotification } from './notifications.repository.js';

/** A notification, as the contract describes it. */
export type NotificationReply = Notification;

/** Characters of the post or comment text an item carries. */
export const EXCERPT_LENGTH = 100;

const ABOUT_TEXT = new Set<string>(['NEW_REPLY', 'NEW_POST', 'MENTION', 'COMMENT_MENTION', 'GROUP_POST']);

function excerpt(row: ListedNotification): string | null {
  if (!ABOUT_TEXT.has(row.type)) return null;
  const text = row.comment_id ? (row.comment_deleted ? null : row.comment_text) : row.post_text;
  if (!text) return null;
  return text.length > EXCERPT_LENGTH ? `${text.slice(0, EXCERPT_LENGTH - 1)}…` : text;
}

export function toNotification(row: ListedNotification, groupsOfPost: Map<string, string[]>): NotificationReply {
  const actor = row.actor_username ?? DELETED;
  return {
    _id: row.id,
    type: row.type as NotificationType,
    author: actor,
    seen: row.seen,
    reply: excerpt(row),
    context: {
      post: row.post_id,
      comment: row.comment_id,
      // A reply answers the recipient's comment or the post: the item says which.
      ...(row.type === 'NEW_REPLY' && row.comment_id ? { parentComment: row.comment_parent_id ?? null } : {}),
      count: Number(row.mention_count),
    },
    username: actor,
    groupname: row.group_id ? (row.group_name ?? DELETED) : null,
    pfp: row.actor_username ? row.actor_id : null,
    gp: row.group_id,
    pfpUrl: avatarUrl('pfp', row.actor_username ? row.actor_id : null, Number(row.actor_pfp_version ?? 0)),
    gpUrl: row.group_id ? avatarUrl('gp', row.group_id, Number(row.group_gp_version ?? 0)) : null,
    groups: row.type === 'GROUP_POST' && row.post_id ? (groupsOfPost.get(row.post_id) ?? []) : [],
    createdAt: Number(row.created_at),
  };
}
