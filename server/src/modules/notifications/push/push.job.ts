import type { FastifyInstance } from 'fastify';
import webpush from 'web-push';
import type { Executor } from '../../../db/schema.js';
import { EgressRefused } from '../../../lib/egress/egress.js';
import type { OutsideJob } from '../../../lib/jobs/job-handler.js';
import { enqueueJobs } from '../../../lib/jobs/queue.js';
import { contextOf } from '../../../lib/service-context.js';
import { tokenInForce } from '../../clientapi/oauth.service.js';
import { findNotification, unreadCount } from '../notifications.service.js';
import { pushLanguage, pushMessage } from './push.message.js';
import { clientSubscriptionsOf, findClientSubscription } from './client-push.repository.js';
import { alertsTake, clientPushMessage, policyTakes, unsealToken } from './client-push.service.js';
import * as repo from './push.repository.js';
import { pushRules } from './push.service.js';

/**
 * Sending: every notification row the fan-out inserts (so only what its settings, group levels and
 * visibility let through, decided there and nowhere else) becomes one job per device of its
 * recipient, queued in the fan-out step's own transaction: each of the web app's devices, and each
 * fediverse app's subscription whose alerts take the notification's type. Each job encrypts the
 * message to its device (RFC 8291, aes128gcm, by web-push) and posts it to the device's push
 * service, outside any transaction, through the outgoing-request guard and within PUSH_TIMEOUT_MS.
 * The service saying the subscription is gone (404, 410), or the endpoint now leading somewhere the
 * guard refuses, removes it; any other failure goes back in the queue and is tried again after the
 * queue's growing delay, and the device is dropped after PUSH_MAX_FAILURES failures in a row,
 * whichever pushes they were.
 */
export const PUSH_JOB = 'push_notification';

/** How long a push service keeps a message for a device that is off: a day, then it is stale. */
export const PUSH_TTL_SECONDS = 24 * 60 * 60;

interface PushJob {
  notificationId: string;
  userId: string;
  subscriptionId: string;
  /** The subscription is a fediverse app's (client_push_subscriptions), not the web app's. */
  client?: true;
}

declare module '../../../lib/jobs/job-handler.js' {
  interface JobPayloads {
    [PUSH_JOB]: PushJob;
  }
}

/** A new notification, as the fan-out inserted it. */
interface NewRow {
  id: string;
  user_id: string;
  created_at: number;
  type: string;
  comment_id?: string | null | undefined;
}

function byUser<T extends { user_id: string }>(subscriptions: readonly T[]): Map<string, T[]> {
  const found = new Map<string, T[]>();
  for (const sub of subscriptions) found.set(sub.user_id, [...(found.get(sub.user_id) ?? []), sub]);
  return found;
}

/** Queues a push to every device of each new notification's recipient (none without a device). */
export async function enqueuePushes(db: Executor, rows: readonly NewRow[]): Promise<void> {
  if (!rows.length) return;
  const userIds = [...new Set(rows.map((row) => row.user_id))];
  const devices = byUser(await repo.subscriptionsOf(db, userIds));
  const apps = byUser(await clientSubscriptionsOf(db, userIds));
  const jobs: PushJob[] = rows.flatMap((row) => [
    ...(devices.get(row.user_id) ?? []).map((sub) => ({ notificationId: row.id, userId: row.user_id, subscriptionId: sub.id })),
    ...(apps.get(row.user_id) ?? [])
      .filter((sub) => alertsTake(sub.alerts, row.type, row.comment_id))
      .map((sub) => ({ notificationId: row.id, userId: row.user_id, subscriptionId: sub.id, client: true as const })),
  ]);
  await enqueueJobs(db, PUSH_JOB, jobs, rows[0]!.created_at);
}

/** A push service's answer that is not a success. */
export class PushServiceError extends Error {
  constructor(readonly status: number) {
    super(`push service answered ${status}`);
    this.name = 'PushServiceError';
  }
}

/**
 * Encrypts the message to the device and posts it to its push service through the outgoing-request
 * guard; answers the HTTP status, or throws EgressRefused when the endpoint leads somewhere refused.
 */
export async function sendToDevice(app: FastifyInstance, device: repo.DeviceRow, message: object): Promise<number> {
  const details = webpush.generateRequestDetails({ endpoint: device.endpoint, keys: { p256dh: device.p256dh, auth: device.auth } }, JSON.stringify(message), {
    vapidDetails: { subject: app.config.vapidSubject, ...app.vapidKeys },
    TTL: PUSH_TTL_SECONDS,
    contentEncoding: 'aes128gcm',
  });
  const response = await app.egress.request(
    details.endpoint,
    {
      method: details.method,
      headers: details.headers as Record<string, string | number>,
      ...(details.body ? { body: details.body } : {}),
      timeoutMs: app.config.pushTimeoutMs,
      // A push service answers with a few bytes at most: nothing of it is read.
      maxResponseBytes: 64 * 1024,
    },
    pushRules(app.config),
  );
  return response.status;
}

/** A push ready to go: the device, the table it is kept in, and the message. */
interface Delivery {
  device: repo.DeviceRow;
  table: repo.DeviceTable;
  message: object;
}

/** The web app's push, or null when there is nothing to send. */
async function webPush(app: FastifyInstance, job: PushJob): Promise<Delivery | null> {
  const device = await repo.findSubscription(app.db, job.subscriptionId);
  // The device unsubscribed, or another account took it over since: nothing of this user goes there.
  if (!device || device.user_id !== job.userId) return null;
  // Deleted, read in the app already, or about a post the user may no longer see: no push.
  const notification = await findNotification(app, job.userId, job.notificationId);
  if (!notification || notification.seen) return null;
  const language = pushLanguage(await repo.userLanguage(app.db, job.userId));
  return { device, table: 'push_subscriptions', message: pushMessage(notification, language, await unreadCount(app, job.userId)) };
}

/**
 * A fediverse app's push, or null when there is nothing to send. The same notification the web
 * app would push (so nothing about a post the recipient may no longer see, a private group's they
 * left), while the app's token is still in force and from whom its policy takes.
 */
async function appPush(app: FastifyInstance, job: PushJob): Promise<Delivery | null> {
  const ctx = contextOf(app);
  const device = await findClientSubscription(app.db, job.subscriptionId);
  if (!device || device.user_id !== job.userId) return null;
  const token = unsealToken(app.config.jwtSecret, device.sealed_token);
  // A token stopped (a new password, a suspension) or no longer readable: its app hears nothing more.
  if (!token || !(await tokenInForce(ctx, device.token_id))) {
    await repo.deleteSubscription(app.db, 'client_push_subscriptions', device.id);
    return null;
  }
  const notification = await findNotification(app, job.userId, job.notificationId);
  if (!notification || notification.seen) return null;
  if (!(await policyTakes(app.db, device.policy, job.userId, notification.pfp))) return null;
  const language = pushLanguage(await repo.userLanguage(app.db, job.userId));
  return { device: { ...device, failures: Number(device.failures) }, table: 'client_push_subscriptions', message: clientPushMessage(ctx, notification, token, language) };
}

async function sendPush(app: FastifyInstance, job: PushJob): Promise<void> {
  const delivery = job.client ? await appPush(app, job) : await webPush(app, job);
  if (!delivery) return;
  const { device, table, message } = delivery;
  let status: number;
  try {
    status = await sendToDevice(app, device, message);
  } catch (err) {
    // No answer in time, no connection, no address: a failure of the device like an error status.
    if (!(err instanceof EgressRefused)) return deviceFailed(app, delivery, err);
    // The endpoint leads to this machine or its network now: it is never contacted, and goes.
    app.log.warn({ err, subscriptionId: device.id }, 'push endpoint refused by the outgoing-request guard; subscription removed');
    await repo.deleteSubscription(app.db, table, device.id);
    return;
  }
  if (status === 404 || status === 410) {
    await repo.deleteGoneSubscription(app.db, table, device);
    return;
  }
  if (status < 200 || status >= 300) {
    await deviceFailed(app, delivery, new PushServiceError(status));
    return;
  }
  if (device.failures > 0) await repo.clearFailures(app.db, table, device.id);
}

/** Counts the failure against the device; throws it (the queue tries again later) unless the device is dropped for it. */
async function deviceFailed(app: FastifyInstance, { device, table }: Delivery, err: unknown): Promise<void> {
  if (await repo.countFailure(app.db, table, device.id, app.config.pushMaxFailures)) {
    app.log.warn({ err, subscriptionId: device.id }, 'push subscription removed after failing too many times in a row');
    return;
  }
  throw err;
}

/** Tried for about half an hour (the queue's delays double from a second): later, a push is stale. */
export const pushJob: OutsideJob<PushJob> = { outside: sendPush, maxAttempts: 12 };
