import { type Static, Type } from '@sinclair/typebox';
import { PUSH_ENDPOINT_MAX } from './push.js';
import type { ServerErrorKey } from '../errors.js';
import { endpoint, plainEntry } from './endpoint.js';

/**
 * Web Push for fediverse apps: an app subscribes one device per access token, naming which types
 * of notification it wants pushed (`alerts`) and from whom (`policy`). Every push is encrypted to
 * the device (RFC 8291, aes128gcm) and signed with the instance's VAPID key (`server_key`).
 */

/** The alerts apps may switch on; the types of notification that are pushed are those Kruh makes. */
export const CLIENT_PUSH_ALERTS = [
  'mention', 'status', 'reblog', 'follow', 'follow_request', 'favourite', 'poll', 'update', 'admin.sign_up', 'admin.report',
] as const;
export type ClientPushAlert = (typeof CLIENT_PUSH_ALERTS)[number];

/** Whose notifications are pushed: anyone's, of accounts the person follows, of their followers, nobody's. */
export const CLIENT_PUSH_POLICIES = ['all', 'followed', 'follower', 'none'] as const;
export type ClientPushPolicy = (typeof CLIENT_PUSH_POLICIES)[number];

export const WebPushSubscription = Type.Object({
  id: Type.String(),
  endpoint: Type.String(),
  /** Always true: pushes are encrypted as the standard has it (aes128gcm). */
  standard: Type.Boolean(),
  alerts: Type.Record(Type.String(), Type.Boolean()),
  policy: Type.String({ enum: [...CLIENT_PUSH_POLICIES] }),
  /** The instance's VAPID public key. */
  server_key: Type.String(),
});
export type WebPushSubscription = Static<typeof WebPushSubscription>;

/** A flag as JSON or a form sends it. */
const Flag = Type.Union([Type.Boolean(), Type.String({ maxLength: 5 })]);
const Alerts = Type.Record(Type.String({ maxLength: 40 }), Type.Union([Flag, Type.Record(Type.String({ maxLength: 40 }), Flag)]));
const Data = Type.Object({ alerts: Type.Optional(Alerts), policy: Type.Optional(Type.String({ maxLength: 20 })) });

/**
 * The subscription as JSON (`{subscription: {endpoint, keys}, data: {alerts, policy}}`) or as a
 * form, whose fields keep their bracketed names (`subscription[endpoint]`, `data[alerts][mention]`).
 */
export const ClientPushBody = Type.Object(
  {
    subscription: Type.Optional(
      Type.Object({
        endpoint: Type.Optional(Type.String({ maxLength: PUSH_ENDPOINT_MAX })),
        keys: Type.Optional(Type.Object({ p256dh: Type.Optional(Type.String({ maxLength: 200 })), auth: Type.Optional(Type.String({ maxLength: 100 })) })),
      }),
    ),
    data: Type.Optional(Data),
    policy: Type.Optional(Type.String({ maxLength: 20 })),
  },
  { additionalProperties: Type.Union([Type.String({ maxLength: PUSH_ENDPOINT_MAX }), Type.Array(Type.String({ maxLength: 100 }), { maxItems: 20 })]) },
);
export type ClientPushBody = Static<typeof ClientPushBody>;

const SUBSCRIPTION_DESCRIPTION =
  'One subscription per access token (needs the `push` scope): creating one replaces the token\'s earlier one, and ' +
  'revoking the token removes it. `data[alerts][<type>]` switches on a type (mention, status, follow, follow_request; ' +
  'reblog, favourite, poll, update, admin.sign_up and admin.report are kept but nothing here makes them); ' +
  '`data[policy]` is all, followed, follower or none. The endpoint is held to the same rules as the web app\'s.';

const PATH = '/v1/push/subscription';

/** A call on the token's subscription that answers it (every one but the removal takes a body). */
const onSubscription = <const M extends 'GET' | 'POST' | 'PUT', const K extends readonly ServerErrorKey[]>(method: M, summary: string, errors: K) =>
  endpoint({
    method,
    path: PATH,
    summary: `${summary} (needs push)`,
    ...(method === 'GET' ? {} : { body: ClientPushBody }),
    replies: { 200: WebPushSubscription },
    errors: ['insufficient_scope', ...errors],
  });

export const clientPushApi = {
  create: {
    ...onSubscription('POST', 'Subscribes a device to Web Push for this access token, replacing its earlier subscription', ['invalid_subscription']),
    description: SUBSCRIPTION_DESCRIPTION,
  },
  fetch: onSubscription('GET', "The access token's Web Push subscription", ['not_found']),
  update: onSubscription('PUT', "Changes which notifications the access token's subscription pushes (its alerts and policy)", ['not_found', 'invalid_subscription']),
  remove: { ...plainEntry('DELETE', PATH, "Removes the access token's Web Push subscription (needs push)", Type.Object({})), errors: ['insufficient_scope'] },
} as const;
