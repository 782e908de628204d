import { beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '#core/limits';
import { expectError, expectInfo } from '../helpers/expect';
import { call, createGroup, createPost, createUser, deleteOwnAccount, type TestUser, useUsers } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';

describe('reports', () => {
  const t = useTestApp();
  const { alice, bob, carol } = useUsers(t, 'alice', 'bob', 'carol');
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    ids.bobPost = (await createPost(t.app, bob, { text: 'bob writes' })).id;
    ids.alicePost = (await createPost(t.app, alice, { text: 'alice writes' })).id;
    const club = await createGroup(t.app, carol, { isPrivate: true });
    ids.secretPost = (await createPost(t.app, carol, { text: 'members only', groupIds: [club.id] })).id;
    const comment = await call(t.app, bob, { method: 'POST', url: '/api/comment/', payload: { text: 'bob answers', parent: ids.alicePost } });
    expect(comment.statusCode).toBe(201);
    ids.bobComment = comment.json<{ _id: string }>()._id;
  });

  const report = (user: TestUser | null, payload: Record<string, unknown>) => call(t.app, user, { method: 'POST', url: '/api/report', payload });
  const stored = () => t.app.db.selectFrom('reports').selectAll().orderBy('created_at').orderBy('id').execute();

  /** Asserts the refusal and that it stored nothing. */
  async function refused(res: Awaited<ReturnType<typeof report>>, status: number, key: string) {
    const before = (await stored()).length;
    expectError(res, status, key);
    expect((await stored()).length).toBe(before);
  }

  it('takes a report of a post, a comment and a user, each with its reason, trimmed', async () => {
    expectInfo(await report(alice, { kind: 'post', id: ids.bobPost, reason: '  spam, again \n' }), 'report_received');
    expectInfo(await report(alice, { kind: 'comment', id: ids.bobComment, reason: 'rude' }), 'report_received');
    expectInfo(await report(alice, { kind: 'user', id: bob.id, reason: 'a bot' }), 'report_received');
    const rows = (await stored()).filter((r) => r.reporter_id === alice.id);
    // Three reports can share a millisecond, and ids made within one second are in no order: compared as a set.
    expect(rows.map((r) => [r.target_kind, r.target_id, r.reason, r.status])).toHaveLength(3);
    expect(rows.map((r) => [r.target_kind, r.target_id, r.reason, r.status])).toEqual(
      expect.arrayContaining([
        ['post', ids.bobPost, 'spam, again', 'open'],
        ['comment', ids.bobComment, 'rude', 'open'],
        ['user', bob.id, 'a bot', 'open'],
      ]),
    );
  });

  it('takes one report per reporter and target; another person may report it too', async () => {
    await refused(await report(alice, { kind: 'post', id: ids.bobPost, reason: 'still spam' }), 409, 'already_reported');
    expectInfo(await report(carol, { kind: 'post', id: ids.bobPost, reason: 'spam' }), 'report_received');
  });

  it('applies a report resent with its Idempotency-Key once, answering the resend as the first time', async () => {
    const headers = { 'idempotency-key': 'report-once-1' };
    const send = () => call(t.app, bob, { method: 'POST', url: '/api/report', headers, payload: { kind: 'user', id: carol.id, reason: 'resent' } });
    expectInfo(await send(), 'report_received');
    expectInfo(await send(), 'report_received');
    expect((await stored()).filter((r) => r.reporter_id === bob.id && r.target_id === carol.id)).toHaveLength(1);
    const other = await call(t.app, bob, { method: 'POST', url: '/api/report', headers, payload: { kind: 'user', id: carol.id, reason: 'other' } });
    await refused(other, 422, 'idempotency_mismatch');
  });

  it('needs a reason that says something, within its limit', async () => {
    await refused(await report(carol, { kind: 'user', id: bob.id, reason: ' \n ' }), 400, 'report_reason_required');
    await refused(await report(carol, { kind: 'user', id: bob.id, reason: 'x'.repeat(LIMITS.reportReasonMaxLength + 1) }), 400, 'max_report_reason_length');
    expectInfo(await report(carol, { kind: 'user', id: bob.id, reason: 'x'.repeat(LIMITS.reportReasonMaxLength) }), 'report_received');
  });

  it('refuses reporting oneself or what one wrote', async () => {
    await refused(await report(alice, { kind: 'user', id: alice.id, reason: 'me' }), 400, 'report_yourself');
    await refused(await report(alice, { kind: 'post', id: ids.alicePost, reason: 'mine' }), 400, 'report_yourself');
    await refused(await report(bob, { kind: 'comment', id: ids.bobComment, reason: 'mine' }), 400, 'report_yourself');
  });

  it("answers a private group's post to an outsider as if it did not exist", async () => {
    await refused(await report(alice, { kind: 'post', id: ids.secretPost, reason: 'curious' }), 404, 'didnt_find_post');
  });

  it('refuses what does not exist, an unknown kind and a visitor', async () => {
    const missing = '0'.repeat(24);
    await refused(await report(alice, { kind: 'post', id: missing, reason: 'x' }), 404, 'didnt_find_post');
    await refused(await report(alice, { kind: 'comment', id: missing, reason: 'x' }), 404, 'comment_not_found');
    await refused(await report(alice, { kind: 'user', id: missing, reason: 'x' }), 404, 'user_not_found');
    await refused(await report(alice, { kind: 'group', id: ids.bobPost, reason: 'x' }), 400, 'invalid_report');
    await refused(await report(alice, { kind: 'post', id: 'nope', reason: 'x' }), 400, 'invalid_report');
    await refused(await report(null, { kind: 'post', id: ids.bobPost, reason: 'x' }), 401, 'no_token');
  });

  it('goes with the reporter when their account is deleted', async () => {
    expect((await stored()).some((r) => r.reporter_id === carol.id)).toBe(true);
    expectInfo(await deleteOwnAccount(t.app, carol), 'account_deleted');
    expect((await stored()).some((r) => r.reporter_id === carol.id)).toBe(false);
  });
});

describe('reports per hour', () => {
  const t = useTestApp({ RATE_REPORTS_PER_HOUR: '3' });

  it('takes N reports of distinct targets, even sent at once, and refuses the rest with report_limit', async () => {
    const [reporter, other] = [await createUser(t.app), await createUser(t.app)];
    const targets = await Promise.all([1, 2, 3, 4, 5, 6].map(() => createUser(t.app)));
    const answers = await Promise.all(
      targets.map((target) => call(t.app, reporter, { method: 'POST', url: '/api/report', payload: { kind: 'user', id: target.id, reason: 'spam' } })),
    );
    expect(answers.map((res) => res.statusCode).sort()).toEqual([200, 200, 200, 429, 429, 429]);
    for (const res of answers.filter((res) => res.statusCode === 429)) expectError(res, 429, 'report_limit');
    const rows = await t.app.db.selectFrom('reports').select('id').where('reporter_id', '=', reporter.id).execute();
    expect(rows).toHaveLength(3);
    // The limit is the reporter's: someone else may still report.
    expectInfo(await call(t.app, other, { method: 'POST', url: '/api/report', payload: { kind: 'user', id: targets[0]!.id, reason: 'spam' } }), 'report_received');
  });

  it('does not count a report that was refused', async () => {
    const [reporter, target] = [await createUser(t.app), await createUser(t.app)];
    const send = () => call(t.app, reporter, { method: 'POST', url: '/api/report', payload: { kind: 'user', id: target.id, reason: 'spam' } });
    expectInfo(await send(), 'report_received');
    for (let i = 0; i < 3; i++) expectError(await send(), 409, 'already_reported');
    for (const other of [await createUser(t.app), await createUser(t.app)]) {
      expectInfo(await call(t.app, reporter, { method: 'POST', url: '/api/report', payload: { kind: 'user', id: other.id, reason: 'spam' } }), 'report_received');
    }
  });
});
