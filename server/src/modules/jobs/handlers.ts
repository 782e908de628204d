import { ACCOUNT_MAIL_JOB, accountMailJob } from '../auth/auth.emails';
import { NOTIFICATION_JOB } from '../notifications/events';
import { notificationJobStep } from '../notifications/notifications.fanout';
import { MAINTENANCE_JOB, maintenanceStep } from './maintenance';
import type { JobHandler } from './worker';

/** What runs each kind of job. */
export const JOB_HANDLERS: Record<string, JobHandler> = {
  [NOTIFICATION_JOB]: notificationJobStep,
  [ACCOUNT_MAIL_JOB]: accountMailJob,
  [MAINTENANCE_JOB]: maintenanceStep,
};
