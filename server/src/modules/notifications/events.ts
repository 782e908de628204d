import type { Executor } from '../../db/schema.js';
import { enqueueJob } from '../../lib/jobs/queue.js';

/**
 * What happened, as the notifications worker needs to know it. Notifications' subscribers to the
 * domain events (subscribers.ts) queue one in the transaction of the change that caused it; the
 * worker turns it into notifications in the background (fan-out to many recipients never slows the
 * request).
 */
export type NotificationEvent =
  | { kind: 'follow'; actorId: string; userId: string }
  | { kind: 'post_created'; postId: string }
  /** The author changed the post's text and newly mentioned these users. */
  | { kind: 'post_edited'; postId: string; mentioned: string[] }
  | { kind: 'comment_created'; commentId: string }
  /** A remote author changed their comment and newly mentioned these users. */
  | { kind: 'comment_edited'; commentId: string; mentioned: string[] }
  | { kind: 'group_join_request'; groupId: string; actorId: string }
  | { kind: 'group_join_accepted'; groupId: string; actorId: string; userId: string }
  | { kind: 'group_join_denied'; groupId: string; actorId: string; userId: string }
  | { kind: 'group_join_withdrawn'; groupId: string; userId: string }
  | { kind: 'group_new_member'; groupId: string; userId: string }
  | { kind: 'group_made_admin'; groupId: string; actorId: string; userId: string }
  | { kind: 'group_revoked_admin'; groupId: string; actorId: string; userId: string }
  | { kind: 'group_made_owner'; groupId: string; actorId: string; userId: string };

export const NOTIFICATION_JOB = 'notification_event';

export async function enqueueNotificationEvent(db: Executor, event: NotificationEvent, now: number = Date.now()): Promise<void> {
  await enqueueJob(db, NOTIFICATION_JOB, event, now);
}
