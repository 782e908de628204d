import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';

/** Shared checks of the groups tests. */

export { expectError, expectInfo } from '../helpers/expect';

/** Everything a group call may change, to assert a refused call stored nothing. */
export async function groupState(app: FastifyInstance, groupId: string) {
  const [group, members, bans, requests, tags, jobs] = await Promise.all([
    app.db.selectFrom('groups').selectAll().where('id', '=', groupId).executeTakeFirst(),
    app.db.selectFrom('group_members').select(['user_id', 'role', 'level']).where('group_id', '=', groupId).orderBy('user_id').execute(),
    app.db.selectFrom('group_bans').select('user_id').where('group_id', '=', groupId).orderBy('user_id').execute(),
    app.db.selectFrom('group_requests').select('user_id').where('group_id', '=', groupId).orderBy('user_id').execute(),
    app.db.selectFrom('post_groups').select(['post_id', 'position']).where('group_id', '=', groupId).orderBy('post_id').execute(),
    app.db.selectFrom('jobs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { group, members, bans, requests, tags, jobs: Number(jobs.n) };
}

/** The counters agree with the rows they count. */
export async function expectCountsConsistent(app: FastifyInstance, groupId: string): Promise<{ members: number; bans: number }> {
  const state = await groupState(app, groupId);
  expect(state.group).toBeDefined();
  expect(state.group!.members).toBe(state.members.length);
  expect(state.group!.bans).toBe(state.bans.length);
  return { members: state.group!.members, bans: state.group!.bans };
}

/** Payloads of the notification events enqueued so far, in order. */
export async function enqueuedEvents(app: FastifyInstance): Promise<Record<string, unknown>[]> {
  const rows = await app.db.selectFrom('jobs').select('payload').orderBy('id').execute();
  return rows.map((r) => JSON.parse(r.payload) as Record<string, unknown>);
}
