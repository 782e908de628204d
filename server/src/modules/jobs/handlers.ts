import { ACCOUNT_MAIL_JOB, accountMailJob } from '../auth/auth.emails.js';
import { federationBackfillJob } from '../federation/backfill.js';
import { FEDERATION_DELIVERY_JOB, deliveryLane, federationDeliveryJob } from '../federation/delivery.js';
import { FEDERATION_OUTGOING_JOB } from '../federation/outgoing.js';
import { federationOutgoingJob } from '../federation/outgoing-activities.js';
import { FEDERATION_BACKFILL_JOB } from '../federation/remote-lookup.js';
import { FEDERATION_ACTOR_REFRESH_JOB, FEDERATION_AVATAR_JOB, federationActorRefreshJob, federationAvatarJob } from '../federation/remote-refresh.js';
import { NOTIFICATION_JOB } from '../notifications/events.js';
import { notificationJobStep } from '../notifications/notifications.fanout.js';
import { PUSH_JOB, pushJob } from '../push/push.job.js';
import type { Config } from '../../config.js';
import type { JobConcurrency, JobHandlers } from './job-handler.js';
import { MAINTENANCE_JOB, maintenanceStep } from './maintenance.js';

/** What runs each kind of job: the one place that knows them all, registered on the app by the jobs plugin. */
export const JOB_HANDLERS: JobHandlers = {
  [NOTIFICATION_JOB]: notificationJobStep,
  [ACCOUNT_MAIL_JOB]: accountMailJob,
  [MAINTENANCE_JOB]: maintenanceStep,
  [PUSH_JOB]: pushJob,
  [FEDERATION_DELIVERY_JOB]: federationDeliveryJob,
  [FEDERATION_OUTGOING_JOB]: federationOutgoingJob,
  [FEDERATION_BACKFILL_JOB]: federationBackfillJob,
  [FEDERATION_AVATAR_JOB]: federationAvatarJob,
  [FEDERATION_ACTOR_REFRESH_JOB]: federationActorRefreshJob,
};

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
