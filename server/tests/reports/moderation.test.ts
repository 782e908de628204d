import { beforeAll, describe, expect, it } from 'vitest';
import { parseAdminArgs, runAdminCommand } from '../../src/modules/reports/admin';
import { hashPassword } from '../../src/lib/passwords';
import { expectError, expectInfo } from '../helpers/expect';
import { addMember, call, createGroup, createPost, type TestUser, useUsers } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';

type Res = Awaited<ReturnType<typeof call>>;

describe('moderation', () => {
  const t = useTestApp();
  const { mod, alice, adam, member, bob, carol, dave, eve } = useUsers(t, 'mod', 'alice', 'adam', 'member', 'bob', 'carol', 'dave', 'eve');
  const ids = {} as Record<'clubPost' | 'clubPost2' | 'clubPost3' | 'loosePost' | 'otherPost' | 'alicePost' | 'comment', string>;
  let club: { id: string; name: string };
  let other: { id: string; name: string };

  const get = (user: TestUser | null, url: string) => call(t.app, user, { method: 'GET', url });
  const post = (user: TestUser | null, url: string, payload: Record<string, unknown>) => call(t.app, user, { method: 'POST', url, payload });
  const report = async (user: TestUser, kind: string, id: string, reason: string) =>
    expectInfo(await post(user, '/api/report', { kind, id, reason }), 'report_received');
  const reportsRows = () => t.app.db.selectFrom('reports').selectAll().orderBy('id').execute();
  const logRows = () => t.app.db.selectFrom('moderation_actions').selectAll().orderBy('created_at').orderBy('id').execute();
  const reportIdOf = async (targetId: string) => (await reportsRows()).find((r) => r.target_id === targetId && r.status === 'open')!.id;
  /** How a group's admins settled reports for the group's queue (the moderators' stay open). */
  const groupSettlement = async (reportId: string) =>
    t.app.db.selectFrom('report_group_settlements').select(['status', 'settled_by']).where('report_id', '=', reportId).executeTakeFirst();

  /** A refusal that left the reports, the log and the content as they were. */
  async function refused(res: Res, status: number, key: string) {
    const before = [await reportsRows(), await logRows(), await t.app.db.selectFrom('posts').select('id').orderBy('id').execute()];
    expectError(res, status, key);
    expect([await reportsRows(), await logRows(), await t.app.db.selectFrom('posts').select('id').orderBy('id').execute()]).toEqual(before);
  }

  beforeAll(async () => {
    expect(await runAdminCommand(t.app.db, { grant: mod.username })).toBe(`${mod.username} is now a moderator.`);
    club = await createGroup(t.app, alice);
    other = await createGroup(t.app, eve);
    await addMember(t.app, club.id, adam, 'admin');
    await addMember(t.app, club.id, member);
    await addMember(t.app, club.id, bob);
    ids.clubPost = (await createPost(t.app, bob, { text: 'spam in the club', groupIds: [club.id] })).id;
    ids.clubPost2 = (await createPost(t.app, bob, { text: 'more club spam', groupIds: [club.id] })).id;
    ids.clubPost3 = (await createPost(t.app, bob, { text: 'third club post', groupIds: [club.id] })).id;
    ids.loosePost = (await createPost(t.app, bob, { text: 'zebraword outside any group' })).id;
    ids.otherPost = (await createPost(t.app, bob, { text: 'spam elsewhere', groupIds: [other.id] })).id;
    ids.alicePost = (await createPost(t.app, alice, { text: 'alice writes' })).id;
    const comment = await post(bob, '/api/comment/', { text: 'zebraword rude reply', parent: ids.alicePost });
    expect(comment.statusCode).toBe(201);
    ids.comment = comment.json<{ _id: string }>()._id;
    await report(carol, 'post', ids.clubPost, 'spam');
    await report(dave, 'post', ids.clubPost, 'ads');
    await report(carol, 'post', ids.clubPost2, 'spam too');
    await report(carol, 'post', ids.clubPost3, 'third');
    await report(carol, 'post', ids.loosePost, 'loose');
    await report(carol, 'post', ids.otherPost, 'elsewhere');
    await report(carol, 'comment', ids.comment, 'rude');
    await report(carol, 'user', bob.id, 'a spammer');
  });

  describe('the admin command', () => {
    it('reads --grant and --revoke with a name, and nothing else', () => {
      expect(parseAdminArgs(['--grant', 'ann'])).toEqual({ grant: 'ann' });
      expect(parseAdminArgs(['--revoke', 'ann'])).toEqual({ revoke: 'ann' });
      expect(parseAdminArgs(['--grant'])).toBeNull();
      expect(parseAdminArgs(['--grant', ''])).toBeNull();
      expect(parseAdminArgs(['--promote', 'ann'])).toBeNull();
      expect(parseAdminArgs(['--grant', 'ann', 'extra'])).toBeNull();
    });

    it('grants and revokes the moderator role by name (any case), which the account tells the app', async () => {
      const role = async () => (await t.app.db.selectFrom('users').select('role').where('id', '=', eve.id).executeTakeFirstOrThrow()).role;
      const account = async () => (await call(t.app, eve, { method: 'POST', url: '/api/account/get' })).json().user.moderator;
      expect(await role()).toBe('user');
      expect(await account()).toBe(false);
      await runAdminCommand(t.app.db, { grant: eve.username.toUpperCase() });
      expect(await role()).toBe('moderator');
      expect(await account()).toBe(true);
      expect(await runAdminCommand(t.app.db, { revoke: eve.username })).toBe(`${eve.username} is no longer a moderator.`);
      expect(await role()).toBe('user');
      await expect(runAdminCommand(t.app.db, { grant: 'nobody_here' })).rejects.toThrow('No user named nobody_here.');
    });
  });

  describe("a group's reports", () => {
    it("lists the open reports of the group's posts to its owner and admins, one item per post", async () => {
      for (const admin of [alice, adam]) {
        const res = await get(admin, `/api/group/${club.name}/reports`);
        expect(res.statusCode).toBe(200);
        const { reports } = res.json();
        expect(reports.map((r: { targetId: string }) => r.targetId).sort()).toEqual([ids.clubPost, ids.clubPost2, ids.clubPost3].sort());
        const first = reports.find((r: { targetId: string }) => r.targetId === ids.clubPost);
        expect(first).toMatchObject({ kind: 'post', text: 'spam in the club', postId: ids.clubPost, reasons: ['spam', 'ads'], reporters: 2, user: { _id: bob.id, username: bob.username, suspended: false } });
      }
      const other = await get(eve, `/api/group/${club.name}/reports?limit=1&page=2`);
      expect(other.statusCode).toBe(403);
      const paged = await get(alice, `/api/group/${club.name}/reports?limit=2&page=2`);
      expect(paged.json().reports).toHaveLength(1);
      expect(paged.json().hasMore).toBe(false);
    });

    it('is for its owner and admins only', async () => {
      expectError(await get(member, `/api/group/${club.name}/reports`), 403, 'need_admin');
      expectError(await get(mod, `/api/group/${club.name}/reports`), 403, 'need_admin');
      expectError(await get(null, `/api/group/${club.name}/reports`), 401, 'no_token');
      expectError(await get(alice, '/api/group/nosuchgroup/reports'), 404, 'didnt_find_group');
      expectError(await get(member, `/api/group/${club.name}/reports/log`), 403, 'need_admin');
    });

    it('refuses acting on another group\'s report, a bad action and a member, changing nothing', async () => {
      const act = (user: TestUser | null, reportId: string, action: unknown) => post(user, `/api/group/${club.name}/reports/${reportId}`, { action });
      await refused(await act(alice, await reportIdOf(ids.otherPost), 'dismiss'), 404, 'report_not_found');
      await refused(await act(alice, await reportIdOf(ids.comment), 'dismiss'), 404, 'report_not_found');
      await refused(await act(alice, await reportIdOf(ids.clubPost), 'delete'), 400, 'invalid_moderation_action');
      await refused(await act(member, await reportIdOf(ids.clubPost), 'remove'), 403, 'need_admin');
      await refused(await act(null, await reportIdOf(ids.clubPost), 'remove'), 401, 'no_token');
      await refused(await act(alice, '0'.repeat(24), 'dismiss'), 404, 'report_not_found');
    });

    it('removes the post from the group, settling its reports, and logs it', async () => {
      const reportId = await reportIdOf(ids.clubPost);
      expectInfo(await post(adam, `/api/group/${club.name}/reports/${reportId}`, { action: 'remove' }), 'post_removed');
      expect(await t.app.db.selectFrom('post_groups').select('group_id').where('post_id', '=', ids.clubPost).execute()).toEqual([]);
      const reportsOfPost = (await reportsRows()).filter((r) => r.target_id === ids.clubPost);
      expect(await Promise.all(reportsOfPost.map(async (r) => Object.values((await groupSettlement(r.id))!)))).toEqual([['resolved', adam.id], ['resolved', adam.id]]);
      expect(reportsOfPost.map((r) => r.status)).toEqual(['open', 'open']);
      expect((await logRows()).at(-1)).toMatchObject({ actor_id: adam.id, group_id: club.id, action: 'remove', target_kind: 'post', target_id: ids.clubPost, report_id: reportId });
      const listed = (await get(alice, `/api/group/${club.name}/reports`)).json().reports.map((r: { targetId: string }) => r.targetId);
      expect(listed).not.toContain(ids.clubPost);
      // A settled report cannot be acted on again.
      await refused(await post(alice, `/api/group/${club.name}/reports/${reportId}`, { action: 'dismiss' }), 404, 'report_not_found');
    });

    it("bans the post's author from the group, and dismisses", async () => {
      const banned = await reportIdOf(ids.clubPost2);
      expectInfo(await post(alice, `/api/group/${club.name}/reports/${banned}`, { action: 'ban' }), 'user_banned');
      expect(await t.app.db.selectFrom('group_bans').select('user_id').where('group_id', '=', club.id).execute()).toEqual([{ user_id: bob.id }]);
      expect((await logRows()).at(-1)).toMatchObject({ actor_id: alice.id, group_id: club.id, action: 'ban', target_kind: 'user', target_id: bob.id });
      const dismissed = await reportIdOf(ids.clubPost3);
      expectInfo(await post(alice, `/api/group/${club.name}/reports/${dismissed}`, { action: 'dismiss' }), 'report_resolved');
      expect((await groupSettlement(dismissed))!.status).toBe('dismissed');
      expect(await t.app.db.selectFrom('posts').select('id').where('id', '=', ids.clubPost3).execute()).toHaveLength(1);
      expect((await get(alice, `/api/group/${club.name}/reports`)).json().reports).toEqual([]);
    });

    it("shows the group's log to its admins: its own actions only", async () => {
      const res = await get(alice, `/api/group/${club.name}/reports/log`);
      expect(res.statusCode).toBe(200);
      expect(res.json().actions.map((a: { action: string; actor: string; group: string }) => [a.action, a.actor, a.group])).toEqual([
        ['dismiss', alice.username, club.name],
        ['ban', alice.username, club.name],
        ['remove', adam.username, club.name],
      ]);
      expect((await get(eve, `/api/group/${other.name}/reports/log`)).json().actions).toEqual([]);
    });
  });

  describe("the instance moderators' reports", () => {
    it('lists every open report to a moderator only', async () => {
      const res = await get(mod, '/api/reports');
      expect(res.statusCode).toBe(200);
      const targets = res.json().reports.map((r: { targetId: string }) => r.targetId).sort();
      // The club's admins settled their group's view of its posts' reports, not the moderators'.
      expect(targets).toEqual([ids.clubPost, ids.clubPost2, ids.clubPost3, ids.loosePost, ids.otherPost, ids.comment, bob.id].sort());
      const comment = res.json().reports.find((r: { kind: string }) => r.kind === 'comment');
      expect(comment).toMatchObject({ text: 'zebraword rude reply', postId: ids.alicePost, reasons: ['rude'], reporters: 1 });
      expectError(await get(alice, '/api/reports'), 403, 'moderators_only');
      expectError(await get(null, '/api/reports'), 401, 'no_token');
      expectError(await get(alice, '/api/reports/log'), 403, 'moderators_only');
    });

    it('refuses acting to anyone but a moderator, and a delete of a user, changing nothing', async () => {
      const reportId = await reportIdOf(ids.loosePost);
      await refused(await post(alice, `/api/reports/${reportId}`, { action: 'delete' }), 403, 'moderators_only');
      await refused(await post(null, `/api/reports/${reportId}`, { action: 'delete' }), 401, 'no_token');
      await refused(await post(mod, `/api/reports/${reportId}`, { action: 'remove' }), 400, 'invalid_moderation_action');
      await refused(await post(mod, `/api/reports/${await reportIdOf(bob.id)}`, { action: 'delete' }), 400, 'invalid_moderation_action');
      await refused(await post(mod, `/api/reports/${'0'.repeat(24)}`, { action: 'dismiss' }), 404, 'report_not_found');
      await refused(await call(t.app, alice, { method: 'PUT', url: `/api/reports/suspended/${bob.id}` }), 403, 'moderators_only');
      await refused(await call(t.app, mod, { method: 'PUT', url: `/api/reports/suspended/${'0'.repeat(24)}` }), 404, 'user_not_found');
      await refused(await call(t.app, mod, { method: 'PUT', url: `/api/reports/suspended/${mod.id}` }), 400, 'invalid_moderation_action');
    });

    it('deletes a reported post and a reported comment, and dismisses, each logged', async () => {
      expectInfo(await post(mod, `/api/reports/${await reportIdOf(ids.loosePost)}`, { action: 'delete' }), 'report_resolved');
      expect(await t.app.db.selectFrom('posts').select('id').where('id', '=', ids.loosePost).execute()).toEqual([]);
      expectInfo(await post(mod, `/api/reports/${await reportIdOf(ids.comment)}`, { action: 'delete' }), 'report_resolved');
      expect(await t.app.db.selectFrom('comments').select('id').where('id', '=', ids.comment).execute()).toEqual([]);
      expectInfo(await post(mod, `/api/reports/${await reportIdOf(ids.otherPost)}`, { action: 'dismiss' }), 'report_resolved');
      expect((await logRows()).slice(-3).map((r) => [r.actor_id, r.group_id, r.action, r.target_kind])).toEqual([
        [mod.id, null, 'delete', 'post'],
        [mod.id, null, 'delete', 'comment'],
        [mod.id, null, 'dismiss', 'post'],
      ]);
      expect((await get(mod, '/api/reports')).json().reports.map((r: { targetId: string }) => r.targetId).sort()).toEqual([ids.clubPost, ids.clubPost2, ids.clubPost3, bob.id].sort());
    });
  });

  describe('two people acting on one report at once', () => {
    /**
     * Two actions sent together: exactly one settles the report, the other finds it settled. On
     * PostgreSQL both read the report as open before either writes; SQLite runs them one by one.
     */
    async function race(first: () => Promise<Res>, second: () => Promise<Res>, done: string) {
      const logged = (await logRows()).length;
      const answers = await Promise.all([first(), second()]);
      expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 404]);
      expect(answers.find((r) => r.statusCode === 200)!.json().message).toBe(`info/${done}`);
      expectError(answers.find((r) => r.statusCode === 404)!, 404, 'report_not_found');
      expect((await logRows()).length).toBe(logged + 1);
    }

    it('settles a group report once: one dismiss wins, and a remove racing a ban applies only one of them', async () => {
      const text = 'two admins see this at once';
      const raced = (await createPost(t.app, member, { text, groupIds: [club.id] })).id;
      await report(carol, 'post', raced, 'twice seen');
      const reportId = await reportIdOf(raced);
      const dismiss = (user: TestUser) => () => post(user, `/api/group/${club.name}/reports/${reportId}`, { action: 'dismiss' });
      await race(dismiss(alice), dismiss(adam), 'report_resolved');

      await report(dave, 'post', raced, 'seen again');
      const second = (await reportsRows()).find((r) => r.target_id === raced && r.reporter_id === dave.id)!.id;
      const answers = await Promise.all([
        post(alice, `/api/group/${club.name}/reports/${second}`, { action: 'remove' }),
        post(adam, `/api/group/${club.name}/reports/${second}`, { action: 'ban' }),
      ]);
      expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 404]);
      const removed = (await t.app.db.selectFrom('post_groups').select('group_id').where('post_id', '=', raced).execute()).length === 0;
      const banned = (await t.app.db.selectFrom('group_bans').select('user_id').where('group_id', '=', club.id).where('user_id', '=', member.id).execute()).length === 1;
      // The winner's change only: the loser's was undone with its refusal.
      expect([removed, banned].filter(Boolean)).toHaveLength(1);
      expect((await groupSettlement(second))!.status).toBe('resolved');
    });

    it("settles a moderator's report once", async () => {
      const raced = (await createPost(t.app, carol, { text: 'two moderators see this at once' })).id;
      await report(eve, 'post', raced, 'twice seen');
      const reportId = await reportIdOf(raced);
      const dismiss = () => post(mod, `/api/reports/${reportId}`, { action: 'dismiss' });
      await race(dismiss, dismiss, 'report_resolved');
    });
  });

  describe('a suspended account', () => {
    const hidden = {} as Record<'post' | 'comment', string>;
    let victim: TestUser & { password: string };
    let friend: TestUser;

    beforeAll(async () => {
      // A user with a password, content everywhere, and a token from before the suspension.
      victim = { ...dave, password: 'secret12' };
      friend = carol;
      await t.app.db.updateTable('users').set({ password_hash: await hashPassword('secret12') }).where('id', '=', dave.id).execute();
      hidden.post = (await createPost(t.app, dave, { text: 'quokkaword by dave' })).id;
      const comment = await post(dave, '/api/comment/', { text: 'quokkaword comment by dave', parent: ids.alicePost });
      expect(comment.statusCode).toBe(201);
      hidden.comment = comment.json<{ _id: string }>()._id;
      await addMember(t.app, other.id, dave);
      // Alice is told of the reply: the item is the suspended author's too.
      const { runDueJobs } = await import('../../src/lib/jobs/worker');
      await runDueJobs(t.app);
    });

    const login = () => t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: victim.username, password: victim.password }, remoteAddress: '10.9.9.9' });
    const seen = async () => ({
      feed: (await get(friend, '/api/feed')).json().posts.some((p: { _id: string }) => p._id === hidden.post),
      post: (await get(friend, `/api/post/${hidden.post}`)).statusCode,
      comments: (await get(friend, `/api/post/${ids.alicePost}/comments`)).json().comments.some((c: { _id: string }) => c._id === hidden.comment),
      comment: (await get(friend, `/api/comment/${hidden.comment}/tree`)).statusCode,
      searchPosts: (await get(friend, '/api/search/for/posts?query=quokkaword')).json().posts.length,
      searchReplies: (await get(friend, '/api/search/for/replies?query=quokkaword')).json().comments.length,
      searchUsers: (await get(null, `/api/search/for/users?query=${victim.username}`)).json().userList.length,
      profile: (await get(null, `/api/profile/user/${victim.username}`)).statusCode,
      profilePosts: (await get(friend, `/api/profile/posts/${victim.username}`)).json().posts.length,
      followers: (await get(friend, `/api/profile/user/${friend.username}/following`)).json().userList.length,
      member: (await get(friend, `/api/group/${other.name}/members`)).json().userList.some((u: { _id: string }) => u._id === victim.id),
      notified: (await get(alice, '/api/notification/')).json().notifications.some((n: { context: { comment: string | null } }) => n.context.comment === hidden.comment),
    });

    it('is seen everywhere before it is suspended', async () => {
      expect((await post(friend, '/api/follow', { following: victim.id })).statusCode).toBe(201);
      expect(await seen()).toMatchObject({ feed: true, post: 200, comments: true, comment: 200, searchPosts: 1, searchReplies: 1, searchUsers: 1, profile: 200, profilePosts: 1, member: true, notified: true });
      expect((await login()).statusCode).toBe(200);
    });

    it('cannot sign in, its sessions end, and what it wrote is hidden from everyone', async () => {
      const following = (await seen()).followers;
      expectInfo(await call(t.app, mod, { method: 'PUT', url: `/api/reports/suspended/${victim.id}` }), 'user_suspended');
      expectError(await login(), 403, 'account_suspended');
      expectError(await call(t.app, victim, { method: 'POST', url: '/api/account/get' }), 401, 'invalid_token');
      expect(await seen()).toEqual({ feed: false, post: 404, comments: false, comment: 404, searchPosts: 0, searchReplies: 0, searchUsers: 0, profile: 404, profilePosts: 0, followers: Math.max(0, following - 1), member: false, notified: false });
      expect((await logRows()).at(-1)).toMatchObject({ actor_id: mod.id, action: 'suspend', target_kind: 'user', target_id: victim.id });
    });

    it('is restored by lifting the suspension: sign-in and content come back, old tokens stay ended', async () => {
      expectInfo(await call(t.app, mod, { method: 'DELETE', url: `/api/reports/suspended/${victim.id}` }), 'user_unsuspended');
      expect((await login()).statusCode).toBe(200);
      expectError(await call(t.app, victim, { method: 'POST', url: '/api/account/get' }), 401, 'invalid_token');
      expect(await seen()).toMatchObject({ feed: true, post: 200, comments: true, comment: 200, searchPosts: 1, searchReplies: 1, searchUsers: 1, profile: 200, profilePosts: 1, member: true, notified: true });
      expect((await logRows()).at(-1)).toMatchObject({ action: 'unsuspend', target_id: victim.id });
    });

    it('can come from a report: the author of the reported thing is suspended and the report settled', async () => {
      const reportId = await reportIdOf(bob.id);
      expectInfo(await post(mod, `/api/reports/${reportId}`, { action: 'suspend' }), 'user_suspended');
      expect((await t.app.db.selectFrom('users').select('suspended_at').where('id', '=', bob.id).executeTakeFirstOrThrow()).suspended_at).toBeTruthy();
      expect((await reportsRows()).find((r) => r.id === reportId)!.status).toBe('resolved');
      const log = (await get(mod, '/api/reports/log')).json().actions;
      expect(log[0]).toMatchObject({ actor: mod.username, action: 'suspend', targetKind: 'user', targetId: bob.id, group: null });
      expect(log.length).toBeGreaterThanOrEqual(8);
    });
  });
});
