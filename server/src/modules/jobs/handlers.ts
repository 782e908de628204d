import { NOTIFICATION_JOB } from '../notifications/events';
import { notificationJobStep } from '../notifications/notifications.fanout';
import type { JobHandler } from './worker';

/** What runs each kind of job. */
export const JOB_HANDLERS: Record<string, JobHandler> = {
  [NOTIFICATION_JOB]: notificationJobStep,
};
