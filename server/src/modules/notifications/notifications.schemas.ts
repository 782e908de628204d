import { Type } from '@sinclair/typebox';
import { NOTIFICATION_TYPES, type NotificationType } from '#core/limits';
import { Id } from '../../lib/schemas';

/** Notification as the API sends it. */
export const NotificationSchema = Type.Object({
  _id: Id,
  type: Type.Unsafe<NotificationType>(Type.String({ enum: [...NOTIFICATION_TYPES] })),
  /** The actor's username, or "<deleted>". */
  author: Type.String(),
  seen: Type.Boolean(),
  /** Excerpt of the post or comment the item is about (replies, mentions, posts), else null. */
  reply: Type.Union([Type.String(), Type.Null()]),
  context: Type.Object({
    post: Type.Union([Id, Type.Null()]),
    comment: Type.Union([Id, Type.Null()]),
    count: Type.Integer(),
  }),
  username: Type.String(),
  groupname: Type.Union([Type.String(), Type.Null()]),
  /** The actor's id (avatar key), null when the account is gone. */
  pfp: Type.Union([Id, Type.Null()]),
  gp: Type.Union([Id, Type.Null()]),
  /** The actor's avatar URL at its version (the default picture when the account is gone). */
  pfpUrl: Type.String(),
  /** The group's avatar URL at its version, null when the item is about no group. */
  gpUrl: Type.Union([Type.String(), Type.Null()]),
  /** Names of the post's groups (group posts). */
  groups: Type.Array(Type.String()),
  createdAt: Type.Number(),
});

export const NotificationList = Type.Object({
  notifications: Type.Array(NotificationSchema),
  hasMore: Type.Boolean(),
});

export const UnreadReply = Type.Object({ count: Type.Integer() });

export const StreamQuery = Type.Object({ token: Type.Optional(Type.String({ maxLength: 4096 })) });
