import { type Static, Type } from '@sinclair/typebox';
import { CLIENT_NOTIFICATION_TYPES, type ClientNotificationType } from '../client-notifications.js';
import { Account, Status } from './client-entities.js';
import { ClientPageQuery, IdParams } from './client-reads.js';
import { endpoint, readEntry } from './endpoint.js';

/**
 * The caller's notifications as fediverse apps read them. Kruh's kinds take the types apps know
 * where there is one (core/client-notifications.ts holds the table) and a `kruh.` type otherwise.
 */

const NotificationTypeField = Type.Unsafe<ClientNotificationType>(Type.String({ enum: [...CLIENT_NOTIFICATION_TYPES] }));

/**
 * One notification: who did it (`account`, a gone account when they left), the status it is about
 * when there is one, and for a group's notifications the group as an account (`group`, an extra
 * apps that do not know it ignore).
 */
export const ClientNotification = Type.Object({
  id: Type.String(),
  type: NotificationTypeField,
  created_at: Type.String(),
  account: Account,
  status: Type.Optional(Status),
  group: Type.Optional(Account),
});
export type ClientNotification = Static<typeof ClientNotification>;

/** A type name as apps send it; one this server does not know selects nothing. */
const TypeName = Type.String({ maxLength: 40 });
const TypeList = Type.Union([TypeName, Type.Array(TypeName, { maxItems: 20 })]);

export const NotificationsQuery = Type.Composite([
  ClientPageQuery,
  Type.Object({
    types: Type.Optional(TypeList),
    'types[]': Type.Optional(TypeList),
    exclude_types: Type.Optional(TypeList),
    'exclude_types[]': Type.Optional(TypeList),
  }),
]);
export type NotificationsQuery = Static<typeof NotificationsQuery>;

export const UnreadCount = Type.Object({ count: Type.Integer() });

const NOTIFICATION_PAGING =
  'Newest first, paged by notification ids (`max_id`, `since_id`, `min_id`, `limit` up to 40) with the `Link` header. ' +
  '`types[]` keeps only those types, `exclude_types[]` leaves them out. Types: follow (a new follower), follow_request ' +
  '(someone asks to join a group the caller runs), mention (a mention, or a comment answering the caller), status (a post ' +
  'by someone followed with notifications on, a post in a group, or a post answering the caller\'s post), and kruh.join_accepted, ' +
  'kruh.join_denied, kruh.new_member, kruh.made_admin, kruh.revoked_admin, kruh.made_owner, kruh.message.';

export const clientNotificationsApi = {
  notifications: endpoint({
    method: 'GET',
    path: '/v1/notifications',
    summary: "The caller's notifications (needs read:notifications)",
    description: NOTIFICATION_PAGING,
    query: NotificationsQuery,
    replies: { 200: Type.Array(ClientNotification) },
    errors: ['insufficient_scope'],
  }),
  unreadCount: endpoint({
    method: 'GET',
    path: '/v1/notifications/unread_count',
    summary: "How many of the caller's notifications are unseen, the web app's badge (needs read:notifications)",
    replies: { 200: UnreadCount },
    errors: ['insufficient_scope'],
  }),
  notification: readEntry('/v1/notifications/:id', "One of the caller's notifications (needs read:notifications)", IdParams, ClientNotification, ['insufficient_scope', 'invalid_id']),
  dismiss: endpoint({
    method: 'POST',
    path: '/v1/notifications/:id/dismiss',
    summary: 'Deletes one of the caller\'s notifications (needs write:notifications)',
    params: IdParams,
    replies: { 200: Type.Object({}) },
    errors: ['insufficient_scope', 'invalid_id'],
  }),
  clear: endpoint({
    method: 'POST',
    path: '/v1/notifications/clear',
    summary: "Deletes all of the caller's notifications (needs write:notifications)",
    replies: { 200: Type.Object({}) },
    errors: ['insufficient_scope'],
  }),
} as const;
