import { ACCOUNT_MAIL_JOB, accountMailJob } from '../auth/auth.emails.js';
import { NOTIFICATION_JOB } from '../notifications/events.js';
import { notificationJobStep } from '../notifications/notifications.fanout.js';
import { PUSH_JOB, pushJob } from '../push/push.job.js';
import type { JobHandlers } from './job-handler.js';
import { MAINTENANCE_JOB, maintenanceStep } from './maintenance.js';

/** What runs each kind of job: the one place that knows them all, registered on the app by the jobs plugin. */
export const JOB_HANDLERS: JobHandlers = {
  [NOTIFICATION_JOB]: notificationJobStep,
  [ACCOUNT_MAIL_JOB]: accountMailJob,
  [MAINTENANCE_JOB]: maintenanceStep,
  [PUSH_JOB]: pushJob,
};
