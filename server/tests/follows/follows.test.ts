import { describe, expect, it } from 'vitest';
import { call, createFollow, createUser, type TestUser, useUsers } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';
import { expectError, expectInfo } from '../helpers/expect';

describe('follows', () => {
  const t = useTestApp();
  const { alice, bob } = useUsers(t, 'alice', 'bob');

  const edge = (follower: TestUser, following: TestUser) =>
    t.app.db
      .selectFrom('follows')
      .selectAll()
      .where('follower_id', '=', follower.id)
      .where('following_id', '=', following.id)
      .executeTakeFirst();
  const followRows = async () => Number((await t.app.db.selectFrom('follows').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  const jobRows = async () => Number((await t.app.db.selectFrom('jobs').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  /** Asserts the refusal and that neither a follow nor an event was stored. */
  async function refused(user: TestUser | null, options: Parameters<typeof call>[2], status: number, key: string) {
    const [follows, jobs] = [await followRows(), await jobRows()];
    const res = await call(t.app, user, options);
    expectError(res, status, key);
    expect(await followRows()).toBe(follows);
    expect(await jobRows()).toBe(jobs);
  }

  it('follows silently and enqueues the follow event in the jobs table', async () => {
    const before = Date.now();
    const res = await call(t.app, alice, { method: 'POST', url: '/api/follow', payload: { following: bob.id } });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ message: 'info/followed', follows: true, notify: false });
    const row = await edge(alice, bob);
    expect(row).toMatchObject({ notify: 0 });
    expect(Number(row!.created_at)).toBeGreaterThanOrEqual(before);
    const jobs = await t.app.db.selectFrom('jobs').selectAll().execute();
    const events = jobs.map((j) => ({ kind: j.kind, payload: JSON.parse(j.payload) }));
    expect(events).toContainEqual({ kind: 'notification_event', payload: { kind: 'follow', actorId: alice.id, userId: bob.id } });
  });

  it('refuses following twice with 409 trying_to_follow and enqueues nothing', async () => {
    await refused(alice, { method: 'POST', url: '/api/follow', payload: { following: bob.id } }, 409, 'trying_to_follow');
  });

  it('refuses following yourself', async () => {
    await refused(alice, { method: 'POST', url: '/api/follow', payload: { following: alice.id } }, 400, 'follow_yourself');
    expect(await edge(alice, alice)).toBeUndefined();
  });

  it('refuses malformed, missing and unknown ids with invalid_following_id', async () => {
    await refused(alice, { method: 'POST', url: '/api/follow', payload: { following: 'nope' } }, 400, 'invalid_following_id');
    await refused(alice, { method: 'POST', url: '/api/follow', payload: {} }, 400, 'invalid_following_id');
    await refused(alice, { method: 'POST', url: '/api/follow', payload: { following: 42 } }, 400, 'invalid_following_id');
    await refused(alice, { method: 'POST', url: '/api/follow', payload: { following: 'a'.repeat(24) } }, 404, 'invalid_following_id');
  });

  it('needs a valid token for every follow call', async () => {
    await refused(null, { method: 'POST', url: '/api/follow', payload: { following: bob.id } }, 401, 'no_token');
    await refused(null, { method: 'POST', url: '/api/follow', payload: { following: 'bad' } }, 401, 'no_token');
    await refused(null, { method: 'PATCH', url: '/api/follow/change', payload: { following: bob.id, notify: true } }, 401, 'no_token');
    await refused(null, { method: 'DELETE', url: '/api/follow/delete', payload: { following: bob.id } }, 401, 'no_token');
    await refused(null, { method: 'POST', url: '/api/follow', headers: { authorization: 'Bearer forged' }, payload: { following: bob.id } }, 401, 'invalid_token');
  });

  it('switches notifications on and off', async () => {
    const on = await call(t.app, alice, { method: 'PATCH', url: '/api/follow/change', payload: { following: bob.id, notify: true } });
    expect(on.statusCode).toBe(200);
    expect(on.json()).toEqual({ follows: true, notify: true });
    expect((await edge(alice, bob))?.notify).toBe(1);
    const profile = await call(t.app, alice, { method: 'GET', url: `/api/profile/user/${bob.username}` });
    expect(profile.json().user).toMatchObject({ follows: true, notify: true });
    const off = await call(t.app, alice, { method: 'PATCH', url: '/api/follow/change', payload: { following: bob.id, notify: false } });
    expect(off.json()).toEqual({ follows: true, notify: false });
    expect((await edge(alice, bob))?.notify).toBe(0);
  });

  it('refuses changing a follow that does not exist', async () => {
    const carol = await createUser(t.app);
    const change = (payload: object) => ({ method: 'PATCH' as const, url: '/api/follow/change', payload });
    await refused(alice, change({ following: carol.id, notify: true }), 400, 'invalid_following_id');
    expect(await edge(alice, carol)).toBeUndefined();
    await refused(alice, change({ following: 'b'.repeat(24), notify: true }), 404, 'invalid_following_id');
    await refused(alice, change({ following: alice.id, notify: true }), 400, 'follow_yourself');
    await refused(alice, change({ following: bob.id }), 400, 'invalid_following_id');
    await refused(alice, change({ following: bob.id, notify: 'maybe' }), 400, 'invalid_following_id');
    expect((await edge(alice, bob))?.notify).toBe(0);
  });

  it('unfollows, and refuses unfollowing someone not followed', async () => {
    const dave = await createUser(t.app);
    await createFollow(t.app, dave, bob, { notify: true });
    const res = await call(t.app, dave, { method: 'DELETE', url: '/api/follow/delete', payload: { following: bob.id } });
    expectInfo(res, 'unfollowed');
    expect(await edge(dave, bob)).toBeUndefined();
    expect(await edge(alice, bob)).toBeDefined();
    const del = (payload: object) => ({ method: 'DELETE' as const, url: '/api/follow/delete', payload });
    await refused(dave, del({ following: bob.id }), 400, 'invalid_following_id');
    await refused(dave, del({ following: 'zz' }), 400, 'invalid_following_id');
    await refused(dave, del({ following: 'c'.repeat(24) }), 404, 'invalid_following_id');
    await refused(dave, del({ following: dave.id }), 400, 'follow_yourself');
  });

  it('allows following again after unfollowing, starting silent', async () => {
    const erin = await createUser(t.app);
    await call(t.app, erin, { method: 'POST', url: '/api/follow', payload: { following: bob.id } });
    await call(t.app, erin, { method: 'PATCH', url: '/api/follow/change', payload: { following: bob.id, notify: true } });
    await call(t.app, erin, { method: 'DELETE', url: '/api/follow/delete', payload: { following: bob.id } });
    const again = await call(t.app, erin, { method: 'POST', url: '/api/follow', payload: { following: bob.id } });
    expect(again.statusCode).toBe(201);
    expect((await edge(erin, bob))?.notify).toBe(0);
  });

  it("lists a follow on both sides, each list saying it is no group's (group null)", async () => {
    const gina = await createUser(t.app);
    const hugo = await createUser(t.app);
    expect((await call(t.app, gina, { method: 'POST', url: '/api/follow', payload: { following: hugo.id } })).statusCode).toBe(201);
    const list = async (user: TestUser, which: 'followers' | 'following') =>
      (await call(t.app, gina, { method: 'GET', url: `/api/profile/user/${user.username}/${which}` })).json();
    const followers = await list(hugo, 'followers');
    expect(followers).toEqual({ userList: [expect.objectContaining({ _id: gina.id, follows: false })], logged: true, hasMore: false, group: null });
    const following = await list(gina, 'following');
    expect(following).toEqual({ userList: [expect.objectContaining({ _id: hugo.id, follows: true, notify: false })], logged: true, hasMore: false, group: null });
  });

  it('stores one follow when the same follow arrives twice at once', async () => {
    const frank = await createUser(t.app);
    const results = await Promise.all(
      [0, 1, 2].map(() => call(t.app, frank, { method: 'POST', url: '/api/follow', payload: { following: bob.id } })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409]);
    const rows = await t.app.db.selectFrom('follows').selectAll().where('follower_id', '=', frank.id).execute();
    expect(rows).toHaveLength(1);
    const events = (await t.app.db.selectFrom('jobs').select('payload').execute()).filter((j) => JSON.parse(j.payload).actorId === frank.id);
    expect(events).toHaveLength(1);
  });
});
