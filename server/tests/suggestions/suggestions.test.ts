import { beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '#core/limits';
import { addMember, call, createFollow, createGroup, createPost, createUser, type TestUser } from '../helpers/fixtures';
import { expectError, groupPicture, userPicture } from '../helpers/expect';
import { useTestApp } from '../helpers/test-app';

const HOUR = 60 * 60 * 1000;

describe('accounts suggested to follow', () => {
  const t = useTestApp();
  const scene = {} as Record<'viewer' | 'star' | 'active' | 'quiet' | 'followed' | 'blocker' | 'blocked' | 'muted' | 'suspended' | 'unverified', TestUser>;
  const fans: TestUser[] = [];

  beforeAll(async () => {
    const { app } = t;
    for (let i = 0; i < 4; i++) fans.push(await createUser(app));
    for (const name of ['viewer', 'star', 'active', 'quiet', 'followed', 'blocker', 'blocked', 'muted', 'suspended'] as const) {
      scene[name] = await createUser(app);
    }
    scene.unverified = await createUser(app, { verified: false });
    // Every account the viewer must not be offered has more followers than any it may be, so a
    // missing exclusion would put it first.
    for (const name of ['viewer', 'followed', 'blocker', 'blocked', 'muted', 'suspended', 'unverified'] as const) {
      for (const fan of fans) await createFollow(app, fan, scene[name]);
    }
    for (const fan of fans.slice(0, 3)) await createFollow(app, fan, scene.star);
    // Equal followers: the one who posted last comes first.
    await createFollow(app, fans[0]!, scene.active);
    await createFollow(app, fans[0]!, scene.quiet);
    await createPost(app, scene.quiet, { createdAt: Date.now() - 48 * HOUR });
    await createPost(app, scene.active, { createdAt: Date.now() - HOUR });

    const now = Date.now();
    await createFollow(app, scene.viewer, scene.followed);
    await app.db.insertInto('user_blocks').values({ blocker_id: scene.blocker.id, blocked_id: scene.viewer.id, created_at: now }).execute();
    await app.db.insertInto('user_blocks').values({ blocker_id: scene.viewer.id, blocked_id: scene.blocked.id, created_at: now }).execute();
    await app.db.insertInto('user_mutes').values({ muter_id: scene.viewer.id, muted_id: scene.muted.id, created_at: now }).execute();
    await app.db.updateTable('users').set({ suspended_at: now }).where('id', '=', scene.suspended.id).execute();
  });

  const suggested = async (user: TestUser) => {
    const res = await call(t.app, user, { method: 'GET', url: '/api/suggestions/users' });
    expect(res.statusCode).toBe(200);
    return (res.json() as { users: { _id: string; username: string; followers: number }[] }).users;
  };

  it('needs a signed-in caller', async () => {
    expectError(await call(t.app, null, { method: 'GET', url: '/api/suggestions/users' }), 401, 'no_token');
  });

  it('offers the most followed first, then the most recently active, a few at most', async () => {
    const users = await suggested(scene.viewer);
    expect(users).toHaveLength(LIMITS.followSuggestions);
    expect(users.slice(0, 3)).toEqual([
      { ...userPicture(scene.star.id), username: scene.star.username, followers: 3 },
      { ...userPicture(scene.active.id), username: scene.active.username, followers: 1 },
      { ...userPicture(scene.quiet.id), username: scene.quiet.username, followers: 1 },
    ]);
  });

  it('leaves out the caller, whom they follow, block either way or muted, and suspended or unverified accounts', async () => {
    const ids = (await suggested(scene.viewer)).map((u) => u._id);
    for (const name of ['viewer', 'followed', 'blocker', 'blocked', 'muted', 'suspended', 'unverified'] as const) {
      expect(ids, name).not.toContain(scene[name].id);
    }
  });

  it("leaves out by the caller's own follows and lists, not by anyone else's", async () => {
    const ids = (await suggested(scene.followed)).map((u) => u._id);
    expect(ids).toContain(scene.viewer.id);
    expect(ids).not.toContain(scene.followed.id);
  });
});

describe('groups suggested to join', () => {
  const t = useTestApp();
  let viewer: TestUser;
  const groups = {} as Record<'big' | 'active' | 'quiet' | 'private' | 'requests' | 'joined' | 'bannedFrom', { id: string; name: string }>;

  beforeAll(async () => {
    const { app } = t;
    viewer = await createUser(app);
    const owner = await createUser(app);
    groups.big = await createGroup(app, owner);
    groups.active = await createGroup(app, owner);
    groups.quiet = await createGroup(app, owner);
    groups.private = await createGroup(app, owner, { isPrivate: true });
    groups.requests = await createGroup(app, owner, { requestJoin: true });
    groups.joined = await createGroup(app, owner);
    groups.bannedFrom = await createGroup(app, owner);
    // Every group the viewer must not be offered counts more members than any it may be.
    for (const name of ['private', 'requests', 'joined', 'bannedFrom'] as const) {
      await app.db.updateTable('groups').set({ members: 50 }).where('id', '=', groups[name].id).execute();
    }
    await app.db.updateTable('groups').set({ members: 9 }).where('id', '=', groups.big.id).execute();
    await addMember(app, groups.joined.id, viewer);
    await app.db.insertInto('group_bans').values({ group_id: groups.bannedFrom.id, user_id: viewer.id, created_at: Date.now() }).execute();
    // Equal members: the group posted in last comes first.
    await createPost(app, owner, { groupIds: [groups.quiet.id], createdAt: Date.now() - 48 * HOUR });
    await createPost(app, owner, { groupIds: [groups.active.id], createdAt: Date.now() - HOUR });
  });

  const suggested = async (user: TestUser) => {
    const res = await call(t.app, user, { method: 'GET', url: '/api/suggestions/groups' });
    expect(res.statusCode).toBe(200);
    return (res.json() as { groups: { _id: string; name: string; members: number }[] }).groups;
  };

  it('needs a signed-in caller', async () => {
    expectError(await call(t.app, null, { method: 'GET', url: '/api/suggestions/groups' }), 401, 'no_token');
  });

  it('offers open groups the caller is not in, most members first, then the most recently active', async () => {
    expect(await suggested(viewer)).toEqual([
      { ...groupPicture(groups.big.id), name: groups.big.name, members: 9 },
      { ...groupPicture(groups.active.id), name: groups.active.name, members: 1 },
      { ...groupPicture(groups.quiet.id), name: groups.quiet.name, members: 1 },
    ]);
  });

  it('never offers a private group, not even to someone who could ask to join it', async () => {
    const stranger = await createUser(t.app);
    const ids = (await suggested(stranger)).map((g) => g._id);
    expect(ids).not.toContain(groups.private.id);
    expect(ids).toContain(groups.joined.id);
  });
});
