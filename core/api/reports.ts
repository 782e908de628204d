import { type Static, Type } from '@sinclair/typebox';
import { Id, MessageReplies, Nullable, moderatorsList, pageOf } from './common.js';
import { endpoint } from './endpoint.js';

/** What can be reported to the moderators. */
export const REPORT_KINDS = ['post', 'comment', 'user'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

/** `id` is the post's, the comment's or the user's (pfp) id; `reason` is the reporter's words. */
export const ReportBody = Type.Object({
  kind: Type.Union(REPORT_KINDS.map((kind) => Type.Literal(kind))),
  id: Id,
  reason: Type.String({ maxLength: 4096 }),
});
export type ReportBody = Static<typeof ReportBody>;

/** What an instance moderator may do about a report: delete the content, suspend its author, or dismiss it. */
export const MODERATOR_ACTIONS = ['delete', 'suspend', 'dismiss'] as const;
export type ModeratorAction = (typeof MODERATOR_ACTIONS)[number];
/** What a group's admin may do about a report of a post in the group. */
export const GROUP_ADMIN_ACTIONS = ['remove', 'ban', 'dismiss'] as const;
export type GroupAdminAction = (typeof GROUP_ADMIN_ACTIONS)[number];
/** Every action the moderation log records: the actions on reports, lifting a suspension, domain blocks, and the moderator role. */
export const LOGGED_ACTIONS = [...MODERATOR_ACTIONS, ...GROUP_ADMIN_ACTIONS, 'unsuspend', 'block_domain', 'unblock_domain', 'grant_moderator', 'revoke_moderator'] as const;
export type LoggedAction = (typeof LOGGED_ACTIONS)[number];
export const isLoggedAction = (value: string): value is LoggedAction => (LOGGED_ACTIONS as readonly string[]).includes(value);

/** Reports listed per page of a moderation queue, and entries per page of the log. */
export const REPORTS_PAGE_SIZE = 10;

/**
 * One reported thing with its open reports: `_id` is the report an action names (acting settles
 * every open report of the same target). `user` is the author of the post or comment, or the
 * reported user (null when the account is gone); `text` the post's or comment's words; `postId`
 * the post to open (the comment's post for a comment).
 */
export const ReportItem = Type.Object({
  _id: Type.String(),
  kind: Type.Union([Type.Literal('post'), Type.Literal('comment'), Type.Literal('user')]),
  targetId: Type.String(),
  user: Type.Union([Type.Object({ _id: Type.String(), username: Type.String(), suspended: Type.Boolean() }), Type.Null()]),
  text: Nullable(Type.String()),
  postId: Nullable(Type.String()),
  /** Each reporter's reason, oldest first. */
  reasons: Type.Array(Type.String()),
  reporters: Type.Integer(),
  /** Epoch ms of the first open report. */
  createdAt: Type.Number(),
});
export type ReportItem = Static<typeof ReportItem>;

export const ReportListReply = pageOf('reports', ReportItem);
export type ReportListReply = Static<typeof ReportListReply>;

/** One moderation action as the log keeps it; `group` is null for an instance moderator's. */
export const ModerationLogItem = Type.Object({
  _id: Type.String(),
  /** Who acted; null once their account is gone. */
  actor: Nullable(Type.String()),
  action: Type.String(),
  targetKind: Type.String(),
  targetId: Type.String(),
  group: Nullable(Type.String()),
  createdAt: Type.Number(),
});
export type ModerationLogItem = Static<typeof ModerationLogItem>;

export const ModerationLogReply = pageOf('actions', ModerationLogItem);
export type ModerationLogReply = Static<typeof ModerationLogReply>;

export const ReportIdParams = Type.Object({ reportId: Id });
export const UserParams = Type.Object({ userId: Id });
export const ModeratorActionBody = Type.Object({ action: Type.Union([Type.Literal('delete'), Type.Literal('suspend'), Type.Literal('dismiss')]) });
export type ModeratorActionBody = Static<typeof ModeratorActionBody>;
export const GroupAdminActionBody = Type.Object({ action: Type.Union([Type.Literal('remove'), Type.Literal('ban'), Type.Literal('dismiss')]) });
export type GroupAdminActionBody = Static<typeof GroupAdminActionBody>;

/**
 * Reporting to the moderators. A report names something the reporter can see (a post or comment
 * they may read, an existing user), not their own, once per reporter and target.
 */
export const reportsApi = {
  report: endpoint({
    method: 'POST',
    path: '/report',
    summary: 'Report a post, a comment or a user to the moderators, with a reason',
    body: ReportBody,
    replies: MessageReplies,
    invalidKey: 'invalid_report',
    errors: [
      'invalid_report',
      'report_reason_required',
      'max_report_reason_length',
      'already_reported',
      'report_yourself',
      'didnt_find_post',
      'comment_not_found',
      'user_not_found',
      'report_limit',
      'idempotency_mismatch',
    ],
  }),
  queue: moderatorsList('/reports', 'Open reports, newest first, one item per reported thing (instance moderators)', ReportListReply),
  act: endpoint({
    method: 'POST',
    path: '/reports/:reportId',
    summary: "Settle a report: delete the content, suspend its author, or dismiss it (instance moderators)",
    params: ReportIdParams,
    body: ModeratorActionBody,
    replies: MessageReplies,
    invalidKey: 'invalid_moderation_action',
    errors: ['moderators_only', 'report_not_found', 'invalid_moderation_action', 'own_report', 'didnt_find_post', 'comment_not_found', 'user_not_found'],
  }),
  suspend: endpoint({
    method: 'PUT',
    path: '/reports/suspended/:userId',
    summary: 'Suspend an account: no sign-in, sessions ended, its content hidden (instance moderators)',
    params: UserParams,
    replies: MessageReplies,
    errors: ['moderators_only', 'user_not_found', 'invalid_moderation_action'],
  }),
  unsuspend: endpoint({
    method: 'DELETE',
    path: '/reports/suspended/:userId',
    summary: "Lift an account's suspension (instance moderators)",
    params: UserParams,
    replies: MessageReplies,
    errors: ['moderators_only', 'user_not_found', 'invalid_moderation_action'],
  }),
  log: moderatorsList('/reports/log', 'Every moderation action, newest first (instance moderators)', ModerationLogReply),
} as const;
