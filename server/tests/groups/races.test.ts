import { describe, expect, it } from 'vitest';
import { addMember, call, createGroup, createPost, createUser, type TestUser } from '../helpers/fixtures';
import { TEST_DB, useTestApp } from '../helpers/test-app';
import { expectCountsConsistent, expectError, groupState } from './helpers';

/**
 * A ban racing a join or an accept of the same user. Every change of a group's membership,
 * requests and bans takes the group's lock before it reads what it decides on, so whatever the
 * interleaving a ban ends the membership: nobody is both member and banned, the counters match the
 * rows, and a banned user reads no private post. The races matter on PostgreSQL (many connections);
 * on SQLite the same checks run on serialised writers.
 */

const t = useTestApp();

const ROUNDS = 4;
const USERS_PER_ROUND = 8;

async function expectBanWon(group: { id: string }, users: TestUser[]): Promise<void> {
  const state = await groupState(t.app, group.id);
  const members = new Set(state.members.map((m) => m.user_id));
  const banned = new Set(state.bans.map((b) => b.user_id));
  const requested = new Set(state.requests.map((r) => r.user_id));
  const both = users.filter((u) => members.has(u.id) && banned.has(u.id)).map((u) => u.username);
  expect(both).toEqual([]);
  // Every ban went through (a ban of a non-member is allowed), so none of them is left a member.
  expect(users.filter((u) => !banned.has(u.id) || members.has(u.id) || requested.has(u.id))).toEqual([]);
  await expectCountsConsistent(t.app, group.id);
}

describe('ban racing join and accept', () => {
  it('public group: ban vs join, many rounds', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const owner = await createUser(t.app);
      const group = await createGroup(t.app, owner);
      const users = await Promise.all(Array.from({ length: USERS_PER_ROUND }, () => createUser(t.app)));
      await Promise.all(
        users.flatMap((user) => [
          call(t.app, user, { method: 'PUT', url: `/api/group/${group.name}/join` }),
          call(t.app, owner, { method: 'PUT', url: `/api/group/${group.name}/ban/${user.id}` }),
        ]),
      );
      await expectBanWon(group, users);
    }
  });

  it('private group: ban vs accept, many rounds; the banned read no private post', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const owner = await createUser(t.app);
      const admin = await createUser(t.app);
      const group = await createGroup(t.app, owner, { isPrivate: true });
      await addMember(t.app, group.id, admin, 'admin');
      const post = await createPost(t.app, owner, { text: 'zqracesecret', groupIds: [group.id] });
      const users = await Promise.all(Array.from({ length: USERS_PER_ROUND }, () => createUser(t.app)));
      for (const user of users) {
        const res = await call(t.app, user, { method: 'POST', url: `/api/group/${group.name}/request` });
        expect(res.statusCode).toBe(200);
      }
      await Promise.all(
        users.flatMap((user) => [
          call(t.app, admin, { method: 'POST', url: `/api/group/${group.name}/accept/${user.id}` }),
          call(t.app, owner, { method: 'PUT', url: `/api/group/${group.name}/ban/${user.id}` }),
        ]),
      );
      await expectBanWon(group, users);
      for (const user of users) {
        const res = await call(t.app, user, { method: 'GET', url: `/api/post/${post.id}` });
        expect(res.statusCode).toBe(404);
      }
    }
  });

  it('a post waits for a ban being committed and is then refused', async () => {
    const owner = await createUser(t.app);
    const member = await createUser(t.app);
    const group = await createGroup(t.app, owner);
    await addMember(t.app, group.id, member);
    let posting: Promise<{ statusCode: number; json(): unknown }> | undefined;
    // The ban's transaction as the service runs it: the group's row locked, then the rows changed.
    // The post is sent while it is open; it must not decide on the membership the ban is removing.
    await t.app.db.transaction().execute(async (trx) => {
      await trx.selectFrom('groups').select('id').where('id', '=', group.id).$if(TEST_DB === 'postgres', (q) => q.forUpdate()).execute();
      await trx.deleteFrom('group_members').where('group_id', '=', group.id).where('user_id', '=', member.id).execute();
      await trx.insertInto('group_bans').values({ group_id: group.id, user_id: member.id, created_at: Date.now() }).execute();
      posting = call(t.app, member, { method: 'POST', url: '/api/post', payload: { text: 'slipping in', groups: [group.id] } });
      await new Promise((resolve) => setTimeout(resolve, 150));
    });
    const res = await posting!;
    expectError(res, 403, 'banned');
  });
});
