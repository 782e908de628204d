import {
  type GroupAdminAction,
  type LoggedAction,
  type ModerationLogReply,
  type ModeratorAction,
  REPORTS_PAGE_SIZE,
  type ReportItem,
  type ReportListReply,
} from '#core/api/reports';
import type { PageQuery } from '#core/api/common';
import type { InfoKey } from '#core/errors';
import { badRequest, forbidden, notFound } from '../../lib/app-error.js';
import { type PageWindow, pageWindow, toPage } from '../../lib/paging.js';
import type { ServiceContext } from '../../lib/service-context.js';
import type { Viewer } from '../../plugins/auth.js';
import { setSuspended } from '../auth/auth.service.js';
import { deleteComment } from '../comments/comments.service.js';
import { isAdminRole, membershipOf } from '../../policy/group-access.js';
import { loadGroup, removePost, setBan } from '../groups/groups.service.js';
import { deletePost } from '../posts/posts.service.js';
import { requireModerator } from '../../policy/moderators.js';
import * as repo from './reports.repository.js';

/**
 * Acting on reports. Instance moderators (users.role 'moderator') see every open report and may
 * delete the content, suspend its author or dismiss; a group's owner and admins see the reports of
 * posts in their group and may remove the post from it, ban its author there or dismiss. An
 * action settles every open report of the same thing (a group's for that group's queue only, the
 * moderators' for everyone) and is written to the moderation log, on the transaction the route
 * opened for it. Nobody acts on a report of themselves or of what they wrote. The content itself changes through its own module's
 * service, exactly as its author's or an admin's own action would.
 */


/** The group named in the path, when the caller is its owner or an admin. */
async function adminGroup(ctx: ServiceContext, viewer: Viewer, name: string) {
  const group = await loadGroup(ctx.db, name);
  if (!isAdminRole((await membershipOf(ctx.db, group.id, viewer.id)).role)) throw forbidden('need_admin');
  return group;
}

/** One page of the queue: each reported thing with its reasons, its author and its words. */
async function queuePage(ctx: ServiceContext, scope: repo.QueueScope, window: PageWindow): Promise<ReportListReply> {
  const { items: rows, hasMore } = toPage(await repo.openTargetsPage(ctx.db, scope, window), window);
  const idsOf = (kind: string) => rows.filter((r) => r.target_kind === kind).map((r) => r.target_id);
  const [reasons, content] = await Promise.all([
    repo.openReasons(ctx.db, rows.map((r) => r.target_id)),
    repo.reportedContent(ctx.db, idsOf('post'), idsOf('comment'), idsOf('user')),
  ]);
  const posts = new Map(content.posts.map((p) => [p.id, p]));
  const comments = new Map(content.comments.map((c) => [c.id, c]));
  const users = new Map(content.users.map((u) => [u.id, u]));
  const userRef = (id: string | null | undefined): ReportItem['user'] => {
    const user = id ? users.get(id) : undefined;
    return user ? { _id: user.id, username: user.username, suspended: !!user.suspended_at } : null;
  };
  const reports = rows.map((row): ReportItem => {
    const post = row.target_kind === 'post' ? posts.get(row.target_id) : undefined;
    const comment = row.target_kind === 'comment' ? comments.get(row.target_id) : undefined;
    const shown = comment && !comment.deleted ? comment : undefined;
    return {
      _id: row.id,
      kind: row.target_kind,
      targetId: row.target_id,
      user: userRef(row.target_kind === 'user' ? row.target_id : (post ?? shown)?.author_id),
      text: (post ?? shown)?.text ?? null,
      postId: post?.id ?? shown?.post_id ?? null,
      reasons: reasons.filter((r) => r.target_kind === row.target_kind && r.target_id === row.target_id).map((r) => r.reason),
      reporters: row.reporters,
      createdAt: row.first_at,
    };
  });
  return { reports, hasMore };
}

const window = (query: PageQuery) => pageWindow(query, REPORTS_PAGE_SIZE);

/** A group's queue or log: the group (by name or id) and the page asked for. */
export interface GroupPageQuery {
  nameOrId: string;
  query: PageQuery;
}

/** GET /reports: every open report (instance moderators). */
export async function moderatorQueue(ctx: ServiceContext, viewer: Viewer, query: PageQuery): Promise<ReportListReply> {
  requireModerator(viewer);
  return queuePage(ctx, { kind: 'all' }, window(query));
}

/** GET /group/{name}/reports: the open reports of posts in the group (its owner and admins). */
export async function groupQueue(ctx: ServiceContext, viewer: Viewer, { nameOrId, query }: GroupPageQuery): Promise<ReportListReply> {
  const group = await adminGroup(ctx, viewer, nameOrId);
  return queuePage(ctx, { kind: 'group', groupId: group.id }, window(query));
}

/** The open report, unless it is about the viewer or what they wrote: nobody settles reports of themselves. */
async function openReport(ctx: ServiceContext, viewer: Viewer, reportId: string) {
  const report = await repo.findOpenReport(ctx.db, reportId);
  if (!report) throw notFound('report_not_found');
  const about = report.target_kind === 'user' ? report.target_id : await repo.authorOf(ctx.db, report.target_kind, report.target_id);
  if (about === viewer.id) throw forbidden('own_report');
  return report;
}

type Report = Awaited<ReturnType<typeof openReport>>;

/** What an action on a report is logged as: the action, the group it was taken in, and what it was taken on when not the reported thing. */
interface Step {
  action: LoggedAction;
  groupId: string | null;
  target?: { kind: string; id: string };
}

/**
 * Settles every open report of the report's target and logs the action, on the action's own
 * transaction (the route's). Settling comes before the change: when two people act on the same
 * report at once, the second finds nothing open (on PostgreSQL its update waits for the first to
 * commit), answers report_not_found, and its action is undone with it instead of being applied and
 * logged twice.
 */
async function settle(ctx: ServiceContext, viewer: Viewer, report: Report, step: Step) {
  const { action, groupId, target } = step;
  const status = action === 'dismiss' ? 'dismissed' : 'resolved';
  // A group's admin settles the group's queue only: the instance moderators still see the report.
  const settled = groupId
    ? await repo.settleInGroup(ctx.db, report.target_id, groupId, status, viewer.id)
    : await repo.resolveTarget(ctx.db, report.target_kind, report.target_id, status, viewer.id);
  if (settled === 0) throw notFound('report_not_found');
  await repo.logAction(ctx.db, {
    actorId: viewer.id,
    groupId,
    action,
    targetKind: target?.kind ?? report.target_kind,
    targetId: target?.id ?? report.target_id,
    reportId: report.id,
  });
}

/** What an action on a report did: the message naming it, and the media to remove once its transaction commits. */
export interface ActionDone {
  info: InfoKey;
  mediaKeys: string[];
}

const done = (info: InfoKey, mediaKeys: string[] = []): ActionDone => ({ info, mediaKeys });

/** The user a report is about: the reported user, or the author of the post or comment. */
async function reportedUser(ctx: ServiceContext, report: Report): Promise<string> {
  const userId = report.target_kind === 'user' ? report.target_id : await repo.authorOf(ctx.db, report.target_kind, report.target_id);
  if (!userId) throw notFound('user_not_found');
  return userId;
}

/** Suspends or restores an account and logs it (with the report that led to it, if any). */
async function changeSuspension(ctx: ServiceContext, viewer: Viewer, userId: string, suspend: boolean, report?: Report): Promise<void> {
  // A moderator who suspended themselves could not sign in to lift it.
  if (userId === viewer.id) throw badRequest('invalid_moderation_action');
  const trx = ctx.db;
  if (report && (await repo.resolveTarget(trx, report.target_kind, report.target_id, 'resolved', viewer.id)) === 0) throw notFound('report_not_found');
  if (!(await setSuspended(trx, userId, suspend ? Date.now() : null))) throw notFound('user_not_found');
  await repo.logAction(trx, {
    actorId: viewer.id,
    groupId: null,
    action: suspend ? 'suspend' : 'unsuspend',
    targetKind: 'user',
    targetId: userId,
    reportId: report?.id ?? null,
  });
}

/** POST /reports/{reportId} (instance moderators), on the route's transaction. */
export async function moderatorAct(ctx: ServiceContext, viewer: Viewer, { reportId, action }: { reportId: string; action: ModeratorAction }): Promise<ActionDone> {
  requireModerator(viewer);
  const report = await openReport(ctx, viewer, reportId);
  switch (action) {
    case 'dismiss':
      await settle(ctx, viewer, report, { action, groupId: null });
      return done('report_resolved');
    case 'suspend':
      await changeSuspension(ctx, viewer, await reportedUser(ctx, report), true, report);
      return done('user_suspended');
    case 'delete': {
      if (report.target_kind === 'user') throw badRequest('invalid_moderation_action');
      const author = await repo.authorOf(ctx.db, report.target_kind, report.target_id);
      await settle(ctx, viewer, report, { action, groupId: null });
      // Deleted by its author's own service, with the author's authority: the same cleanup of
      // comments, counters and images as when the author deletes it. Content already gone (or
      // its author's account with it) needs no deleting: the report is settled all the same.
      if (!author) return done('report_resolved');
      const asAuthor = { ...viewer, id: author };
      const remove = report.target_kind === 'post' ? deletePost : deleteComment;
      return done('report_resolved', await remove(ctx, asAuthor, report.target_id));
    }
  }
}

/** Writes an instance moderator's action taken outside a report (a domain block) to the moderation log. */
export async function logModeratorAction(ctx: ServiceContext, viewer: Viewer, action: LoggedAction, target: { kind: string; id: string }): Promise<void> {
  await repo.logAction(ctx.db, { actorId: viewer.id, groupId: null, action, targetKind: target.kind, targetId: target.id, reportId: null });
}

/** PUT and DELETE /reports/suspended/{userId} (instance moderators), on the route's transaction. */
export async function setSuspension(ctx: ServiceContext, viewer: Viewer, { userId, suspend }: { userId: string; suspend: boolean }): Promise<void> {
  requireModerator(viewer);
  await changeSuspension(ctx, viewer, userId, suspend);
}

/** POST /group/{name}/reports/{reportId} (the group's owner and admins), on the route's transaction. */
export async function groupAct(
  ctx: ServiceContext,
  viewer: Viewer,
  { nameOrId, reportId, action }: { nameOrId: string; reportId: string; action: GroupAdminAction },
): Promise<ActionDone> {
  const group = await adminGroup(ctx, viewer, nameOrId);
  const report = await openReport(ctx, viewer, reportId);
  // Another group's report (or one not about a post) is not this admin's to see.
  if (!(await repo.isOpenPostReportInGroup(ctx.db, report.id, group.id))) throw notFound('report_not_found');
  switch (action) {
    case 'dismiss':
      await settle(ctx, viewer, report, { action, groupId: group.id });
      return done('report_resolved');
    case 'remove':
      await settle(ctx, viewer, report, { action, groupId: group.id });
      return done('post_removed', await removePost(ctx, viewer, { groupId: group.id, postId: report.target_id }));
    case 'ban': {
      const author = await repo.authorOf(ctx.db, 'post', report.target_id);
      if (!author) throw notFound('didnt_find_user');
      await settle(ctx, viewer, report, { action, groupId: group.id, target: { kind: 'user', id: author } });
      await setBan(ctx, viewer, { nameOrId: group.id, userId: author, ban: true });
      return done('user_banned');
    }
  }
}

const toLog = (rows: Awaited<ReturnType<typeof repo.logPage>>, window: PageWindow): ModerationLogReply => {
  const { items, hasMore } = toPage(rows, window);
  return {
    actions: items.map((r) => ({ _id: r.id, actor: r.actor, action: r.action, targetKind: r.target_kind, targetId: r.target_id, group: r.group, createdAt: r.created_at })),
    hasMore,
  };
};

/** GET /reports/log: every moderation action (instance moderators). */
export async function moderatorLog(ctx: ServiceContext, viewer: Viewer, query: PageQuery): Promise<ModerationLogReply> {
  requireModerator(viewer);
  const w = window(query);
  return toLog(await repo.logPage(ctx.db, null, w), w);
}

/** GET /group/{name}/reports/log: the group's moderation actions (its owner and admins). */
export async function groupLog(ctx: ServiceContext, viewer: Viewer, { nameOrId, query }: GroupPageQuery): Promise<ModerationLogReply> {
  const group = await adminGroup(ctx, viewer, nameOrId);
  const w = window(query);
  return toLog(await repo.logPage(ctx.db, group.id, w), w);
}
