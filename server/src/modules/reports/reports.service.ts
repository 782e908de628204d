import type { ReportBody, ReportKind } from '#core/api/reports';
import { trimText } from '#core/text';
import { validateReportReason } from '#core/validation';
import { badRequest, conflict } from '../../lib/app-error.js';
import { takeReportSlot } from '../../lib/content-limits.js';
import type { ServiceContext } from '../../lib/service-context.js';
import type { Viewer } from '../../plugins/auth.js';
import { visibleCommentAuthor } from '../comments/comments.service.js';
import { getPostForViewer } from '../posts/posts.service.js';
import { findUsername } from '../profiles/profiles.service.js';
import { insertReport } from './reports.repository.js';

/**
 * Who is behind a target the reporter may see: a post or comment they may read (404 otherwise, as
 * for any read, so a report cannot probe a private group), or an existing user.
 */
async function ownerOf(ctx: ServiceContext, viewer: Viewer, kind: ReportKind, id: string): Promise<string | null> {
  switch (kind) {
    case 'post':
      return (await getPostForViewer(ctx, viewer, id)).author.pfp;
    case 'comment':
      return visibleCommentAuthor(ctx, viewer, id);
    case 'user':
      await findUsername(ctx, id);
      return id;
  }
}

/** The checks of a report before it is stored: a reason, and a target the reporter may see and is not. */
export async function checkReport(ctx: ServiceContext, viewer: Viewer, body: ReportBody): Promise<void> {
  const problem = validateReportReason(body.reason);
  if (problem) throw badRequest(problem);
  if ((await ownerOf(ctx, viewer, body.kind, body.id)) === viewer.id) throw badRequest('report_yourself');
}

/**
 * Stores a checked report, once per reporter and target, within the reporter's hourly limit. Runs
 * in the route's transaction: a duplicate rolls back its slot with it, so only stored reports count.
 */
export async function storeReport(ctx: ServiceContext, viewer: Viewer, body: ReportBody): Promise<void> {
  await takeReportSlot(ctx.db, ctx.app.config.rates, viewer.id);
  const stored = await insertReport(ctx.db, { reporterId: viewer.id, kind: body.kind, targetId: body.id, reason: trimText(body.reason) });
  if (!stored) throw conflict('already_reported');
}
