import type { FastifyInstance } from 'fastify';
import type { ReportBody, ReportKind } from '#core/api/reports';
import { trimText } from '#core/text';
import { validateReportReason } from '#core/validation';
import { badRequest, conflict } from '../../lib/app-error.js';
import type { Executor } from '../../db/schema.js';
import type { Viewer } from '../../plugins/auth.js';
import { visibleCommentAuthor } from '../comments/comments.service.js';
import { getPostForViewer } from '../posts/posts.service.js';
import { usernameOf } from '../profiles/profiles.service.js';
import { insertReport } from './reports.repository.js';

/**
 * Who is behind a target the reporter may see: a post or comment they may read (404 otherwise, as
 * for any read, so a report cannot probe a private group), or an existing user.
 */
async function ownerOf(app: FastifyInstance, viewer: Viewer, kind: ReportKind, id: string): Promise<string | null> {
  switch (kind) {
    case 'post':
      return (await getPostForViewer(app.db, id, viewer.id)).author.pfp;
    case 'comment':
      return visibleCommentAuthor(app, viewer.id, id);
    case 'user':
      await usernameOf(app, id);
      return id;
  }
}

/** The checks of a report before it is stored: a reason, and a target the reporter may see and is not. */
export async function checkReport(app: FastifyInstance, viewer: Viewer, body: ReportBody): Promise<void> {
  const problem = validateReportReason(body.reason);
  if (problem) throw badRequest(problem);
  if ((await ownerOf(app, viewer, body.kind, body.id)) === viewer.id) throw badRequest('report_yourself');
}

/** Stores a checked report, once per reporter and target. */
export async function storeReport(db: Executor, viewer: Viewer, body: ReportBody): Promise<void> {
  const stored = await insertReport(db, { reporterId: viewer.id, kind: body.kind, targetId: body.id, reason: trimText(body.reason) });
  if (!stored) throw conflict('already_reported');
}
