import { type Static, Type } from '@sinclair/typebox';
import { MessageReplies } from './common.js';
import { endpoint, plainEntry } from './endpoint.js';

/**
 * Web Push: notifications reach a device while the app is closed. The browser subscribes with the
 * instance's public VAPID key (GET /push/key) and the app hands the subscription to the server,
 * which then sends each new notification of the account to every device it holds.
 */

/** Longest push endpoint taken: the services' own are a few hundred characters. */
export const PUSH_ENDPOINT_MAX = 2048;

export const PushKeyReply = Type.Object({
  /** The instance's VAPID public key (uncompressed P-256, base64url): the applicationServerKey. */
  key: Type.String(),
});
export type PushKeyReply = Static<typeof PushKeyReply>;

const Endpoint = Type.String({ minLength: 1, maxLength: PUSH_ENDPOINT_MAX });

/** A browser's PushSubscription as `subscription.toJSON()` gives it (expirationTime is ignored). */
export const PushSubscriptionBody = Type.Object({
  endpoint: Endpoint,
  keys: Type.Object({
    /** The device's P-256 public key, base64url (65 bytes decoded). */
    p256dh: Type.String({ minLength: 1, maxLength: 200 }),
    /** The device's auth secret, base64url (16 bytes decoded). */
    auth: Type.String({ minLength: 1, maxLength: 100 }),
  }),
});
export type PushSubscriptionBody = Static<typeof PushSubscriptionBody>;

export const PushUnsubscribeBody = Type.Object({ endpoint: Endpoint });
export type PushUnsubscribeBody = Static<typeof PushUnsubscribeBody>;

/** What a push carries, as the service worker reads it (JSON, encrypted to the device). */
export interface PushPayload {
  title: string;
  body: string;
  /** The page the notification opens, as the app's path (`/p/<id>?c=<commentId>`). */
  url: string;
  /** Names the notification on the device: a repeat of the same item replaces it. */
  tag: string;
  /** The recipient's unread count, for the app icon's badge. */
  badge?: number;
}

export const pushApi = {
  key: plainEntry('GET', '/push/key', "The instance's public VAPID key, for the browser's pushManager.subscribe", PushKeyReply),
  subscribe: endpoint({
    method: 'POST',
    path: '/push/subscribe',
    summary: "Send the caller's notifications to this device while the app is closed (Web Push)",
    description:
      'The body is the browser\'s PushSubscription (`subscription.toJSON()`). One row per endpoint: the same endpoint sent again (a renewed subscription, or another account on the device) replaces its keys and owner.',
    body: PushSubscriptionBody,
    replies: MessageReplies,
    invalidKey: 'invalid_subscription',
    errors: ['invalid_subscription'],
  }),
  unsubscribe: endpoint({
    method: 'DELETE',
    path: '/push/subscribe',
    summary: 'Stop sending notifications to this device',
    description: "Removes the caller's subscription with this endpoint; one that is not the caller's (or no longer there) is left as it is, and the answer is the same.",
    body: PushUnsubscribeBody,
    replies: MessageReplies,
    invalidKey: 'invalid_subscription',
    errors: ['invalid_subscription'],
  }),
} as const;
