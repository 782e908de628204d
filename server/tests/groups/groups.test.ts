import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '#core/limits';
import { addMember, call, createGroup, createPost, createUser, type TestUser, createGroupWith } from '../helpers/fixtures';
import { multipartBody } from '../helpers/multipart';
import { useTestApp } from '../helpers/test-app';
import { expectCountsConsistent, expectError, expectInfo, groupState } from './helpers';

const t = useTestApp();

const create = (user: TestUser | null, payload: Record<string, unknown>) => call(t.app, user, { method: 'POST', url: '/api/group', payload });
const groupCount = async () => Number((await t.app.db.selectFrom('groups').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

describe('POST /group', () => {
  it('creates the group with the caller as owner and sole member', async () => {
    const owner = await createUser(t.app);
    const res = await create(owner, { name: '  Hikers ', description: 'Trails', isPrivate: false, requestJoin: true, everyoneCanPost: false });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toEqual({ group: { _id: expect.stringMatching(/^[0-9a-f]{24}$/), name: 'Hikers' }, message: 'info/created_group' });
    const state = await groupState(t.app, body.group._id);
    expect(state.group).toMatchObject({ name: 'Hikers', name_lower: 'hikers', description: 'Trails', owner_id: owner.id, is_private: 0, request_join: 1, everyone_can_post: 0, members: 1, bans: 0 });
    expect(state.members).toEqual([{ user_id: owner.id, role: 'owner', level: 0 }]);
  });

  it('defaults: public, open, everyone can post; a private group admits by request', async () => {
    const owner = await createUser(t.app);
    const open = (await create(owner, { name: 'Defaults grp' })).json();
    expect((await groupState(t.app, open.group._id)).group).toMatchObject({ description: '', is_private: 0, request_join: 0, everyone_can_post: 1 });
    const priv = (await create(owner, { name: 'Private grp', isPrivate: true, requestJoin: false })).json();
    expect((await groupState(t.app, priv.group._id)).group).toMatchObject({ is_private: 1, request_join: 1 });
  });

  it.each([
    [{ name: '' }, 'new_groupname'],
    [{ name: '   ' }, 'new_groupname'],
    [{}, 'new_groupname'],
    [{ name: 'ab' }, 'min_groupname_length'],
    [{ name: 'x'.repeat(LIMITS.groupNameMax + 1) }, 'max_groupname_length'],
    [{ name: 'cats & dogs' }, 'group_and'],
    [{ name: 'fuck club' }, 'groupname_profanity'],
    [{ name: 'Fine name', description: 'd'.repeat(LIMITS.descriptionMaxLength + 1) }, 'max_desc_length'],
    [{ name: 'Fine name', description: 'a\n'.repeat(LIMITS.textMaxLines) }, 'max_desc_lines'],
    [{ name: 'Fine name', isPrivate: 'perhaps' }, 'invalid_group'],
  ])('refuses %j with 400 %s and stores nothing', async (payload, key) => {
    const owner = await createUser(t.app);
    const before = await groupCount();
    expectError(await create(owner, payload), 400, key);
    expect(await groupCount()).toBe(before);
  });

  it('accepts a description of exactly the limit', async () => {
    const owner = await createUser(t.app);
    const res = await create(owner, { name: 'Exact desc', description: 'd'.repeat(LIMITS.descriptionMaxLength) });
    expect(res.statusCode).toBe(201);
  });

  it('replays a retried creation with the same Idempotency-Key', async () => {
    const owner = await createUser(t.app);
    const headers = { 'idempotency-key': 'create-group-retry-1' };
    const first = await call(t.app, owner, { method: 'POST', url: '/api/group', payload: { name: 'Retried grp' }, headers });
    const again = await call(t.app, owner, { method: 'POST', url: '/api/group', payload: { name: 'Retried grp' }, headers });
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    expectError(await create(owner, { name: 'Retried grp' }), 409, 'groupname_taken');
  });

  it('needs a token', async () => {
    expectError(await create(null, { name: 'No token' }), 401, 'no_token');
  });

  it('refuses a taken name whatever its case (409 groupname_taken)', async () => {
    const owner = await createUser(t.app);
    await create(owner, { name: 'Taken Name' });
    const before = await groupCount();
    expectError(await create(owner, { name: 'tAKEN nAME' }), 409, 'groupname_taken');
    expect(await groupCount()).toBe(before);
  });

  it(`allows ${LIMITS.ownedGroups} owned groups, then answers 403 max_groups`, async () => {
    const owner = await createUser(t.app);
    for (let i = 0; i < LIMITS.ownedGroups; i++) expect((await create(owner, { name: `owned ${owner.username} ${i}`.slice(0, 32) + i })).statusCode).toBe(201);
    const before = await groupCount();
    expectError(await create(owner, { name: 'One too many' }), 403, 'max_groups');
    expect(await groupCount()).toBe(before);
  });
});

describe('update', () => {
  it('lets admins update by POST or PATCH; keeps omitted flags', async () => {
    const { owner, group: g, members: [admin] } = await createGroupWith(t.app, ['admin'], { everyoneCanPost: false });
    const res = await call(t.app, admin, { method: 'PATCH', url: `/api/group/${g.id}/update`, payload: { name: 'Renamed grp', description: 'New' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ group: { _id: g.id, name: 'Renamed grp' }, message: 'info/group_updated' });
    expect((await groupState(t.app, g.id)).group).toMatchObject({ name: 'Renamed grp', name_lower: 'renamed grp', description: 'New', everyone_can_post: 0 });
    const res2 = await call(t.app, owner, { method: 'POST', url: `/api/group/${g.id}/update`, payload: { name: 'Renamed grp', everyoneCanPost: true, requestJoin: true } });
    expect(res2.statusCode).toBe(200);
    expect((await groupState(t.app, g.id)).group).toMatchObject({ name: 'Renamed grp', description: 'New', everyone_can_post: 1, request_join: 1 });
  });

  it('refuses members, outsiders, bad rules and taken names, changing nothing', async () => {
    const { owner, group: g, members: [member] } = await createGroupWith(t.app, ['member']);
    const other = await createGroup(t.app, owner, { name: 'Other Taken' });
    const before = await groupState(t.app, g.id);
    const url = `/api/group/${g.id}/update`;
    expectError(await call(t.app, member, { method: 'PATCH', url, payload: { name: 'Nope grp' } }), 403, 'need_admin');
    expectError(await call(t.app, await createUser(t.app), { method: 'POST', url, payload: { name: 'Nope grp' } }), 403, 'need_admin');
    expectError(await call(t.app, null, { method: 'POST', url, payload: { name: 'Nope grp' } }), 401, 'no_token');
    expectError(await call(t.app, owner, { method: 'PATCH', url, payload: { name: 'other taken' } }), 409, 'groupname_taken');
    expectError(await call(t.app, owner, { method: 'PATCH', url, payload: { name: 'a&b group' } }), 400, 'group_and');
    expectError(await call(t.app, owner, { method: 'PATCH', url, payload: { name: 'Okay name', description: 'x'.repeat(101) } }), 400, 'max_desc_length');
    expectError(await call(t.app, owner, { method: 'PATCH', url: '/api/group/nothex/update', payload: { name: 'Okay name' } }), 400, 'invalid_group_id');
    expectError(await call(t.app, owner, { method: 'PATCH', url: `/api/group/${'a'.repeat(24)}/update`, payload: { name: 'Okay name' } }), 404, 'didnt_find_group');
    expect(await groupState(t.app, g.id)).toEqual(before);
    expect(other.name).toBe('Other Taken');
  });

  it('allows keeping its own name in another case', async () => {
    const owner = await createUser(t.app);
    const g = await createGroup(t.app, owner, { name: 'Case Keep' });
    const res = await call(t.app, owner, { method: 'PATCH', url: `/api/group/${g.id}/update`, payload: { name: 'CASE keep' } });
    expect(res.statusCode).toBe(200);
  });
});

describe('GET /group/{name}', () => {
  it('answers the group for a visitor, case-insensitively', async () => {
    const owner = await createUser(t.app);
    const g = await createGroup(t.app, owner, { name: 'Readable' });
    const res = await call(t.app, null, { method: 'GET', url: '/api/group/rEADABLE' });
    expect(res.statusCode).toBe(200);
    expect(res.json().group).toEqual({
      _id: g.id, name: 'Readable', description: '', gp: g.id, gpUrl: `/media/gp/${g.id}.jpeg`, private: false, requestJoin: false, everyoneCanPost: true,
      members: 1, bans: 0, pinnedPost: null, member: false, banned: false, owner: false, admin: false, logged: false,
      canUserPost: false, requested: false, createdAt: expect.any(Number), notification: null,
    });
  });

  it('shows the caller roles and rights', async () => {
    const { owner, group: g, members: [member, admin] } = await createGroupWith(t.app, ['member', 'admin'], { everyoneCanPost: false });
    const get = async (u: TestUser) => (await call(t.app, u, { method: 'GET', url: `/api/group/${g.name}` })).json().group;
    expect(await get(owner)).toMatchObject({ member: true, owner: true, admin: true, canUserPost: true, logged: true, notification: 0, members: 3 });
    expect(await get(admin)).toMatchObject({ member: true, owner: false, admin: true, canUserPost: true });
    expect(await get(member)).toMatchObject({ member: true, owner: false, admin: false, canUserPost: false, notification: 0 });
    const outsider = await createUser(t.app);
    expect(await get(outsider)).toMatchObject({ member: false, canUserPost: false, logged: true, notification: null });
  });

  it('404 didnt_find_group for an unknown name', async () => {
    expectError(await call(t.app, null, { method: 'GET', url: '/api/group/nosuchgroup' }), 404, 'didnt_find_group');
  });

  it('GET /group/{id}/name answers the name', async () => {
    const owner = await createUser(t.app);
    const g = await createGroup(t.app, owner, { name: 'Named one' });
    const res = await call(t.app, null, { method: 'GET', url: `/api/group/${g.id}/name` });
    expect(res.json()).toEqual({ name: 'Named one' });
    expectError(await call(t.app, null, { method: 'GET', url: `/api/group/${'b'.repeat(24)}/name` }), 404, 'didnt_find_group');
    expectError(await call(t.app, null, { method: 'GET', url: '/api/group/zz/name' }), 400, 'invalid_group_id');
  });
});

describe('members and banned lists', () => {
  it('pages members with flags, filters by query', async () => {
    const owner = await createUser(t.app, { username: 'listowner' });
    const g = await createGroup(t.app, owner);
    const admin = await createUser(t.app, { username: 'listadmin' });
    await addMember(t.app, g.id, admin, 'admin');
    for (let i = 0; i < 5; i++) await addMember(t.app, g.id, await createUser(t.app, { username: `listmember${i}` }));
    const page1 = (await call(t.app, null, { method: 'GET', url: `/api/group/${g.name}/members` })).json();
    expect(page1.userList).toHaveLength(5);
    expect(page1.hasMore).toBe(true);
    expect(page1.logged).toBe(false);
    expect(page1.group).toEqual({ _id: g.id, name: g.name, admin: false, owner: false });
    expect(page1.userList[0]).toEqual({ _id: owner.id, pfp: owner.id, pfpUrl: `/media/pfp/${owner.id}.jpeg`, username: 'listowner', admin: true, owner: true, banned: false });
    expect(page1.userList[1]).toMatchObject({ username: 'listadmin', admin: true, owner: false });
    expect(page1.userList[2]).toMatchObject({ admin: false, owner: false, banned: false });
    const page2 = (await call(t.app, owner, { method: 'GET', url: `/api/group/${g.name}/members?page=2` })).json();
    expect(page2.userList).toHaveLength(2);
    expect(page2.hasMore).toBe(false);
    expect(page2.group).toMatchObject({ admin: true, owner: true });
    expect(page2.logged).toBe(true);
    const filtered = (await call(t.app, null, { method: 'GET', url: `/api/group/${g.name}/members?query=member3` })).json();
    expect(filtered.userList.map((u: { username: string }) => u.username)).toEqual(['listmember3']);
  });

  it('lists the owner first, then admins, then members, each by join time (ties by id)', async () => {
    const owner = await createUser(t.app);
    const g = await createGroup(t.app, owner);
    const [admin1, admin2, early, tieA, tieB] = await Promise.all(Array.from({ length: 5 }, () => createUser(t.app)));
    await addMember(t.app, g.id, admin2!, 'admin');
    await addMember(t.app, g.id, admin1!, 'admin');
    for (const user of [early!, tieA!, tieB!]) await addMember(t.app, g.id, user);
    // Members joined before the admins, and everyone before the owner (who took over the group later).
    const base = Date.now() - 100_000;
    const joinedAt = new Map([[early!.id, base], [tieA!.id, base + 10], [tieB!.id, base + 10], [admin1!.id, base + 20], [admin2!.id, base + 30], [owner.id, base + 40]]);
    for (const [userId, at] of joinedAt) {
      await t.app.db.updateTable('group_members').set({ created_at: at }).where('group_id', '=', g.id).where('user_id', '=', userId).execute();
    }
    const ids = async (page: number) =>
      (await call(t.app, null, { method: 'GET', url: `/api/group/${g.name}/members?page=${page}` })).json().userList.map((u: { _id: string }) => u._id);
    const ties = [tieA!.id, tieB!.id].sort();
    expect([...(await ids(1)), ...(await ids(2))]).toEqual([owner.id, admin1!.id, admin2!.id, early!.id, ...ties]);
  });

  it('a `before` snapshot leaves out later members and bans', async () => {
    const owner = await createUser(t.app);
    const g = await createGroup(t.app, owner);
    const snapshot = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const late = await createUser(t.app, { username: 'latejoiner' });
    await addMember(t.app, g.id, late);
    const pinned = (await call(t.app, null, { method: 'GET', url: `/api/group/${g.name}/members?before=${snapshot}` })).json();
    expect(pinned.userList.map((u: { _id: string }) => u._id)).toEqual([owner.id]);
    expect((await call(t.app, null, { method: 'GET', url: `/api/group/${g.name}/members` })).json().userList).toHaveLength(2);
    const banned = await createUser(t.app);
    await call(t.app, owner, { method: 'PUT', url: `/api/group/${g.name}/ban/${banned.id}` });
    const bans = (await call(t.app, owner, { method: 'GET', url: `/api/group/${g.name}/banned?before=${snapshot}` })).json();
    expect(bans.userList).toEqual([]);
    expect((await call(t.app, owner, { method: 'GET', url: `/api/group/${g.name}/banned` })).json().userList).toHaveLength(1);
  });

  it('banned list is for admins; private members list for members', async () => {
    const { owner, group: g, members: [member] } = await createGroupWith(t.app, ['member'], { isPrivate: true });
    const banned = await createUser(t.app);
    expectInfo(await call(t.app, owner, { method: 'PUT', url: `/api/group/${g.name}/ban/${banned.id}` }), 'user_banned');
    expectError(await call(t.app, member, { method: 'GET', url: `/api/group/${g.name}/banned` }), 403, 'need_admin');
    expectError(await call(t.app, null, { method: 'GET', url: `/api/group/${g.name}/banned` }), 403, 'need_admin');
    const list = (await call(t.app, owner, { method: 'GET', url: `/api/group/${g.name}/banned` })).json();
    expect(list.userList).toEqual([{ _id: banned.id, pfp: banned.id, pfpUrl: `/media/pfp/${banned.id}.jpeg`, username: banned.username, admin: false, owner: false, banned: true }]);
    expectError(await call(t.app, null, { method: 'GET', url: `/api/group/${g.name}/members` }), 403, 'not_member');
    expectError(await call(t.app, banned, { method: 'GET', url: `/api/group/${g.name}/members` }), 403, 'not_member');
    expect((await call(t.app, member, { method: 'GET', url: `/api/group/${g.name}/members` })).json().userList).toHaveLength(2);
    expectError(await call(t.app, owner, { method: 'GET', url: '/api/group/unknowngrp/members' }), 404, 'didnt_find_group');
  });
});

describe('PATCH /group/{id}/notification', () => {
  it('sets the member level; refuses non-members and bad levels', async () => {
    const { group: g, members: [member] } = await createGroupWith(t.app, ['member']);
    const url = `/api/group/${g.id}/notification`;
    const res = await call(t.app, member, { method: 'PATCH', url, payload: { notification: 2 } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ notification: 2 });
    expect((await call(t.app, member, { method: 'GET', url: `/api/group/${g.name}` })).json().group.notification).toBe(2);
    const before = await groupState(t.app, g.id);
    expectError(await call(t.app, await createUser(t.app), { method: 'PATCH', url, payload: { notification: 1 } }), 403, 'not_member');
    expectError(await call(t.app, member, { method: 'PATCH', url, payload: { notification: 3 } }), 400, 'invalid_settings');
    expectError(await call(t.app, null, { method: 'PATCH', url, payload: { notification: 1 } }), 401, 'no_token');
    expect(await groupState(t.app, g.id)).toEqual(before);
  });
});

describe('DELETE /group/{id}', () => {
  it('is the owner only', async () => {
    const { owner, group: g, members: [admin] } = await createGroupWith(t.app, ['admin']);
    const before = await groupState(t.app, g.id);
    expectError(await call(t.app, admin, { method: 'DELETE', url: `/api/group/${g.id}` }), 403, 'owner_delete');
    expectError(await call(t.app, null, { method: 'DELETE', url: `/api/group/${g.id}` }), 401, 'no_token');
    expectError(await call(t.app, owner, { method: 'DELETE', url: '/api/group/xyz' }), 400, 'invalid_group_id');
    expect(await groupState(t.app, g.id)).toEqual(before);
  });

  it('cascades members, bans, requests and tags; public posts stay untagged', async () => {
    const { owner, group: g, members: [member] } = await createGroupWith(t.app, ['member'], { requestJoin: true });
    const banned = await createUser(t.app);
    const requester = await createUser(t.app);
    expectInfo(await call(t.app, owner, { method: 'PUT', url: `/api/group/${g.name}/ban/${banned.id}` }), 'user_banned');
    expectInfo(await call(t.app, requester, { method: 'POST', url: `/api/group/${g.name}/request` }), 'request_send');
    const post = await createPost(t.app, member, { groupIds: [g.id] });
    expectInfo(await call(t.app, owner, { method: 'PUT', url: `/api/group/${g.name}/pin/${post.id}` }), 'post_pinned');
    expectInfo(await call(t.app, owner, { method: 'DELETE', url: `/api/group/${g.id}` }), 'group_deleted');
    const state = await groupState(t.app, g.id);
    expect(state).toMatchObject({ group: undefined, members: [], bans: [], requests: [], tags: [] });
    expect(await t.app.db.selectFrom('posts').select('id').where('id', '=', post.id).executeTakeFirst()).toBeDefined();
    expectError(await call(t.app, null, { method: 'GET', url: `/api/group/${g.name}` }), 404, 'didnt_find_group');
    // The name is free again.
    expect((await create(owner, { name: g.name })).statusCode).toBe(201);
  });

  it('deletes the posts of a private group, so they never become public', async () => {
    const owner = await createUser(t.app);
    const g = await createGroup(t.app, owner, { isPrivate: true });
    const post = await createPost(t.app, owner, { groupIds: [g.id] });
    const outside = await createPost(t.app, owner);
    await t.app.db.updateTable('posts').set({ images: 1 }).where('id', '=', post.id).execute();
    await t.app.storage.put(`${post.id}0.webp`, Buffer.from('img'));
    expectInfo(await call(t.app, owner, { method: 'DELETE', url: `/api/group/${g.id}` }), 'group_deleted');
    expect(await t.app.db.selectFrom('posts').select('id').where('id', '=', post.id).executeTakeFirst()).toBeUndefined();
    expect(await t.app.db.selectFrom('posts').select('id').where('id', '=', outside.id).executeTakeFirst()).toBeDefined();
    expect(await t.app.storage.get(`${post.id}0.webp`)).toBeNull();
  });

  it('removes the group avatar', async () => {
    const owner = await createUser(t.app);
    const g = await createGroup(t.app, owner);
    await t.app.storage.put(`gp/${g.id}.jpeg`, Buffer.from('x'));
    expectInfo(await call(t.app, owner, { method: 'DELETE', url: `/api/group/${g.id}` }), 'group_deleted');
    expect(await t.app.storage.get(`gp/${g.id}.jpeg`)).toBeNull();
  });
});

const multipart = (field: string, data: Buffer) => multipartBody({}, [{ field, filename: 'a.png', contentType: 'image/png', data }]);

describe('POST /upload/gp/{groupId}', () => {
  it('stores the avatar for admins only', async () => {
    const { owner, group: g, members: [member] } = await createGroupWith(t.app, ['member']);
    const png = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#3a6' } }).png().toBuffer();
    const denied = await call(t.app, member, { method: 'POST', url: `/api/upload/gp/${g.id}`, ...multipart('gp', png) });
    expectError(denied, 403, 'need_admin');
    expect(await t.app.storage.get(`gp/${g.id}.jpeg`)).toBeNull();
    expectError(await call(t.app, owner, { method: 'POST', url: '/api/upload/gp/nope', ...multipart('gp', png) }), 400, 'invalid_group_id');
    expectError(await call(t.app, owner, { method: 'POST', url: `/api/upload/gp/${'c'.repeat(24)}`, ...multipart('gp', png) }), 404, 'didnt_find_group');
    expectError(await call(t.app, owner, { method: 'POST', url: `/api/upload/gp/${g.id}`, ...multipart('gp', Buffer.from('not an image')) }), 400, 'only_images');
    const res = await call(t.app, owner, { method: 'POST', url: `/api/upload/gp/${g.id}`, ...multipart('gp', png) });
    expect(res.statusCode).toBe(201);
    expect(res.json().url).toContain(`gp/${g.id}.jpeg`);
    expect(await t.app.storage.get(`gp/${g.id}.jpeg`)).not.toBeNull();
    await expectCountsConsistent(t.app, g.id);
  });
});
