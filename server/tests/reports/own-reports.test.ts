import { describe, expect, it } from 'vitest';
import * as groupReportViews from '../../src/db/migrations/20261129_80_group_report_views';
import { newId } from '../../src/lib/ids';
import { runAdminCommand } from '../../src/modules/reports/admin';
import { expectError, expectInfo } from '../helpers/expect';
import { addMember, call, createGroup, createPost, type TestUser, useUsersPerTest } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';

/**
 * A group's owner and admins settle reports for their group's queue only, and nobody settles a
 * report of what they wrote: an author who runs the group cannot clear the reports of their own
 * post, and whatever a group's admins do, the instance moderators still see the report.
 */
describe('who settles a report', () => {
  const t = useTestApp();
  const users = useUsersPerTest(t, 'author', 'coadmin', 'victim', 'mod');

  const get = (user: TestUser, url: string) => call(t.app, user, { method: 'GET', url });
  const post = (user: TestUser, url: string, payload: Record<string, unknown>) => call(t.app, user, { method: 'POST', url, payload });
  const queue = async (user: TestUser, url: string) => (await get(user, url)).json<{ reports: { _id: string; targetId: string }[] }>().reports;
  const modQueue = async () => (await queue(users.mod, '/api/reports')).map((r) => r.targetId);
  const inGroup = async (postId: string) => (await t.app.db.selectFrom('post_groups').select('group_id').where('post_id', '=', postId).execute()).length;

  /** The author's group with a co-admin, a post of the author's in it, and the victim's report of it. */
  async function reportedInOwnGroup() {
    const { author, coadmin, victim, mod } = users;
    await runAdminCommand(t.app.db, { grant: mod.username });
    const group = await createGroup(t.app, author);
    await addMember(t.app, group.id, coadmin, 'admin');
    await addMember(t.app, group.id, victim);
    const postId = (await createPost(t.app, author, { text: 'something the victim reports', groupIds: [group.id] })).id;
    expectInfo(await post(victim, '/api/report', { kind: 'post', id: postId, reason: 'harassment' }), 'report_received');
    const [report] = await queue(coadmin, `/api/group/${group.name}/reports`);
    expect(report?.targetId).toBe(postId);
    return { group, postId, reportId: report!._id };
  }

  it('refuses the author, as the group admin, dismissing or removing the report of their own post', async () => {
    const { author } = users;
    const { group, postId, reportId } = await reportedInOwnGroup();
    for (const action of ['dismiss', 'remove', 'ban']) {
      expectError(await post(author, `/api/group/${group.name}/reports/${reportId}`, { action }), 403, 'own_report');
    }
    expect(await modQueue()).toContain(postId);
    expect(await inGroup(postId)).toBe(1);
    expect(await t.app.db.selectFrom('moderation_actions').select('id').where('actor_id', '=', author.id).execute()).toEqual([]);
  });

  it("settles a co-admin's dismissal for the group's queue only: the moderators still see the report and act on it", async () => {
    const { author, coadmin, mod } = users;
    const { group, postId, reportId } = await reportedInOwnGroup();
    expectInfo(await post(coadmin, `/api/group/${group.name}/reports/${reportId}`, { action: 'dismiss' }), 'report_resolved');
    expect(await queue(author, `/api/group/${group.name}/reports`)).toEqual([]);
    expectError(await post(coadmin, `/api/group/${group.name}/reports/${reportId}`, { action: 'remove' }), 404, 'report_not_found');
    expect(await modQueue()).toContain(postId);
    expectInfo(await post(mod, `/api/reports/${reportId}`, { action: 'delete' }), 'report_resolved');
    expect(await modQueue()).not.toContain(postId);
    expect(await t.app.db.selectFrom('posts').select('id').where('id', '=', postId).execute()).toEqual([]);
  });

  it("leaves the report open for the moderators when a co-admin removes the post from the group, and the group's queue empty when they settle it", async () => {
    const { coadmin, mod } = users;
    const { group, postId, reportId } = await reportedInOwnGroup();
    expectInfo(await post(coadmin, `/api/group/${group.name}/reports/${reportId}`, { action: 'remove' }), 'post_removed');
    expect(await inGroup(postId)).toBe(0);
    expect(await modQueue()).toContain(postId);
    expectInfo(await post(mod, `/api/reports/${reportId}`, { action: 'dismiss' }), 'report_resolved');
    expect(await modQueue()).not.toContain(postId);
  });

  it('refuses a moderator settling a report of their own post, or of themselves', async () => {
    const { victim, mod } = users;
    await runAdminCommand(t.app.db, { grant: mod.username });
    const postId = (await createPost(t.app, mod, { text: 'a moderator writes' })).id;
    expectInfo(await post(victim, '/api/report', { kind: 'post', id: postId, reason: 'rude' }), 'report_received');
    expectInfo(await post(victim, '/api/report', { kind: 'user', id: mod.id, reason: 'rude too' }), 'report_received');
    const reports = (await queue(mod, '/api/reports')).filter((r) => r.targetId === postId || r.targetId === mod.id);
    expect(reports).toHaveLength(2);
    for (const report of reports) expectError(await post(mod, `/api/reports/${report._id}`, { action: 'dismiss' }), 403, 'own_report');
    expectError(await post(mod, `/api/reports/${reports.find((r) => r.targetId === postId)!._id}`, { action: 'delete' }), 403, 'own_report');
    expect(await modQueue()).toEqual(expect.arrayContaining([postId, mod.id]));
  });

  it('opens again for the moderators, on upgrading, the reports a group admin settled for everyone before', async () => {
    const { author, coadmin } = users;
    const { group, postId, reportId } = await reportedInOwnGroup();
    // As the earlier version left a co-admin's dismissal: the report closed for all, and logged.
    await t.app.db.updateTable('reports').set({ status: 'dismissed', resolved_by: coadmin.id, resolved_at: 1_000 }).where('id', '=', reportId).execute();
    await t.app.db
      .insertInto('moderation_actions')
      .values({ id: newId(), actor_id: coadmin.id, group_id: group.id, action: 'dismiss', target_kind: 'post', target_id: postId, report_id: reportId, created_at: 2_000 })
      .execute();
    await groupReportViews.down(t.app.db);
    await groupReportViews.up(t.app.db);
    expect(await t.app.db.selectFrom('reports').select(['status', 'resolved_by']).where('id', '=', reportId).executeTakeFirst()).toEqual({ status: 'open', resolved_by: null });
    const settlement = await t.app.db.selectFrom('report_group_settlements').selectAll().where('report_id', '=', reportId).executeTakeFirst();
    expect(settlement).toEqual({ report_id: reportId, group_id: group.id, status: 'dismissed', settled_by: coadmin.id, settled_at: 1_000 });
    expect(await modQueue()).toContain(postId);
    expect(await queue(author, `/api/group/${group.name}/reports`)).toEqual([]);
  });
});
