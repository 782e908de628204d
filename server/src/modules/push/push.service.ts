import { createPublicKey } from 'node:crypto';
import type { Executor } from '../../db/schema.js';
import type { PushSubscriptionBody } from '#core/api/push';
import { badRequest } from '../../lib/app-error.js';
import { newId } from '../../lib/ids.js';
import type { ServiceContext } from '../../lib/service-context.js';
import type { Viewer } from '../../plugins/auth.js';
import * as repo from './push.repository.js';

/** Devices one account keeps at most; subscribing one more forgets the longest unrenewed. */
export const MAX_DEVICES = 20;

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;
const decoded = (value: string): Buffer | null => (BASE64URL.test(value) ? Buffer.from(value, 'base64url') : null);

const LOOPBACK = new Set(['localhost', '[::1]']);
const isLoopback = (hostname: string) => LOOPBACK.has(hostname) || /^127(\.\d{1,3}){3}$/.test(hostname);

/**
 * Whether the server may post to this endpoint: an https URL (the push services' own), or with
 * PUSH_ALLOW_HTTP a plain http one on this machine (a fake push service in tests). No credentials
 * or fragment, which no push service hands out.
 */
export function isPushEndpoint(endpoint: string, allowHttp: boolean): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.username || url.password || url.hash || !url.hostname) return false;
  if (url.protocol === 'https:') return true;
  return allowHttp && url.protocol === 'http:' && isLoopback(url.hostname);
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

/** Keeps the device's subscription, on the route's transaction, forgetting the oldest beyond MAX_DEVICES. */
export async function subscribe(ctx: ServiceContext, viewer: Viewer, body: PushSubscriptionBody): Promise<void> {
  const { endpoint, keys } = body;
  if (!isPushEndpoint(endpoint, ctx.app.config.pushAllowHttp) || !isDeviceKey(keys.p256dh) || !isAuthSecret(keys.auth)) {
    throw badRequest('invalid_subscription');
  }
  const now = Date.now();
  await repo.upsertSubscription(ctx.db, { id: newId(now), userId: viewer.id, endpoint, p256dh: keys.p256dh, auth: keys.auth, now });
  await repo.trimSubscriptions(ctx.db, viewer.id, MAX_DEVICES);
}

/** The user's devices that take push notifications, oldest first (the data export). */
export async function devicesOf(db: Executor, userId: string): Promise<Array<{ endpoint: string; created_at: number; updated_at: number }>> {
  const rows = await repo.subscriptionsOfUser(db, userId);
  return rows.map((d) => ({ endpoint: d.endpoint, created_at: Number(d.created_at), updated_at: Number(d.updated_at) }));
}

export async function unsubscribe(ctx: ServiceContext, viewer: Viewer, endpoint: string): Promise<void> {
  await repo.deleteOwnSubscription(ctx.db, viewer.id, endpoint);
}
