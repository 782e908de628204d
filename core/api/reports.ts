import { type Static, Type } from '@sinclair/typebox';
import { Id, MessageReplies } from './common.js';
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
      'idempotency_mismatch',
    ],
  }),
} as const;
