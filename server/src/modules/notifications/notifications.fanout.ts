import type { FastifyInstance } from 'fastify';
import type { Transaction } from 'kysely';
import { GROUP_NOTIFICATION_LEVELS, type NotificationSettings, type NotificationType } from '#core/limits';
import { groupIdsOfPost } from '../../db/posts.js';
import type { Database, Executor } from '../../db/schema.js';
import { newId } from '../../lib/ids.js';
import { lockRateKey } from '../../lib/rate-limit.js';
import { isPostVisible, postAudience } from '../../policy/post-visibility.js';
import { silencedPairs } from '../../policy/blocks.js';
import type { JobStep } from '../../lib/jobs/job-handler.js';
import { enqueuePushes } from './push/push.job.js';
import { NOTIFICATION_JOB, type NotificationEvent } from './events.js';
import { wants } from '../../policy/notification-prefs.js';
import * as repo from './notifications.repository.js';

/**
 * Turns one notification event into notification rows. Rules every event follows:
 * - never to the actor themself, never to someone who cannot see the post (group-access decides);
 * - the six account settings (notification-prefs.ts) gate their types: follower -> NEW_FOLLOWER, reply -> NEW_REPLY,
 *   postFromFollowed -> NEW_POST, postMention -> MENTION, commentMention -> COMMENT_MENTION,
 *   newMember -> NEW_MEMBER;
 * - the group level gates group-wide activity: GROUP_POST only at level all; join requests and
 *   new members reach the owner and admins at all or essential, nothing at none. What concerns
 *   the recipient's own standing (request accepted or denied, made or no longer admin) is always sent;
 * - one notification per person per post: a reply beats a mention, which beats a post from a
 *   followed user, which beats a group post; several mentions of one user make one MENTION whose
 *   mention_count says how many.
 * A post's audience can be huge (a group of 100,000), so post_created runs in steps of
 * FANOUT_BATCH recipients; the cursor lives in the job payload and is saved in the same
 * transaction as the batch, so a restart resumes exactly where the last batch ended.
 */

export const FANOUT_BATCH = 1000;

interface Progress {
  phase: 'followers' | 'groups';
  /** Index into `groups` (groups phase). */
  group: number;
  /**
   * The post's groups as they were when the groups phase began. The walk follows this list, not
   * the groups still there at each step: with a group deleted meanwhile, the index would name the
   * next group, or none, and leave members of the later groups out. (Absent in the progress of a
   * job queued by an older release: the groups at each step are used, as then.)
   */
  groups?: string[];
  /** Last user id handled in the current phase. */
  after: string;
  /** Who got a reply or mention item in the first step (they get nothing more about the post). */
  direct: string[];
}
/** An event as queued, and with how far its fan-out got once a step has run. */
type Payload = NotificationEvent & { progress?: Progress };

declare module '../../lib/jobs/job-handler.js' {
  interface JobPayloads {
    [NOTIFICATION_JOB]: Payload;
  }
}

interface Target {
  actor: string | null;
  post?: string | null;
  comment?: string | null;
  group?: string | null;
  count?: number;
}

function note(userId: string, type: NotificationType, now: number, target: Target): repo.NewNotification {
  return {
    id: newId(now),
    user_id: userId,
    type,
    actor_id: target.actor,
    post_id: target.post ?? null,
    comment_id: target.comment ?? null,
    group_id: target.group ?? null,
    mention_count: target.count ?? 1,
    created_at: now,
  };
}

/**
 * Types that repeating one action would pile up (join/leave, request/deny and follow/unfollow
 * cycles): a repeat within the collapse window refreshes the earlier item instead of adding one.
 */
const COLLAPSING: ReadonlySet<NotificationType> = new Set<NotificationType>([
  'NEW_FOLLOWER', 'NEW_MEMBER', 'GROUP_JOIN_REQUEST', 'GROUP_JOIN_DENY', 'GROUP_JOIN_ACCEPT',
]);

const collapses = (row: repo.NewNotification): boolean => COLLAPSING.has(row.type as NotificationType);

/** The name of the lock that serialises deliveries of items like `row` (PostgreSQL only). */
const collapseKey = (row: repo.NewNotification): string =>
  `notification:${row.user_id}:${row.type}:${row.actor_id ?? ''}:${row.group_id ?? ''}`;

/** The rows still to insert once repeats of recent items have refreshed those items. */
async function collapseRepeats(app: FastifyInstance, trx: Executor, rows: repo.NewNotification[]): Promise<repo.NewNotification[]> {
  const fresh = rows.filter((row) => !collapses(row));
  const repeats = rows.filter(collapses);
  // Locked in one order, so two workers delivering the same kind of item wait instead of both inserting.
  for (const key of repeats.map(collapseKey).sort()) await lockRateKey(trx, key);
  for (const row of repeats) {
    const since = row.created_at - app.config.rates.notificationCollapseMs;
    if (!(await repo.refreshRecentNotification(trx, row, since))) fresh.push(row);
  }
  return fresh;
}

/**
 * Inserts the rows (minus any addressed to their actor), queues a push of each new one to its
 * recipient's devices (a repeat that refreshed an earlier item pushes nothing), and announces the
 * new unread counts.
 */
async function deliver(app: FastifyInstance, trx: Executor, rows: repo.NewNotification[], alsoChanged: string[] = []): Promise<JobStep['afterCommit']> {
  const silenced = await silencedPairs(trx, rows.flatMap((row) => (row.actor_id ? [{ userId: row.user_id, actorId: row.actor_id }] : [])));
  const kept = rows.filter((row) => row.user_id !== row.actor_id && !silenced.has(`${row.user_id}:${row.actor_id}`));
  const fresh = await collapseRepeats(app, trx, kept);
  await repo.insertNotifications(trx, fresh);
  await enqueuePushes(trx, fresh);
  const users = [...new Set([...kept.map((row) => row.user_id), ...alsoChanged])];
  return users.length ? app.notificationHub.announce(trx, users) : undefined;
}

async function done(app: FastifyInstance, trx: Executor, rows: repo.NewNotification[], alsoChanged?: string[]): Promise<JobStep> {
  return { next: null, afterCommit: await deliver(app, trx, rows, alsoChanged) };
}

/** What a change of the recipient's own role in a group is announced as. */
const ROLE_CHANGE_TYPES = {
  group_made_admin: 'MADE_ADMIN',
  group_revoked_admin: 'REVOKED_ADMIN',
  group_made_owner: 'MADE_OWNER',
} as const satisfies Record<string, NotificationType>;

export async function notificationJobStep(app: FastifyInstance, trx: Transaction<Database>, event: Payload, now: number): Promise<JobStep> {
  switch (event.kind) {
    case 'post_created':
      return postCreated(app, trx, event, now);
    case 'post_edited':
      return edited(app, trx, await editedPost(trx, event.postId), event.mentioned, now);
    case 'comment_created':
      return commentCreated(app, trx, event.commentId, now);
    case 'comment_edited':
      return edited(app, trx, await editedComment(trx, event.commentId), event.mentioned, now);
    case 'follow': {
      if (!(await repo.followExists(trx, event.actorId, event.userId))) return { next: null };
      const settings = await settingsOf(trx, [event.userId]);
      if (!wants(settings.get(event.userId), 'follower')) return { next: null };
      // Following again after an unfollow replaces the earlier item instead of stacking them: one
      // within the collapse window is refreshed (deliver), an older one is removed here.
      await repo.deleteFollowerNotifications(trx, event.userId, event.actorId, now - app.config.rates.notificationCollapseMs);
      return done(app, trx, [note(event.userId, 'NEW_FOLLOWER', now, { actor: event.actorId })]);
    }
    case 'group_join_request': {
      if (!(await repo.joinRequestExists(trx, event.groupId, event.actorId))) return { next: null };
      const staff = await repo.groupStaff(trx, event.groupId);
      const rows = staff
        .filter((member) => member.level !== GROUP_NOTIFICATION_LEVELS.none)
        .map((member) => note(member.user_id, 'GROUP_JOIN_REQUEST', now, { actor: event.actorId, group: event.groupId }));
      return done(app, trx, rows);
    }
    case 'group_join_accepted':
    case 'group_join_denied': {
      // The request is decided: the other admins' accept/deny items have nothing left to act on.
      const changed = await repo.deleteJoinRequestNotifications(trx, event.groupId, event.userId);
      if (!(await repo.groupExists(trx, event.groupId)) || !(await repo.userExists(trx, event.userId))) {
        return done(app, trx, [], changed);
      }
      const type = event.kind === 'group_join_accepted' ? 'GROUP_JOIN_ACCEPT' : 'GROUP_JOIN_DENY';
      const actor = (await repo.userExists(trx, event.actorId)) ? event.actorId : null;
      return done(app, trx, [note(event.userId, type, now, { actor, group: event.groupId })], changed);
    }
    case 'group_join_withdrawn':
      // The requester took the request back: the admins' items about it have nothing left to act on.
      return done(app, trx, [], await repo.deleteJoinRequestNotifications(trx, event.groupId, event.userId));
    case 'group_new_member': {
      if (!(await repo.groupExists(trx, event.groupId)) || !(await repo.userExists(trx, event.userId))) return { next: null };
      const staff = await repo.groupStaff(trx, event.groupId);
      const rows = staff
        .filter((member) => member.level !== GROUP_NOTIFICATION_LEVELS.none && wants(member.settings, 'newMember'))
        .map((member) => note(member.user_id, 'NEW_MEMBER', now, { actor: event.userId, group: event.groupId }));
      return done(app, trx, rows);
    }
    case 'group_made_admin':
    case 'group_revoked_admin':
    case 'group_made_owner': {
      if (!(await repo.groupExists(trx, event.groupId)) || !(await repo.userExists(trx, event.userId))) return { next: null };
      const type = ROLE_CHANGE_TYPES[event.kind];
      const actor = (await repo.userExists(trx, event.actorId)) ? event.actorId : null;
      return done(app, trx, [note(event.userId, type, now, { actor, group: event.groupId })]);
    }
    default:
      // An event kind this version does not know: drop it rather than retry forever.
      app.log.warn({ event }, 'unknown notification event');
      return { next: null };
  }
}

async function postCreated(app: FastifyInstance, trx: Executor, event: Extract<Payload, { kind: 'post_created' }>, now: number): Promise<JobStep> {
  const post = await repo.findPost(trx, event.postId);
  if (!post?.author_id) return { next: null };
  const authorId = post.author_id;
  const groupIds = await groupIdsOfPost(trx, post.id);
  const progress = event.progress;
  const at = (next: Progress | null): unknown => (next ? { ...event, progress: next } : null);

  if (!progress) {
    // The few named recipients first: the replied-to author and the mentioned users.
    const original = post.reply_to ? await repo.postAuthor(trx, post.reply_to) : null;
    const mentions = await repo.mentionCounts(trx, { postId: post.id });
    const settings = await settingsOf(trx, [original, ...mentions.map((m) => m.userId)]);
    const sees = (userId: string) => isPostVisible(trx, post.id, userId);
    const rows: repo.NewNotification[] = [];
    // Who has an item about the post already (one each). An item for the author themself is
    // dropped on delivery, as every item addressed to its own actor is.
    const taken = new Set<string>();
    if (original && wants(settings.get(original), 'reply') && (await sees(original))) {
      rows.push(note(original, 'NEW_REPLY', now, { actor: authorId, post: post.id }));
      taken.add(original);
    }
    for (const mention of mentions) {
      if (taken.has(mention.userId) || !wants(settings.get(mention.userId), 'postMention') || !(await sees(mention.userId))) continue;
      rows.push(note(mention.userId, 'MENTION', now, { actor: authorId, post: post.id, count: mention.count }));
      taken.add(mention.userId);
    }
    const direct = rows.map((row) => row.user_id);
    return { next: at({ phase: 'followers', group: 0, after: '', direct }), afterCommit: await deliver(app, trx, rows) };
  }

  // Who is reached in which phase is decided from the data alone (not from rows already
  // inserted), so each step costs the same however many notifications the post has by then.
  const direct = new Set(progress.direct);
  const query = { authorId, audience: await postAudience(trx, post.id), after: progress.after, limit: FANOUT_BATCH };
  if (progress.phase === 'followers') {
    const batch = await repo.notifyFollowersBatch(trx, query);
    const rows = batch
      .filter((row) => row.eligible && !direct.has(row.user_id) && wants(row.settings, 'postFromFollowed'))
      .map((row) => note(row.user_id, 'NEW_POST', now, { actor: authorId, post: post.id }));
    const last = batch.at(-1);
    const next: Progress =
      batch.length < FANOUT_BATCH || !last
        ? { ...progress, phase: 'groups', group: 0, after: '', groups: groupIds }
        : { ...progress, after: last.user_id };
    return { next: at(next), afterCommit: await deliver(app, trx, rows) };
  }

  // A group deleted since has no members left, so its walk is one empty batch.
  const groups = progress.groups ?? groupIds;
  const groupId = groups[progress.group];
  if (!groupId) return { next: null };
  const earlierGroupIds = groups.slice(0, progress.group);
  const batch = await repo.groupMembersBatch(trx, { ...query, groupId, earlierGroupIds });
  const rows = batch
    .filter((row) => row.eligible && !direct.has(row.user_id) && !(row.follows_author && wants(row.settings, 'postFromFollowed')))
    .map((row) => note(row.user_id, 'GROUP_POST', now, { actor: authorId, post: post.id, group: groupId }));
  const last = batch.at(-1);
  let next: Progress | null;
  if (batch.length === FANOUT_BATCH && last) next = { ...progress, after: last.user_id };
  else next = progress.group + 1 < groups.length ? { ...progress, group: progress.group + 1, after: '' } : null;
  return { next: at(next), afterCommit: await deliver(app, trx, rows) };
}

/** What an edit is about: the post or comment, the mention item it gives and the setting that item needs. */
interface Edit {
  about: { postId: string } | { commentId: string };
  type: 'MENTION' | 'COMMENT_MENTION';
  setting: 'postMention' | 'commentMention';
  target: Target & { post: string };
}

/** A post's edit; none once its author's account is gone. */
async function editedPost(trx: Executor, postId: string): Promise<Edit | null> {
  const post = await repo.findPost(trx, postId);
  if (!post?.author_id) return null;
  return { about: { postId: post.id }, type: 'MENTION', setting: 'postMention', target: { actor: post.author_id, post: post.id } };
}

/** A remote comment's edit; none once its author's account is gone. */
async function editedComment(trx: Executor, commentId: string): Promise<Edit | null> {
  const comment = await repo.findComment(trx, commentId);
  if (!comment?.author_id) return null;
  return { about: { commentId: comment.id }, type: 'COMMENT_MENTION', setting: 'commentMention', target: { actor: comment.author_id, post: comment.post_id, comment: comment.id } };
}

/**
 * An edit of a post or a comment tells only the people it newly names (`mentioned`), and only
 * those still mentioned by the time the job runs, who may see the post and want mentions, and who
 * have no reply or mention item about it yet (one item per person, however often it is edited).
 */
async function edited(app: FastifyInstance, trx: Executor, edit: Edit | null, mentioned: string[], now: number): Promise<JobStep> {
  if (!edit) return { next: null };
  const wanted = new Set(mentioned);
  const mentions = (await repo.mentionCounts(trx, edit.about)).filter((m) => wanted.has(m.userId));
  const ids = mentions.map((m) => m.userId);
  const [settings, told] = await Promise.all([settingsOf(trx, ids), repo.usersToldAbout(trx, edit.about, ids, [edit.type, 'NEW_REPLY'])]);
  const rows: repo.NewNotification[] = [];
  for (const mention of mentions) {
    if (told.has(mention.userId) || !wants(settings.get(mention.userId), edit.setting)) continue;
    if (!(await isPostVisible(trx, edit.target.post, mention.userId))) continue;
    rows.push(note(mention.userId, edit.type, now, { ...edit.target, count: mention.count }));
  }
  return done(app, trx, rows);
}

async function commentCreated(app: FastifyInstance, trx: Executor, commentId: string, now: number): Promise<JobStep> {
  const comment = await repo.findComment(trx, commentId);
  if (!comment?.author_id) return { next: null };
  const authorId = comment.author_id;
  // A reply to a comment goes to that comment's author; a comment on a post to the post's author.
  const replied = comment.parent_comment_id ? await repo.commentAuthor(trx, comment.parent_comment_id) : await repo.postAuthor(trx, comment.post_id);
  const mentions = await repo.mentionCounts(trx, { commentId: comment.id });
  const settings = await settingsOf(trx, [replied, ...mentions.map((m) => m.userId)]);
  const target = { actor: authorId, post: comment.post_id, comment: comment.id };
  const rows: repo.NewNotification[] = [];
  // Who has an item about the comment already (one each). An item for the author themself is
  // dropped on delivery, as every item addressed to its own actor is.
  const taken = new Set<string>();
  if (replied && wants(settings.get(replied), 'reply') && (await isPostVisible(trx, comment.post_id, replied))) {
    rows.push(note(replied, 'NEW_REPLY', now, target));
    taken.add(replied);
  }
  for (const mention of mentions) {
    if (taken.has(mention.userId) || !wants(settings.get(mention.userId), 'commentMention')) continue;
    if (!(await isPostVisible(trx, comment.post_id, mention.userId))) continue;
    rows.push(note(mention.userId, 'COMMENT_MENTION', now, { ...target, count: mention.count }));
    taken.add(mention.userId);
  }
  return done(app, trx, rows);
}

async function settingsOf(trx: Executor, userIds: Array<string | null>): Promise<Map<string, NotificationSettings>> {
  const ids = [...new Set(userIds.filter((id): id is string => !!id))];
  const rows = await repo.usersWithSettings(trx, ids);
  return new Map(rows.map((row) => [row.user_id, row.settings]));
}
