import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { CLIENT_PUSH_ALERTS, CLIENT_PUSH_POLICIES, type ClientPushBody, type ClientPushPolicy, type WebPushSubscription } from '#core/api/client-push';
import type { Notification } from '#core/api/notifications';
import { clientNotificationType } from '#core/client-notifications';
import type { NotificationType } from '#core/limits';
import { badRequest, notFound } from '../../../lib/app-error.js';
import type { Executor } from '../../../db/schema.js';
import { newId } from '../../../lib/ids.js';
import type { ServiceContext } from '../../../lib/service-context.js';
import type { ClientCaller } from '../../clientapi/client-caller.js';
import { absolute } from '../../../lib/absolute-url.js';
import { originOf } from '../../clientapi/accounts.service.js';
import { followExists } from '../notifications.repository.js';
import * as repo from './client-push.repository.js';
import { type PushLanguage, pushTitle } from './push.message.js';
import { type CheckedSubscription, checkSubscription } from './push.service.js';

/**
 * Web Push for fediverse apps: each access token keeps at most one subscription, with the types of
 * notification its app wants pushed (`alerts`) and from whom (`policy`). The pushes go out as the
 * web app's do (push.job.ts), with the message apps read: which token and notification it is for,
 * its type, and a title and body to show at once.
 */

type Alerts = Record<string, boolean>;

/** A field of a JSON body (`{data: {alerts: {mention}}}`) or of a form (`data[alerts][mention]`). */
function field(body: ClientPushBody, path: readonly string[]): unknown {
  let value: unknown = body;
  for (const key of path) value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
  if (value !== undefined) return value;
  const [first, ...rest] = path;
  return (body as Record<string, unknown>)[`${first}${rest.map((key) => `[${key}]`).join('')}`];
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const isOn = (value: unknown): boolean => value === true || value === 1 || (typeof value === 'string' && ['true', '1', 'on'].includes(value.toLowerCase()));

/** The alerts asked for, each known type on or off (an admin type also as `admin: {sign_up}`). */
function alertsOf(body: ClientPushBody): Alerts {
  return Object.fromEntries(
    CLIENT_PUSH_ALERTS.map((alert) => {
      const value = field(body, ['data', 'alerts', alert]) ?? field(body, ['data', 'alerts', ...alert.split('.')]);
      return [alert, isOn(value)];
    }),
  );
}

/** The policy asked for (`data[policy]`, or `policy` as some libraries send it), all when none. */
function policyOf(body: ClientPushBody): ClientPushPolicy {
  const policy = text(field(body, ['data', 'policy'])) ?? text(body.policy) ?? 'all';
  if (!(CLIENT_PUSH_POLICIES as readonly string[]).includes(policy)) throw badRequest('invalid_subscription');
  return policy as ClientPushPolicy;
}

/**
 * The token sealed (AES-256-GCM) with a key drawn from the instance's secret: the token row keeps
 * only a hash, yet each push must name the token it is for, and the database alone does not give it.
 */
const sealingKey = (secret: string) => Buffer.from(hkdfSync('sha256', secret, '', 'client push token', 32));

export function sealToken(secret: string, token: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(secret), iv);
  const sealed = Buffer.concat([cipher.update(token, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return `${iv.toString('base64url')}.${sealed.toString('base64url')}`;
}

/** The sealed token, or null when the secret changed since it was sealed. */
export function unsealToken(secret: string, sealed: string): string | null {
  const [iv, body] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
  if (!iv || !body || body.length < 16) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', sealingKey(secret), iv);
    decipher.setAuthTag(body.subarray(-16));
    return Buffer.concat([decipher.update(body.subarray(0, -16)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

function entityOf(app: FastifyInstance, row: repo.ClientSubscriptionRow): WebPushSubscription {
  const alerts = JSON.parse(row.alerts) as Alerts;
  return {
    id: row.id,
    endpoint: row.endpoint,
    standard: true,
    alerts: Object.fromEntries(CLIENT_PUSH_ALERTS.map((alert) => [alert, alerts[alert] === true])),
    policy: row.policy as ClientPushPolicy,
    server_key: app.vapidKeys.publicKey,
  };
}

/**
 * Checks the device a create hands in, as the web app's are checked (its keys, and its endpoint
 * against the outgoing-request guard, resolving its name): run before the transaction.
 */
export function checkClientDevice(app: FastifyInstance, body: ClientPushBody): Promise<CheckedSubscription> {
  const endpoint = text(field(body, ['subscription', 'endpoint']));
  const p256dh = text(field(body, ['subscription', 'keys', 'p256dh']));
  const auth = text(field(body, ['subscription', 'keys', 'auth']));
  if (!endpoint || !p256dh || !auth) throw badRequest('invalid_subscription');
  return checkSubscription(app, { endpoint, keys: { p256dh, auth } });
}

/** POST /api/v1/push/subscription: the token's subscription, replacing the one it had. */
export async function subscribeClient(ctx: ServiceContext, caller: ClientCaller, device: CheckedSubscription, body: ClientPushBody): Promise<WebPushSubscription> {
  const now = Date.now();
  const row = {
    id: newId(now),
    token_id: caller.token.id,
    user_id: caller.viewer.id,
    endpoint: device.endpoint,
    p256dh: device.keys.p256dh,
    auth: device.keys.auth,
    alerts: JSON.stringify(alertsOf(body)),
    policy: policyOf(body),
    sealed_token: sealToken(ctx.app.config.jwtSecret, caller.token.secret),
    created_at: now,
    updated_at: now,
  };
  await repo.replaceClientSubscription(ctx.db, row);
  return entityOf(ctx.app, { ...row, failures: 0 });
}

/** GET /api/v1/push/subscription. */
export async function clientSubscription(ctx: ServiceContext, caller: ClientCaller): Promise<WebPushSubscription> {
  const row = await repo.clientSubscriptionOfToken(ctx.db, caller.token.id);
  if (!row) throw notFound('not_found');
  return entityOf(ctx.app, row);
}

/** PUT /api/v1/push/subscription: the alerts and policy given take the place of the earlier ones. */
export async function updateClientSubscription(ctx: ServiceContext, caller: ClientCaller, body: ClientPushBody): Promise<WebPushSubscription> {
  const row = await repo.updateClientSubscription(ctx.db, caller.token.id, { alerts: JSON.stringify(alertsOf(body)), policy: policyOf(body), now: Date.now() });
  if (!row) throw notFound('not_found');
  return entityOf(ctx.app, row);
}

/** DELETE /api/v1/push/subscription: gone, or there was none. */
export async function unsubscribeClient(ctx: ServiceContext, caller: ClientCaller): Promise<Record<string, never>> {
  await repo.deleteClientSubscriptionsOfTokens(ctx.db, [caller.token.id]);
  return {};
}

/** Revoked tokens take their subscriptions along (in the revocation's transaction). */
export function forgetClientSubscriptions(db: Executor, tokenIds: readonly string[]): Promise<void> {
  return repo.deleteClientSubscriptionsOfTokens(db, tokenIds);
}

/** The type apps read for a notification of `kind`: what a subscription's alerts are asked about. */
export const clientTypeOf = (kind: string, commentId: string | null | undefined) => clientNotificationType(kind as NotificationType, !!commentId);

/** Whether the subscription's alerts take a notification of `kind`. */
export const alertsTake = (alerts: string, kind: string, commentId: string | null | undefined): boolean =>
  (JSON.parse(alerts) as Alerts)[clientTypeOf(kind, commentId)] === true;

/** Whether the subscription's policy takes a notification `actorId` caused for `userId` (none when nobody did). */
export async function policyTakes(db: Executor, policy: string, userId: string, actorId: string | null): Promise<boolean> {
  switch (policy) {
    case 'all':
      return true;
    case 'followed':
      return actorId !== null && followExists(db, userId, actorId);
    case 'follower':
      return actorId !== null && followExists(db, actorId, userId);
    default:
      return false;
  }
}

/** What a push to an app carries, as apps read it. */
export interface ClientPushMessage {
  access_token: string;
  preferred_locale: PushLanguage;
  notification_id: string;
  notification_type: string;
  icon: string;
  title: string;
  body: string;
}

/** The message of a notification for the app holding `token`, in the recipient's language. */
export function clientPushMessage(ctx: ServiceContext, n: Notification, token: string, language: PushLanguage): ClientPushMessage {
  return {
    access_token: token,
    preferred_locale: language,
    notification_id: n._id,
    notification_type: clientTypeOf(n.type, n.context.comment),
    // The picture of who did it, else of the group it is about.
    icon: absolute(originOf(ctx), n.pfp === null && n.gpUrl ? n.gpUrl : n.pfpUrl),
    title: pushTitle(n, language),
    body: n.reply ?? '',
  };
}
