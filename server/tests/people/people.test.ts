import { beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand } from '../../src/modules/reports/admin';
import { remoteAccountFor } from '../../src/modules/remote/remote-accounts';
import { expectError, expectInfo } from '../helpers/expect';
import { type TestUser, call, createUser } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';

interface Person {
  _id: string;
  username: string;
  email: string | null;
  verified: boolean;
  suspended: boolean;
  moderator: boolean;
}

describe('people: the instance moderators’ list of accounts', () => {
  const t = useTestApp();
  const people = {} as Record<'mod' | 'zora' | 'zoltan' | 'quiet' | 'member', TestUser>;

  const list = (user: TestUser | null, query = '') => call(t.app, user, { method: 'GET', url: `/api/people${query}` });
  const names = async (query: string) => ((await list(people.mod, query)).json().people as Person[]).map((p) => p.username);
  const role = (id: string) => call(t.app, people.mod, { method: 'PUT', url: `/api/people/${id}/moderator` });
  const roleOf = async (id: string) => (await t.app.db.selectFrom('users').select('role').where('id', '=', id).executeTakeFirstOrThrow()).role;
  const logged = () => t.app.db.selectFrom('moderation_actions').select(['action', 'target_id', 'actor_id']).orderBy('created_at').execute();

  beforeAll(async () => {
    const at = Date.now() - 10_000;
    // Made oldest first, so the list (newest first) is the reverse.
    people.mod = await createUser(t.app, { username: 'Mod', createdAt: at });
    people.zora = await createUser(t.app, { username: 'Zora', email: 'zora@mail.example', createdAt: at + 1 });
    people.zoltan = await createUser(t.app, { username: 'Zoltan', email: 'z.k@post.example', createdAt: at + 2 });
    people.quiet = await createUser(t.app, { username: 'Quiet', email: 'quiet@mail.example', verified: false, createdAt: at + 3 });
    people.member = await createUser(t.app, { username: 'Member', createdAt: at + 4 });
    await runAdminCommand(t.app.db, { grant: people.mod.username });
    await remoteAccountFor(
      t.app.db,
      { id: 'https://remote.example/users/zed', inbox: 'https://remote.example/users/zed/inbox', sharedInbox: null, handle: '@zed@remote.example', url: null, bio: '' },
      Date.now(),
    );
  });

  it("lists the instance's own accounts newest first, with the address, standing and role", async () => {
    const res = await list(people.mod);
    expect(res.statusCode).toBe(200);
    const { people: found, hasMore } = res.json() as { people: Person[]; hasMore: boolean };
    expect(found.map((p) => p.username)).toEqual(['Member', 'Quiet', 'Zoltan', 'Zora', 'Mod']);
    expect(hasMore).toBe(false);
    expect(found[1]).toEqual({ _id: people.quiet.id, username: 'Quiet', email: 'quiet@mail.example', verified: false, suspended: false, moderator: false, createdAt: expect.any(Number) });
    expect(found[4]).toMatchObject({ username: 'Mod', moderator: true });
    const paged = (await list(people.mod, '?limit=2&page=2')).json();
    expect(paged.people.map((p: Person) => p.username)).toEqual(['Zoltan', 'Zora']);
    expect(paged.hasMore).toBe(true);
  });

  it('finds accounts by a part of the name (any case, any accents) or of the address', async () => {
    expect(await names('?query=zo')).toEqual(['Zoltan', 'Zora']);
    expect(await names('?query=ZÓL')).toEqual(['Zoltan']);
    expect(await names('?query=mail.example')).toEqual(['Quiet', 'Zora']);
    expect(await names('?query=Z.K%40POST')).toEqual(['Zoltan']);
    expect(await names('?query=%25')).toEqual([]);
    // The remote account is the other server's: not listed, not found.
    expect(await names('?query=zed')).toEqual([]);
  });

  it('filters by standing: active, suspended, unverified, moderator', async () => {
    expectInfo(await call(t.app, people.mod, { method: 'PUT', url: `/api/reports/suspended/${people.zora.id}` }), 'user_suspended');
    expect(await names('?state=suspended')).toEqual(['Zora']);
    expect(await names('?state=unverified')).toEqual(['Quiet']);
    expect(await names('?state=moderator')).toEqual(['Mod']);
    expect(await names('?state=active')).toEqual(['Member', 'Zoltan', 'Mod']);
    expect(await names('?state=active&query=zo')).toEqual(['Zoltan']);
    expectInfo(await call(t.app, people.mod, { method: 'DELETE', url: `/api/reports/suspended/${people.zora.id}` }), 'user_unsuspended');
    expect(await names('?state=suspended')).toEqual([]);
    expectError(await list(people.mod, '?state=banned'), 400, 'invalid_query');
  });

  it('is for instance moderators only', async () => {
    expectError(await list(people.member), 403, 'moderators_only');
    expectError(await list(people.member, '?query=mail.example'), 403, 'moderators_only');
    expectError(await list(null), 401, 'no_token');
  });

  it('grants and revokes the moderator role, logged, and a second call changes nothing', async () => {
    expectInfo(await role(people.member.id), 'moderator_granted');
    expect(await roleOf(people.member.id)).toBe('moderator');
    expectInfo(await role(people.member.id), 'moderator_granted');
    // The new moderator may act at once, and take the role back from the one who gave it.
    expect((await list(people.member)).statusCode).toBe(200);
    expectInfo(await call(t.app, people.member, { method: 'DELETE', url: `/api/people/${people.mod.id}/moderator` }), 'moderator_revoked');
    expect(await roleOf(people.mod.id)).toBe('user');
    expectError(await list(people.mod), 403, 'moderators_only');
    expect((await logged()).filter((row) => row.action.endsWith('_moderator'))).toEqual([
      { action: 'grant_moderator', target_id: people.member.id, actor_id: people.mod.id },
      { action: 'revoke_moderator', target_id: people.mod.id, actor_id: people.member.id },
    ]);
    await runAdminCommand(t.app.db, { grant: people.mod.username });
    await runAdminCommand(t.app.db, { revoke: people.member.username });
  });

  it('lets a moderator give up the role while another remains, never the last one', async () => {
    expectError(await call(t.app, people.mod, { method: 'DELETE', url: `/api/people/${people.mod.id}/moderator` }), 403, 'last_moderator');
    expect(await roleOf(people.mod.id)).toBe('moderator');
    expectInfo(await role(people.zoltan.id), 'moderator_granted');
    expectInfo(await call(t.app, people.zoltan, { method: 'DELETE', url: `/api/people/${people.zoltan.id}/moderator` }), 'moderator_revoked');
    expect(await roleOf(people.zoltan.id)).toBe('user');
  });

  it('refuses the role to an account that is not there, and to anyone but a moderator, changing nothing', async () => {
    expectError(await role('0123456789abcdef01234567'), 404, 'user_not_found');
    const remote = await t.app.db.selectFrom('users').select('id').where('username', '=', 'zed@remote.example').executeTakeFirstOrThrow();
    expectError(await role(remote.id), 404, 'user_not_found');
    expectError(await call(t.app, people.member, { method: 'PUT', url: `/api/people/${people.member.id}/moderator` }), 403, 'moderators_only');
    expectError(await call(t.app, people.member, { method: 'DELETE', url: `/api/people/${people.mod.id}/moderator` }), 403, 'moderators_only');
    expect(await roleOf(people.member.id)).toBe('user');
    expect(await roleOf(people.mod.id)).toBe('moderator');
  });
});
