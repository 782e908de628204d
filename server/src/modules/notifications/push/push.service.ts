import { createPublicKey } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../../config.js';
import type { PushSubscriptionBody } from '#core/api/push';
import { badRequest } from '../../../lib/app-error.js';
import { EgressRefused, type EgressRules } from '../../../lib/egress/egress.js';
import { newId } from '../../../lib/ids.js';
import type { ServiceContext } from '../../../lib/service-context.js';
import type { Viewer } from '../../../plugins/auth.js';
import * as repo from './push.repository.js';

/** Devices one account keeps at most; subscribing one more forgets the longest unrenewed. */
export const MAX_DEVICES = 20;

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;
const decoded = (value: string): Buffer | null => (BASE64URL.test(value) ? Buffer.from(value, 'base64url') : null);

/** The outgoing-request guard's rules for push endpoints: plain http only with PUSH_ALLOW_HTTP (tests). */
export const pushRules = (config: Config): EgressRules => ({ allowLoopbackHttp: config.pushAllowHttp });

/**
 * Whether the server may post to this endpoint: what the outgoing-request guard lets through (https
 * to public addresses only, or with PUSH_ALLOW_HTTP plain http to this machine), resolving its name
 * now; and no fragment, which no push service hands out.
 */
async function isPushEndpoint(app: FastifyInstance, endpoint: string): Promise<boolean> {
  try {
    return !(await app.egress.check(endpoint, pushRules(app.config))).hash;
  } catch (err) {
    if (err instanceof EgressRefused) return false;
    throw err;
  }
}

/** A P-256 public key as browsers give it: 65 bytes, uncompressed, a point on the curve. */
export function isDeviceKey(p256dh: string): boolean {
  const key = decoded(p256dh);
  if (!key || key.length !== 65 || key[0] !== 0x04) return false;
  try {
    createPublicKey({
      key: { kty: 'EC', crv: 'P-256', x: key.subarray(1, 33).toString('base64url'), y: key.subarray(33).toString('base64url') },
      format: 'jwk',
    });
    return true;
  } catch {
    return false;
  }
}

/** The auth secret browsers make: 16 bytes. */
export const isAuthSecret = (auth: string): boolean => decoded(auth)?.length === 16;

/** A subscription whose endpoint and keys were checked, the only kind `subscribe` stores. */
export interface CheckedSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  readonly checked: true;
}

/**
 * Checks what a device hands in. Run before the route's transaction: the endpoint's name is
 * resolved, and no connection or lock should wait on DNS.
 */
export async function checkSubscription(app: FastifyInstance, body: PushSubscriptionBody): Promise<CheckedSubscription> {
  const { endpoint, keys } = body;
  if (!isDeviceKey(keys.p256dh) || !isAuthSecret(keys.auth) || !(await isPushEndpoint(app, endpoint))) {
    throw badRequest('invalid_subscription');
  }
  return { endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth }, checked: true };
}

/** Keeps the device's subscription, on the route's transaction, forgetting the oldest beyond MAX_DEVICES. */
export async function subscribe(ctx: ServiceContext, viewer: Viewer, subscription: CheckedSubscription): Promise<void> {
  const { endpoint, keys } = subscription;
  const now = Date.now();
  await repo.upsertSubscription(ctx.db, { id: newId(now), userId: viewer.id, endpoint, p256dh: keys.p256dh, auth: keys.auth, now });
  await repo.trimSubscriptions(ctx.db, viewer.id, MAX_DEVICES);
}

/** The user's devices that take push notifications, oldest first (the data export). */
export async function unsubscribe(ctx: ServiceContext, viewer: Viewer, endpoint: string): Promise<void> {
  await repo.deleteOwnSubscription(ctx.db, viewer.id, endpoint);
}
