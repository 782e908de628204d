import { NOTIFICATION_TYPES, type NotificationType } from './limits.js';

/**
 * How Kruh's notification kinds read as the notification types of the client API. Apps know a
 * fixed set of types; the kinds that have no counterpart there keep a `kruh.` type of their own,
 * which apps that do not know it leave out. A reply is told apart by what answers: a comment
 * answering the person's post or comment is a mention of them, a post answering their post is a
 * status (a thread of its own).
 */

export const CLIENT_NOTIFICATION_TYPES = [
  'follow',
  'follow_request',
  'mention',
  'status',
  'kruh.join_accepted',
  'kruh.join_denied',
  'kruh.new_member',
  'kruh.made_admin',
  'kruh.revoked_admin',
  'kruh.made_owner',
  'kruh.message',
] as const;
export type ClientNotificationType = (typeof CLIENT_NOTIFICATION_TYPES)[number];

/** A kind's type, or for a reply the type of a comment's reply and of a post's. */
const TYPE_OF_KIND: Record<NotificationType, ClientNotificationType | { comment: ClientNotificationType; post: ClientNotificationType }> = {
  NEW_FOLLOWER: 'follow',
  GROUP_JOIN_REQUEST: 'follow_request',
  MENTION: 'mention',
  COMMENT_MENTION: 'mention',
  NEW_REPLY: { comment: 'mention', post: 'status' },
  NEW_POST: 'status',
  GROUP_POST: 'status',
  GROUP_JOIN_ACCEPT: 'kruh.join_accepted',
  GROUP_JOIN_DENY: 'kruh.join_denied',
  NEW_MEMBER: 'kruh.new_member',
  MADE_ADMIN: 'kruh.made_admin',
  REVOKED_ADMIN: 'kruh.revoked_admin',
  MADE_OWNER: 'kruh.made_owner',
  NEW_MESSAGE: 'kruh.message',
};

/** The type apps read for a notification of `kind`, about a comment or not. */
export function clientNotificationType(kind: NotificationType, aboutComment: boolean): ClientNotificationType {
  const type = TYPE_OF_KIND[kind];
  return typeof type === 'string' ? type : aboutComment ? type.comment : type.post;
}

/**
 * Which of Kruh's notifications a list asks for: the kinds wholly in it, and the kinds only one
 * side of which is (`aboutComment` says which side).
 */
export interface KindSelection {
  kinds: NotificationType[];
  split: { kind: NotificationType; aboutComment: boolean }[];
}

/**
 * The selection of `types[]` (every type when none is named) without `exclude_types[]`; types
 * this server does not know select nothing.
 */
export function selectKinds(types: readonly string[], excluded: readonly string[]): KindSelection {
  const wanted = new Set<string>(types.length > 0 ? types : CLIENT_NOTIFICATION_TYPES);
  for (const type of excluded) wanted.delete(type);
  const selection: KindSelection = { kinds: [], split: [] };
  for (const kind of NOTIFICATION_TYPES) {
    const type = TYPE_OF_KIND[kind];
    if (typeof type === 'string') {
      if (wanted.has(type)) selection.kinds.push(kind);
      continue;
    }
    const onComment = wanted.has(type.comment);
    const onPost = wanted.has(type.post);
    if (onComment && onPost) selection.kinds.push(kind);
    else if (onComment || onPost) selection.split.push({ kind, aboutComment: onComment });
  }
  return selection;
}
