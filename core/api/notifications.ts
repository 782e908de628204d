import { type Static, Type } from '@sinclair/typebox';
import { NOTIFICATION_TYPES, type NotificationType } from '../limits.js';
import { Id, IdParams, MessageReplies, pageEntry } from './common.js';
import { appPaths } from '../app-paths.js';
import { endpoint, plainEntry } from './endpoint.js';

/** A notification as the API sends it. */
export const Notification = Type.Object({
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
    /**
     * For a NEW_REPLY about a comment: the comment it answers (the recipient's), or null when it
     * was written on the post itself. Told apart, the item says "replied to your comment".
     */
    parentComment: Type.Optional(Type.Union([Id, Type.Null()])),
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
  /** Epoch milliseconds. */
  createdAt: Type.Number(),
});
export type Notification = Static<typeof Notification>;

export const NotificationList = Type.Object({
  notifications: Type.Array(Notification),
  hasMore: Type.Boolean(),
});
export type NotificationList = Static<typeof NotificationList>;

export const UnreadReply = Type.Object({ count: Type.Integer() });
export type UnreadReply = Static<typeof UnreadReply>;

/** EventSource cannot send headers, so the session token may come in the query string. */
/** `token` is what clients before the stream's cookie sent: it shows in every proxy's access log, so the web app no longer sends it. */
export const StreamQuery = Type.Object({ token: Type.Optional(Type.String({ maxLength: 4096 })) });

/**
 * The stream is written by hand as Server-Sent Events, never serialised from this schema: it
 * is a text/event-stream of `event: unread` with {count} (on connect and at each change), plus
 * comment lines as heartbeats.
 */
export const UnreadStream = Type.String({
  contentMediaType: 'text/event-stream',
  description: 'Server-Sent Events: `event: unread` with {count}',
});

const list = {
  summary: "The caller's notifications, newest first",
  ...pageEntry(NotificationList),
  invalidKey: 'invalid_id',
  errors: [],
} as const;

export const notificationsApi = {
  list: endpoint({ method: 'GET', path: '/notification/', ...list }),
  /** The same list without the trailing slash (the documented path has it; both answer). */
  listBare: endpoint({ method: 'GET', path: '/notification', ...list }),
  unread: plainEntry('GET', '/notification/unread', "How many of the caller's notifications are unseen (the badge)", UnreadReply),
  seen: plainEntry('PATCH', '/notification/seen', 'Mark every notification seen; the badge drops to zero', UnreadReply),
  streamCookie: plainEntry('POST', '/notification/stream/cookie', "Set the live stream's cookie (the session, for the stream's path alone, for an hour) and answer the unread count", UnreadReply),
  stream: endpoint({
    method: 'GET',
    path: '/notification/stream',
    summary: "A live stream of the unread count (Server-Sent Events), signed in by the stream's cookie (POST /notification/stream/cookie first)",
    query: StreamQuery,
    replies: { 200: UnreadStream },
    errors: [],
  }),
  deleteAll: endpoint({
    method: 'DELETE',
    path: '/notification/all',
    summary: "Delete all of the caller's notifications",
    replies: MessageReplies,
    errors: [],
  }),
  delete: endpoint({
    method: 'DELETE',
    path: '/notification/:id',
    summary: "Delete one of the caller's notifications",
    params: IdParams,
    replies: MessageReplies,
    invalidKey: 'invalid_id',
    errors: ['invalid_id'],
  }),
} as const;

/**
 * Which text an item reads as: the key of its label under `types.` in locales/<lng>/notifications.json.
 * The web app's list and the server's push messages both read it from here, so a notification says
 * the same on the device as in the app.
 */
export type NotificationLabel =
  | 'follow'
  | 'reply'
  | 'comment'
  | 'commentReply'
  | 'newPost'
  | 'mention'
  | 'commentMention'
  | 'join'
  | 'joinRequest'
  | 'accepted'
  | 'denied'
  | 'madeAdmin'
  | 'revokedAdmin'
  | 'madeOwner'
  | 'groupPost'
  | 'message';

type Labelled = Pick<Notification, 'type'> & { context: Pick<Notification['context'], 'comment' | 'parentComment'> };

export function labelOf(n: Labelled): NotificationLabel {
  switch (n.type) {
    case 'NEW_FOLLOWER':
      return 'follow';
    case 'NEW_REPLY':
      // A post answering a post, a comment on a post, or a reply to the recipient's comment.
      if (!n.context.comment) return 'reply';
      return n.context.parentComment ? 'commentReply' : 'comment';
    case 'NEW_POST':
      return 'newPost';
    case 'MENTION':
      return 'mention';
    case 'COMMENT_MENTION':
      return 'commentMention';
    case 'NEW_MEMBER':
      return 'join';
    case 'GROUP_JOIN_REQUEST':
      return 'joinRequest';
    case 'GROUP_JOIN_ACCEPT':
      return 'accepted';
    case 'GROUP_JOIN_DENY':
      return 'denied';
    case 'MADE_ADMIN':
      return 'madeAdmin';
    case 'REVOKED_ADMIN':
      return 'revokedAdmin';
    case 'MADE_OWNER':
      return 'madeOwner';
    case 'GROUP_POST':
      return 'groupPost';
    default:
      return 'message';
  }
}

/** The app route of the item's post (`/p/{postId}`), with `?c={commentId}` when it is about a comment. */
export function postLink(n: { context: Pick<Notification['context'], 'post' | 'comment'> }): string | null {
  return n.context.post ? appPaths.post(n.context.post, n.context.comment) : null;
}
