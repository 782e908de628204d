import { ACCOUNT_MAIL_JOB, accountMailJob } from './modules/auth/auth.emails.js';
import { federationBackfillJob } from './modules/federation/inbound/backfill-job.js';
import { FEDERATION_DELIVERY_JOB, deliveryLane, federationDeliveryJob, forgetKeysOfGoneActors, giveUpStaleDeliveries } from './modules/federation/outbound/delivery.js';
import { purgeExpiredKv } from './modules/federation/kv-store.js';
import { FEDERATION_OUTGOING_JOB } from './modules/federation/outbound/outgoing.js';
import { federationOutgoingJob } from './modules/federation/outbound/outgoing-activities.js';
import { FEDERATION_BACKFILL_JOB } from './modules/remote/remote-lookup.js';
import { FEDERATION_ACTOR_REFRESH_JOB, FEDERATION_AVATAR_JOB, federationActorRefreshJob, federationAvatarJob } from './modules/remote/remote-refresh.js';
import {
  MAINTENANCE_JOB,
  type MaintenanceTask,
  forgetIdleJobHosts,
  forgetSpentRequests,
  maintenanceStep,
  scheduleMaintenance,
} from './modules/jobs/maintenance.js';
import { dropOldRemoteCopies } from './modules/media/remote-media.js';
import { dropStaleUploads } from './modules/media/staged-uploads.js';
import { refreshPlannerStatistics } from './db/sqlite-statistics.js';
import { NOTIFICATION_JOB } from './modules/notifications/events.js';
import { notificationJobStep } from './modules/notifications/notifications.fanout.js';
import { PUSH_JOB, pushJob } from './modules/notifications/push/push.job.js';
import type { Config } from './config.js';
import type { JobsOptions } from './lib/jobs/jobs.plugin.js';
import type { JobConcurrency, JobHandlers, JobRegistry } from './lib/jobs/job-handler.js';

/**
 * What each maintenance run does, in order: it forgets spent idempotency keys and old rate events,
 * gives up deliveries past their lifetime (a host parked all along), forgets the failure streaks of
 * hosts nothing waits for (those just given up included), the signing keys of deleted actors that
 * nothing queued needs any more, the federation's cached entries (remote keys) past their lifetime,
 * the copies of remote pictures older than REMOTE_MEDIA_DAYS, and the pictures apps uploaded more
 * than STAGED_UPLOAD_HOURS ago; on SQLite it last keeps the planner's statistics (sqlite-statistics.ts).
 */
export const MAINTENANCE_TASKS: readonly MaintenanceTask[] = [
  forgetSpentRequests,
  async (app, trx, now) => {
    const givenUp = await giveUpStaleDeliveries(trx, now);
    if (givenUp > 0) app.log.warn({ givenUp }, 'deliveries given up: not delivered within their lifetime');
  },
  forgetIdleJobHosts,
  (_app, trx) => forgetKeysOfGoneActors(trx),
  async (app, trx, now) => {
    const expired = await purgeExpiredKv(trx, now);
    if (expired > 0) app.log.info({ expired }, 'expired federation cache entries deleted');
  },
  async (app, trx, now) => {
    await dropOldRemoteCopies(app, trx, now);
  },
  async (app, trx, now) => {
    await dropStaleUploads(app, trx, now);
  },
  async (app, trx) => {
    const { droppedSamples } = await refreshPlannerStatistics(trx);
    if (droppedSamples > 0) app.log.info({ droppedSamples }, 'SQLite per-value planner samples dropped: with them every statement comparing a bound value was compiled again on each run');
  },
];

/**
 * What runs each kind of job: the one place that knows them all, handed to the jobs plugin. Each
 * handler is checked against its kind's payload (JobRegistry); the worker sees them by stored kind.
 */
export const JOB_HANDLERS: JobHandlers = {
  [NOTIFICATION_JOB]: notificationJobStep,
  [ACCOUNT_MAIL_JOB]: accountMailJob,
  [MAINTENANCE_JOB]: maintenanceStep(MAINTENANCE_TASKS),
  [PUSH_JOB]: pushJob,
  [FEDERATION_DELIVERY_JOB]: federationDeliveryJob,
  [FEDERATION_OUTGOING_JOB]: federationOutgoingJob,
  [FEDERATION_BACKFILL_JOB]: federationBackfillJob,
  [FEDERATION_AVATAR_JOB]: federationAvatarJob,
  [FEDERATION_ACTOR_REFRESH_JOB]: federationActorRefreshJob,
} satisfies Required<JobRegistry>;

/**
 * The kinds that wait on other servers run side by side, each within its own bound, so a push
 * service that never answers holds push slots only and mail keeps going out, and deliveries a few
 * per host; the rest one at a time.
 */
export const jobConcurrency = (config: Config): JobConcurrency => ({
  [PUSH_JOB]: { jobs: config.jobConcurrency.push },
  [ACCOUNT_MAIL_JOB]: { jobs: config.jobConcurrency.mail },
  [FEDERATION_DELIVERY_JOB]: deliveryLane(config),
});

/** Everything the jobs plugin runs, for this configuration. */
export const jobsOptions = (config: Config): JobsOptions => ({
  handlers: JOB_HANDLERS,
  concurrency: jobConcurrency(config),
  recurring: [scheduleMaintenance],
});
