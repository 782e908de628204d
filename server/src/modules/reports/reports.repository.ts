import { type ExpressionBuilder, sql } from 'kysely';
import type { ReportKind } from '#core/api/reports';
import { toBool } from '../../db/helpers.js';
import type { Database, Executor } from '../../db/schema.js';
import { newId } from '../../lib/ids.js';
import type { PageWindow } from '../../lib/paging.js';

export interface NewReport {
  reporterId: string;
  kind: ReportKind;
  targetId: string;
  reason: string;
}

/** Stores the report; false when this reporter already reported this target (nothing changes). */
export async function insertReport(db: Executor, report: NewReport): Promise<boolean> {
  const result = await db
    .insertInto('reports')
    .values({
      id: newId(),
      reporter_id: report.reporterId,
      target_kind: report.kind,
      target_id: report.targetId,
      reason: report.reason,
      created_at: Date.now(),
    })
    .onConflict((oc) => oc.columns(['reporter_id', 'target_kind', 'target_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Which open reports a queue lists: all of them, or those of posts in one group. */
export type QueueScope = { kind: 'all' } | { kind: 'group'; groupId: string };

export interface QueueRow {
  id: string;
  target_kind: ReportKind;
  target_id: string;
  reporters: number;
  first_at: number;
}

/** One page (plus one row) of reported targets with open reports, the most recently first reported first. */
export async function openTargetsPage(db: Executor, scope: QueueScope, window: PageWindow): Promise<QueueRow[]> {
  let q = db
    .selectFrom('reports')
    .select((eb) => [
      'reports.target_kind',
      'reports.target_id',
      eb.fn.min('reports.id').as('id'),
      eb.fn.countAll<number>().as('reporters'),
      eb.fn.min('reports.created_at').as('first_at'),
    ])
    .where('reports.status', '=', 'open');
  if (scope.kind === 'group') {
    const { groupId } = scope;
    q = q
      .where('reports.target_kind', '=', 'post')
      .where((eb) => eb.exists(
        eb.selectFrom('post_groups').select(sql<number>`1`.as('one')).whereRef('post_groups.post_id', '=', 'reports.target_id').where('post_groups.group_id', '=', groupId),
      ))
      .where((eb) => eb.not(eb.exists(settledInGroup(eb, groupId))));
  }
  const rows = await q
    .groupBy(['reports.target_kind', 'reports.target_id'])
    .orderBy(sql`min(reports.created_at)`, 'desc')
    .orderBy('reports.target_id', 'desc')
    .limit(window.fetch)
    .offset(window.offset)
    .execute();
  return rows.map((r) => ({ ...r, id: String(r.id), reporters: Number(r.reporters), first_at: Number(r.first_at) }));
}

/** The open reasons of these targets, oldest first. */
export async function openReasons(db: Executor, targetIds: string[]): Promise<{ target_kind: string; target_id: string; reason: string }[]> {
  if (targetIds.length === 0) return [];
  return db
    .selectFrom('reports')
    .select(['target_kind', 'target_id', 'reason'])
    .where('status', '=', 'open')
    .where('target_id', 'in', targetIds)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** An open report by id. */
export function findOpenReport(db: Executor, id: string) {
  return db.selectFrom('reports').select(['id', 'target_kind', 'target_id']).where('id', '=', id).where('status', '=', 'open').executeTakeFirst();
}

/** Settles every open report of the target; answers how many. */
export async function resolveTarget(db: Executor, kind: string, targetId: string, status: 'resolved' | 'dismissed', by: string): Promise<number> {
  const result = await db
    .updateTable('reports')
    .set({ status, resolved_by: by, resolved_at: Date.now() })
    .where('target_kind', '=', kind as ReportKind)
    .where('target_id', '=', targetId)
    .where('status', '=', 'open')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The words and author of reported posts and comments, and reported users, for the queue. */
export async function reportedContent(db: Executor, postIds: string[], commentIds: string[], userIds: string[]) {
  const [posts, commentRows] = await Promise.all([
    postIds.length === 0
      ? []
      : db.selectFrom('posts').select(['id', 'text', 'author_id']).where('id', 'in', postIds).execute(),
    commentIds.length === 0
      ? []
      : db.selectFrom('comments').select(['id', 'text', 'author_id', 'post_id', 'deleted']).where('id', 'in', commentIds).execute(),
  ]);
  const comments = commentRows.map((row) => ({ ...row, deleted: toBool(row.deleted) }));
  const authorIds = [...new Set([...userIds, ...posts.map((p) => p.author_id), ...comments.map((c) => c.author_id)].filter((id): id is string => !!id))];
  const users = authorIds.length === 0
    ? []
    : await db.selectFrom('users').select(['id', 'username', 'suspended_at']).where('id', 'in', authorIds).execute();
  return { posts, comments, users };
}

/** The author of a post or comment (null when gone or the account is deleted). */
export async function authorOf(db: Executor, kind: 'post' | 'comment', id: string): Promise<string | null | undefined> {
  const row = kind === 'post'
    ? await db.selectFrom('posts').select('author_id').where('id', '=', id).executeTakeFirst()
    : await db.selectFrom('comments').select('author_id').where('id', '=', id).where('deleted', '=', 0).executeTakeFirst();
  return row ? row.author_id : undefined;
}

export interface NewAction {
  actorId: string;
  groupId: string | null;
  action: string;
  targetKind: string;
  targetId: string;
  reportId: string | null;
}

/** Writes one entry of the moderation log. */
export async function logAction(db: Executor, entry: NewAction): Promise<void> {
  await db
    .insertInto('moderation_actions')
    .values({
      id: newId(),
      actor_id: entry.actorId,
      group_id: entry.groupId,
      action: entry.action,
      target_kind: entry.targetKind,
      target_id: entry.targetId,
      report_id: entry.reportId,
      created_at: Date.now(),
    })
    .execute();
}

/** One page (plus one row) of the log, newest first: every entry, or one group's. */
export async function logPage(db: Executor, groupId: string | null, window: PageWindow) {
  let q = db
    .selectFrom('moderation_actions as ma')
    .leftJoin('users as actor', 'actor.id', 'ma.actor_id')
    .leftJoin('groups as g', 'g.id', 'ma.group_id')
    .select(['ma.id', 'actor.username as actor', 'ma.action', 'ma.target_kind', 'ma.target_id', 'g.name as group', 'ma.created_at']);
  if (groupId !== null) q = q.where('ma.group_id', '=', groupId);
  const rows = await q.orderBy('ma.created_at', 'desc').orderBy('ma.id', 'desc').limit(window.fetch).offset(window.offset).execute();
  return rows.map((r) => ({ ...r, created_at: Number(r.created_at) }));
}

/** Whether the report is an open one about a post tagged with the group. */
export async function isOpenPostReportInGroup(db: Executor, reportId: string, groupId: string): Promise<boolean> {
  const row = await db
    .selectFrom('reports')
    .innerJoin('post_groups', 'post_groups.post_id', 'reports.target_id')
    .select('reports.id')
    .where('reports.id', '=', reportId)
    .where('reports.status', '=', 'open')
    .where('reports.target_kind', '=', 'post')
    .where('post_groups.group_id', '=', groupId)
    .where((eb) => eb.not(eb.exists(settledInGroup(eb, groupId))))
    .executeTakeFirst();
  return !!row;
}

/** The group's settlement of the report in the outer query, if it has one. */
function settledInGroup(eb: ExpressionBuilder<Database, 'reports'>, groupId: string) {
  return eb
    .selectFrom('report_group_settlements')
    .select(sql<number>`1`.as('one'))
    .whereRef('report_group_settlements.report_id', '=', 'reports.id')
    .where('report_group_settlements.group_id', '=', groupId);
}

/**
 * Settles every open report of the post for the group's queue only, leaving them open for the
 * instance moderators; answers how many. A report the group settled already is left as it was,
 * so of two admins settling at once the second settles none (on PostgreSQL its insert waits for
 * the first to commit).
 */
export async function settleInGroup(db: Executor, postId: string, groupId: string, status: 'resolved' | 'dismissed', by: string): Promise<number> {
  const open = db
    .selectFrom('reports')
    .select((eb) => ['reports.id', eb.val(groupId).as('group_id'), eb.val(status).as('status'), eb.val(by).as('settled_by'), eb.val(Date.now()).as('settled_at')])
    .where('reports.target_kind', '=', 'post')
    .where('reports.target_id', '=', postId)
    .where('reports.status', '=', 'open')
    .where((eb) => eb.not(eb.exists(settledInGroup(eb, groupId))));
  const result = await db
    .insertInto('report_group_settlements')
    .columns(['report_id', 'group_id', 'status', 'settled_by', 'settled_at'])
    .expression(open)
    .onConflict((oc) => oc.columns(['report_id', 'group_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}
