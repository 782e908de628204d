import { beforeEach, describe, expect, it } from 'vitest';
import { call, createGroupWith, createPost, createUser, type TestUser } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';
import { enqueuedEvents, expectCountsConsistent, expectError, expectInfo, groupState } from './helpers';

const t = useTestApp();

interface World {
  owner: TestUser;
  admin: TestUser;
  admin2: TestUser;
  member: TestUser;
  outsider: TestUser;
  group: { id: string; name: string };
}

async function world(options: { isPrivate?: boolean; requestJoin?: boolean } = {}): Promise<World> {
  const { owner, group, members: [admin, admin2, member] } = await createGroupWith(t.app, ['admin', 'admin', 'member'], options);
  const outsider = await createUser(t.app);
  return { owner, admin, admin2, member, outsider, group };
}

/** Runs a refused call and checks status, key and that nothing changed (no rows, no events). */
async function refused(user: TestUser | null, method: 'GET' | 'PUT' | 'POST' | 'PATCH' | 'DELETE', url: string, groupId: string, status: number, key: string) {
  const before = await groupState(t.app, groupId);
  expectError(await call(t.app, user, { method, url }), status, key);
  expect(await groupState(t.app, groupId)).toEqual(before);
}

beforeEach(async () => {
  await t.app.db.deleteFrom('jobs').execute();
});

describe('join and leave', () => {
  it('joins an open public group, counts it and enqueues group_new_member', async () => {
    const w = await world();
    expectInfo(await call(t.app, w.outsider, { method: 'PUT', url: `/api/group/${w.group.name.toUpperCase()}/join` }), 'joined_group');
    expect(await expectCountsConsistent(t.app, w.group.id)).toEqual({ members: 5, bans: 0 });
    expect(await enqueuedEvents(t.app)).toEqual([{ kind: 'group_new_member', groupId: w.group.id, userId: w.outsider.id }]);
    const g = (await call(t.app, w.outsider, { method: 'GET', url: `/api/group/${w.group.name}` })).json().group;
    expect(g).toMatchObject({ member: true, canUserPost: true });
  });

  it('refuses members, banned users, request groups, private groups, visitors, unknown groups', async () => {
    const w = await world();
    const url = `/api/group/${w.group.name}/join`;
    await refused(w.member, 'PUT', url, w.group.id, 409, 'already_member');
    await refused(w.owner, 'PUT', url, w.group.id, 409, 'already_member');
    await refused(null, 'PUT', url, w.group.id, 401, 'no_token');
    expectInfo(await call(t.app, w.owner, { method: 'PUT', url: `/api/group/${w.group.name}/ban/${w.outsider.id}` }), 'user_banned');
    await refused(w.outsider, 'PUT', url, w.group.id, 403, 'banned');
    const r = await world({ requestJoin: true });
    await refused(r.outsider, 'PUT', `/api/group/${r.group.name}/join`, r.group.id, 400, 'need_request');
    const p = await world({ isPrivate: true });
    await refused(p.outsider, 'PUT', `/api/group/${p.group.name}/join`, p.group.id, 400, 'need_request');
    expectError(await call(t.app, w.outsider, { method: 'PUT', url: '/api/group/nosuchgroupx/join' }), 404, 'didnt_find_group');
  });

  it('keeps counts right under concurrent joins, leaves and bans', async () => {
    const w = await world();
    const users = await Promise.all(Array.from({ length: 6 }, () => createUser(t.app)));
    const join = (u: TestUser) => call(t.app, u, { method: 'PUT', url: `/api/group/${w.group.name}/join` });
    const results = await Promise.all([...users.map(join), join(users[0]!), join(users[0]!)]);
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(6);
    expect(await expectCountsConsistent(t.app, w.group.id)).toEqual({ members: 10, bans: 0 });
    await Promise.all([
      call(t.app, users[1]!, { method: 'DELETE', url: `/api/group/${w.group.name}/leave` }),
      call(t.app, w.owner, { method: 'PUT', url: `/api/group/${w.group.name}/ban/${users[1]!.id}` }),
      call(t.app, w.admin, { method: 'PUT', url: `/api/group/${w.group.name}/ban/${users[1]!.id}` }),
      call(t.app, w.owner, { method: 'PUT', url: `/api/group/${w.group.name}/ban/${users[2]!.id}` }),
    ]);
    expect(await expectCountsConsistent(t.app, w.group.id)).toEqual({ members: 8, bans: 2 });
  });

  it('leaves; the owner cannot (owner_delete); non-members get not_member', async () => {
    const w = await world();
    expectInfo(await call(t.app, w.member, { method: 'DELETE', url: `/api/group/${w.group.name}/leave` }), 'you_left');
    expectInfo(await call(t.app, w.admin, { method: 'DELETE', url: `/api/group/${w.group.name}/leave` }), 'you_left');
    expect(await expectCountsConsistent(t.app, w.group.id)).toEqual({ members: 2, bans: 0 });
    const url = `/api/group/${w.group.name}/leave`;
    await refused(w.member, 'DELETE', url, w.group.id, 403, 'not_member');
    await refused(w.owner, 'DELETE', url, w.group.id, 403, 'owner_delete');
    await refused(null, 'DELETE', url, w.group.id, 401, 'no_token');
  });
});

describe('join requests', () => {
  it('requests, then an admin accepts: member, counted, events', async () => {
    const w = await world({ requestJoin: true });
    expectInfo(await call(t.app, w.outsider, { method: 'POST', url: `/api/group/${w.group.name}/request` }), 'request_send');
    expect((await call(t.app, w.outsider, { method: 'GET', url: `/api/group/${w.group.name}` })).json().group.requested).toBe(true);
    expect(await enqueuedEvents(t.app)).toEqual([{ kind: 'group_join_request', groupId: w.group.id, actorId: w.outsider.id }]);
    await refused(w.outsider, 'POST', `/api/group/${w.group.name}/request`, w.group.id, 409, 'already_requested');
    expectInfo(await call(t.app, w.admin, { method: 'POST', url: `/api/group/${w.group.name}/accept/${w.outsider.id}` }), 'request_accepted');
    const state = await groupState(t.app, w.group.id);
    expect(state.requests).toEqual([]);
    expect(state.members.map((m) => m.user_id)).toContain(w.outsider.id);
    expect(await expectCountsConsistent(t.app, w.group.id)).toEqual({ members: 5, bans: 0 });
    expect((await enqueuedEvents(t.app)).slice(1)).toEqual([
      { kind: 'group_join_accepted', groupId: w.group.id, actorId: w.admin.id, userId: w.outsider.id },
      { kind: 'group_new_member', groupId: w.group.id, userId: w.outsider.id },
    ]);
  });

  it('deny removes the request without membership', async () => {
    const w = await world({ isPrivate: true });
    expectInfo(await call(t.app, w.outsider, { method: 'POST', url: `/api/group/${w.group.name}/request` }), 'request_send');
    expectInfo(await call(t.app, w.owner, { method: 'POST', url: `/api/group/${w.group.name}/deny/${w.outsider.id}` }), 'request_denied');
    const state = await groupState(t.app, w.group.id);
    expect(state.requests).toEqual([]);
    expect(state.members.map((m) => m.user_id)).not.toContain(w.outsider.id);
    expect(await expectCountsConsistent(t.app, w.group.id)).toEqual({ members: 4, bans: 0 });
    expect((await enqueuedEvents(t.app)).at(-1)).toEqual({ kind: 'group_join_denied', groupId: w.group.id, actorId: w.owner.id, userId: w.outsider.id });
  });

  it('refuses requests that make no sense', async () => {
    const open = await world();
    await refused(open.outsider, 'POST', `/api/group/${open.group.name}/request`, open.group.id, 400, 'no_request');
    const w = await world({ requestJoin: true });
    const url = `/api/group/${w.group.name}/request`;
    await refused(w.member, 'POST', url, w.group.id, 409, 'already_member');
    await refused(null, 'POST', url, w.group.id, 401, 'no_token');
    expectInfo(await call(t.app, w.owner, { method: 'PUT', url: `/api/group/${w.group.name}/ban/${w.outsider.id}` }), 'user_banned');
    await refused(w.outsider, 'POST', url, w.group.id, 403, 'banned');
  });

  it('the requester withdraws a pending request, once', async () => {
    const w = await world({ requestJoin: true });
    const url = `/api/group/${w.group.name}/request`;
    expectInfo(await call(t.app, w.outsider, { method: 'POST', url }), 'request_send');
    expectInfo(await call(t.app, w.outsider, { method: 'DELETE', url }), 'request_withdrawn');
    expect((await groupState(t.app, w.group.id)).requests).toEqual([]);
    expect((await call(t.app, w.outsider, { method: 'GET', url: `/api/group/${w.group.name}` })).json().group.requested).toBe(false);
    await refused(w.outsider, 'DELETE', url, w.group.id, 404, 'no_pending_request');
    await refused(w.member, 'DELETE', url, w.group.id, 404, 'no_pending_request');
    await refused(null, 'DELETE', url, w.group.id, 401, 'no_token');
    await refused(w.outsider, 'DELETE', `/api/group/nosuchgroup/request`, w.group.id, 404, 'didnt_find_group');
    // Withdrawn, the request may be sent again.
    expectInfo(await call(t.app, w.outsider, { method: 'POST', url }), 'request_send');
  });

  it('lists pending requests to admins only, oldest first', async () => {
    const w = await world({ requestJoin: true });
    const second = await createUser(t.app);
    const url = `/api/group/${w.group.name}/requests`;
    expectInfo(await call(t.app, w.outsider, { method: 'POST', url: `/api/group/${w.group.name}/request` }), 'request_send');
    expectInfo(await call(t.app, second, { method: 'POST', url: `/api/group/${w.group.name}/request` }), 'request_send');
    const reply = (await call(t.app, w.admin, { method: 'GET', url })).json();
    expect(reply.userList.map((u: { _id: string }) => u._id)).toEqual([w.outsider.id, second.id]);
    expect(reply.group.admin).toBe(true);
    expectError(await call(t.app, w.member, { method: 'GET', url }), 403, 'need_admin');
    expectError(await call(t.app, w.outsider, { method: 'GET', url }), 403, 'need_admin');
    expectInfo(await call(t.app, w.owner, { method: 'POST', url: `/api/group/${w.group.name}/accept/${second.id}` }), 'request_accepted');
    expect((await call(t.app, w.owner, { method: 'GET', url })).json().userList.map((u: { _id: string }) => u._id)).toEqual([w.outsider.id]);
  });

  it('refuses bad accept and deny calls', async () => {
    const w = await world({ requestJoin: true });
    const requester = await createUser(t.app);
    expectInfo(await call(t.app, requester, { method: 'POST', url: `/api/group/${w.group.name}/request` }), 'request_send');
    const base = `/api/group/${w.group.name}`;
    for (const action of ['accept', 'deny']) {
      await refused(w.member, 'POST', `${base}/${action}/${requester.id}`, w.group.id, 403, 'admin_accept');
      await refused(w.outsider, 'POST', `${base}/${action}/${requester.id}`, w.group.id, 403, 'admin_accept');
      await refused(null, 'POST', `${base}/${action}/${requester.id}`, w.group.id, 401, 'no_token');
      await refused(w.admin, 'POST', `${base}/${action}/${w.outsider.id}`, w.group.id, 404, 'hasnt_requested');
      await refused(w.admin, 'POST', `${base}/${action}/${w.member.id}`, w.group.id, 409, 'user_member');
      await refused(w.admin, 'POST', `${base}/${action}/${'d'.repeat(24)}`, w.group.id, 404, 'didnt_find_user');
      await refused(w.admin, 'POST', `${base}/${action}/bad`, w.group.id, 400, 'invalid_id');
    }
    const bannedUser = await createUser(t.app);
    expectInfo(await call(t.app, w.owner, { method: 'PUT', url: `${base}/ban/${bannedUser.id}` }), 'user_banned');
    await refused(w.admin, 'POST', `${base}/accept/${bannedUser.id}`, w.group.id, 409, 'user_banned');
  });
});

describe('admin and deadmin', () => {
  it('admins promote members; the owner demotes admins', async () => {
    const w = await world();
    expectInfo(await call(t.app, w.admin, { method: 'PATCH', url: `/api/group/${w.group.name}/admin/${w.member.id}` }), 'made_admin');
    expect((await call(t.app, w.member, { method: 'GET', url: `/api/group/${w.group.name}` })).json().group.admin).toBe(true);
    expectInfo(await call(t.app, w.owner, { method: 'PATCH', url: `/api/group/${w.group.name}/deadmin/${w.member.id}` }), 'revoked_admin');
    expect((await call(t.app, w.member, { method: 'GET', url: `/api/group/${w.group.name}` })).json().group.admin).toBe(false);
    expect(await enqueuedEvents(t.app)).toEqual([
      { kind: 'group_made_admin', groupId: w.group.id, actorId: w.admin.id, userId: w.member.id },
      { kind: 'group_revoked_admin', groupId: w.group.id, actorId: w.owner.id, userId: w.member.id },
    ]);
  });

  it('refuses every wrong promotion or demotion', async () => {
    const w = await world();
    const base = `/api/group/${w.group.name}`;
    await refused(w.member, 'PATCH', `${base}/admin/${w.outsider.id}`, w.group.id, 403, 'need_admin');
    await refused(null, 'PATCH', `${base}/admin/${w.member.id}`, w.group.id, 401, 'no_token');
    await refused(w.admin, 'PATCH', `${base}/admin/${w.outsider.id}`, w.group.id, 404, 'isnt_member');
    await refused(w.admin, 'PATCH', `${base}/admin/${w.admin2.id}`, w.group.id, 409, 'already_admin');
    await refused(w.admin, 'PATCH', `${base}/admin/${w.owner.id}`, w.group.id, 409, 'already_admin');
    await refused(w.admin, 'PATCH', `${base}/deadmin/${w.member.id}`, w.group.id, 409, 'isnt_admin');
    await refused(w.admin, 'PATCH', `${base}/deadmin/${w.outsider.id}`, w.group.id, 404, 'isnt_member');
    await refused(w.admin, 'PATCH', `${base}/deadmin/${w.admin2.id}`, w.group.id, 403, 'admin_admin');
    await refused(w.admin, 'PATCH', `${base}/deadmin/${w.owner.id}`, w.group.id, 403, 'admin_admin');
    await refused(w.owner, 'PATCH', `${base}/deadmin/${w.owner.id}`, w.group.id, 403, 'admin_admin');
    await refused(w.admin, 'PATCH', `${base}/admin/${'e'.repeat(24)}`, w.group.id, 404, 'didnt_find_user');
    expectInfo(await call(t.app, w.owner, { method: 'PUT', url: `${base}/ban/${w.outsider.id}` }), 'user_banned');
    await refused(w.admin, 'PATCH', `${base}/admin/${w.outsider.id}`, w.group.id, 409, 'admin_banned');
  });
});

describe('ban and unban', () => {
  it('ban ends membership and request, counts; unban lifts it', async () => {
    const w = await world({ requestJoin: true });
    const base = `/api/group/${w.group.name}`;
    const requester = await createUser(t.app);
    expectInfo(await call(t.app, requester, { method: 'POST', url: `${base}/request` }), 'request_send');
    expectInfo(await call(t.app, w.admin, { method: 'PUT', url: `${base}/ban/${w.member.id}` }), 'user_banned');
    expectInfo(await call(t.app, w.admin, { method: 'PUT', url: `${base}/ban/${requester.id}` }), 'user_banned');
    let state = await groupState(t.app, w.group.id);
    expect(state.requests).toEqual([]);
    expect(state.members.map((m) => m.user_id)).not.toContain(w.member.id);
    expect(await expectCountsConsistent(t.app, w.group.id)).toEqual({ members: 3, bans: 2 });
    const view = (await call(t.app, w.member, { method: 'GET', url: `${base}` })).json().group;
    expect(view).toMatchObject({ member: false, banned: true, canUserPost: false, bans: 2 });
    expectInfo(await call(t.app, w.admin, { method: 'PUT', url: `${base}/unban/${w.member.id}` }), 'user_unbanned');
    state = await groupState(t.app, w.group.id);
    expect(state.bans.map((b) => b.user_id)).toEqual([requester.id]);
    expect(await expectCountsConsistent(t.app, w.group.id)).toEqual({ members: 3, bans: 1 });
    // Unbanned is not re-admitted: membership was ended by the ban.
    expect((await call(t.app, w.member, { method: 'GET', url: base })).json().group.member).toBe(false);
  });

  it('the owner may ban an admin', async () => {
    const w = await world();
    expectInfo(await call(t.app, w.owner, { method: 'PUT', url: `/api/group/${w.group.name}/ban/${w.admin.id}` }), 'user_banned');
    expect(await expectCountsConsistent(t.app, w.group.id)).toEqual({ members: 3, bans: 1 });
  });

  it('refuses every wrong ban or unban', async () => {
    const w = await world();
    const base = `/api/group/${w.group.name}`;
    await refused(w.member, 'PUT', `${base}/ban/${w.outsider.id}`, w.group.id, 403, 'admin_ban');
    await refused(w.outsider, 'PUT', `${base}/unban/${w.outsider.id}`, w.group.id, 403, 'admin_ban');
    await refused(null, 'PUT', `${base}/ban/${w.outsider.id}`, w.group.id, 401, 'no_token');
    await refused(w.admin, 'PUT', `${base}/ban/${w.owner.id}`, w.group.id, 403, 'ban_owner');
    await refused(w.owner, 'PUT', `${base}/ban/${w.owner.id}`, w.group.id, 403, 'ban_owner');
    await refused(w.admin, 'PUT', `${base}/ban/${w.admin2.id}`, w.group.id, 403, 'admin_admin');
    await refused(w.admin, 'PUT', `${base}/ban/${'f'.repeat(24)}`, w.group.id, 404, 'didnt_find_user');
    await refused(w.admin, 'PUT', `${base}/ban/zzz`, w.group.id, 400, 'invalid_id');
    await refused(w.admin, 'PUT', `${base}/unban/${w.member.id}`, w.group.id, 409, 'not_banned');
    expectInfo(await call(t.app, w.admin, { method: 'PUT', url: `${base}/ban/${w.member.id}` }), 'user_banned');
    await refused(w.admin, 'PUT', `${base}/ban/${w.member.id}`, w.group.id, 409, 'already_banned');
    expectError(await call(t.app, w.admin, { method: 'PUT', url: `/api/group/nosuchgrp9/ban/${w.member.id}` }), 404, 'didnt_find_group');
  });
});

describe('pin, unpin and remove a post', () => {
  it('pins one post at a time, unpins, and answers the pinned post', async () => {
    const w = await world();
    const base = `/api/group/${w.group.name}`;
    const first = await createPost(t.app, w.member, { groupIds: [w.group.id], text: 'first pinned' });
    const second = await createPost(t.app, w.member, { groupIds: [w.group.id], text: 'second pinned' });
    expectError(await call(t.app, null, { method: 'GET', url: `${base}/pinned` }), 404, 'no_pinned');
    expectInfo(await call(t.app, w.admin, { method: 'PUT', url: `${base}/pin/${first.id}` }), 'post_pinned');
    expectInfo(await call(t.app, w.admin, { method: 'PUT', url: `${base}/pin/${second.id}` }), 'post_pinned');
    expect((await groupState(t.app, w.group.id)).group?.pinned_post_id).toBe(second.id);
    expect((await call(t.app, null, { method: 'GET', url: base })).json().group.pinnedPost).toBe(second.id);
    const pinned = await call(t.app, w.member, { method: 'GET', url: `${base}/pinned` });
    expect(pinned.statusCode).toBe(200);
    expect(pinned.json()).toMatchObject({ _id: second.id, text: 'second pinned', pinnedGroups: [0] });
    expectInfo(await call(t.app, w.owner, { method: 'PUT', url: `${base}/unpin` }), 'post_unpinned');
    expect((await groupState(t.app, w.group.id)).group?.pinned_post_id).toBeNull();
    expect((await call(t.app, null, { method: 'GET', url: base })).json().group.pinnedPost).toBeNull();
  });

  it('refuses wrong pins', async () => {
    const w = await world();
    const base = `/api/group/${w.group.name}`;
    const inGroup = await createPost(t.app, w.member, { groupIds: [w.group.id] });
    const elsewhere = await createPost(t.app, w.member);
    await refused(w.member, 'PUT', `${base}/pin/${inGroup.id}`, w.group.id, 403, 'admin_pin');
    await refused(null, 'PUT', `${base}/pin/${inGroup.id}`, w.group.id, 401, 'no_token');
    await refused(w.admin, 'PUT', `${base}/pin/${elsewhere.id}`, w.group.id, 400, 'invalid_post');
    await refused(w.admin, 'PUT', `${base}/pin/nothex`, w.group.id, 400, 'invalid_post');
    await refused(w.admin, 'PUT', `${base}/pin/${'a'.repeat(24)}`, w.group.id, 404, 'didnt_find_post');
    await refused(w.admin, 'PUT', `${base}/unpin`, w.group.id, 404, 'no_pinned');
    expectInfo(await call(t.app, w.admin, { method: 'PUT', url: `${base}/pin/${inGroup.id}` }), 'post_pinned');
    await refused(w.member, 'PUT', `${base}/unpin`, w.group.id, 403, 'admin_pin');
  });

  it('answers didnt_find_pinned when the pinned post is gone', async () => {
    const w = await world();
    const post = await createPost(t.app, w.member, { groupIds: [w.group.id] });
    // A pin left pointing at nothing (e.g. written by an older version).
    await t.app.db.updateTable('groups').set({ pinned_post_id: post.id }).where('id', '=', w.group.id).execute();
    await t.app.db.deleteFrom('post_groups').where('post_id', '=', post.id).execute();
    await t.app.db.deleteFrom('posts').where('id', '=', post.id).execute();
    await t.app.db.updateTable('groups').set({ pinned_post_id: post.id }).where('id', '=', w.group.id).execute();
    expectError(await call(t.app, null, { method: 'GET', url: `/api/group/${w.group.name}/pinned` }), 404, 'didnt_find_pinned');
    expectError(await call(t.app, null, { method: 'GET', url: '/api/group/nosuchgrp7/pinned' }), 404, 'didnt_find_group');
  });

  it('removes a post from the group and drops its pin; the post stays', async () => {
    const w = await world();
    const post = await createPost(t.app, w.member, { groupIds: [w.group.id] });
    expectInfo(await call(t.app, w.admin, { method: 'PUT', url: `/api/group/${w.group.name}/pin/${post.id}` }), 'post_pinned');
    expectInfo(await call(t.app, w.admin, { method: 'DELETE', url: `/api/group/${w.group.id}/p/${post.id}` }), 'post_removed');
    const state = await groupState(t.app, w.group.id);
    expect(state.tags).toEqual([]);
    expect(state.group?.pinned_post_id).toBeNull();
    expect(await t.app.db.selectFrom('posts').select('id').where('id', '=', post.id).executeTakeFirst()).toBeDefined();
  });

  it('in a private group, removing a post deletes it (untagged it would be public), with its images', async () => {
    const w = await world({ isPrivate: true });
    const post = await createPost(t.app, w.member, { groupIds: [w.group.id] });
    await t.app.db.updateTable('posts').set({ images: 1 }).where('id', '=', post.id).execute();
    await t.app.storage.put(`${post.id}0.webp`, Buffer.from('img'));
    expectInfo(await call(t.app, w.admin, { method: 'DELETE', url: `/api/group/${w.group.id}/p/${post.id}` }), 'post_removed');
    expect(await t.app.db.selectFrom('posts').select('id').where('id', '=', post.id).executeTakeFirst()).toBeUndefined();
    expect(await t.app.storage.get(`${post.id}0.webp`)).toBeNull();
  });

  it('refuses wrong removals', async () => {
    const w = await world();
    const post = await createPost(t.app, w.member, { groupIds: [w.group.id] });
    const elsewhere = await createPost(t.app, w.member);
    const url = (groupId: string, postId: string) => `/api/group/${groupId}/p/${postId}`;
    await refused(w.member, 'DELETE', url(w.group.id, post.id), w.group.id, 403, 'need_admin');
    await refused(null, 'DELETE', url(w.group.id, post.id), w.group.id, 401, 'no_token');
    await refused(w.admin, 'DELETE', url('nothex', post.id), w.group.id, 400, 'invalid_group_id');
    await refused(w.admin, 'DELETE', url('a'.repeat(24), post.id), w.group.id, 404, 'didnt_find_group');
    await refused(w.admin, 'DELETE', url(w.group.id, elsewhere.id), w.group.id, 404, 'didnt_find_post');
    await refused(w.admin, 'DELETE', url(w.group.id, 'zz'), w.group.id, 400, 'invalid_post');
  });
});

describe('posting rights (canPostIn)', () => {
  it('banned users and non-members cannot post; everyoneCanPost=false leaves it to admins', async () => {
    const w = await world();
    const view = async (u: TestUser) => (await call(t.app, u, { method: 'GET', url: `/api/group/${w.group.name}` })).json().group.canUserPost;
    expect(await view(w.member)).toBe(true);
    expect(await view(w.outsider)).toBe(false);
    const updated = await call(t.app, w.owner, { method: 'PATCH', url: `/api/group/${w.group.id}/update`, payload: { name: w.group.name, everyoneCanPost: false } });
    expect(updated.json().message).toBe('info/group_updated');
    expect(await view(w.member)).toBe(false);
    expect(await view(w.admin)).toBe(true);
    expectInfo(await call(t.app, w.owner, { method: 'PUT', url: `/api/group/${w.group.name}/ban/${w.admin.id}` }), 'user_banned');
    expect(await view(w.admin)).toBe(false);
  });
});
