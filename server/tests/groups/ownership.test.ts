import sharp from 'sharp';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { runDueJobs } from '../../src/lib/jobs/worker';
import { imageKey } from '../../src/policy/media-urls';
import { addMember, call, createGroup, createGroupWith, createUser, deleteOwnAccount, type TestUser } from '../helpers/fixtures';
import { multipartBody } from '../helpers/multipart';
import { useTestApp } from '../helpers/test-app';
import { enqueuedEvents, expectCountsConsistent, expectError, expectInfo, groupState } from './helpers';

/**
 * Ownership: the owner hands the group over (PATCH /group/{name}/owner/{pfp}), and an owner who
 * deletes their account leaves the group to a successor, or, with nobody left, deletes it with its
 * private posts. Either way nothing written for the members becomes readable by anyone else.
 */

const t = useTestApp();

function ok<T extends { statusCode: number; body: string }>(res: T, what: string): T {
  if (res.statusCode >= 300) throw new Error(`${what}: ${res.statusCode} ${res.body}`);
  return res;
}

/** Joined `ms` ago: membership age decides the successor. */
async function joinedAgo(app: FastifyInstance, groupId: string, user: TestUser, role: 'member' | 'admin', ms: number) {
  await addMember(app, groupId, user, role);
  await app.db.updateTable('group_members').set({ created_at: Date.now() - ms }).where('group_id', '=', groupId).where('user_id', '=', user.id).execute();
}

interface PrivateContent {
  secret: string;
  postIds: string[];
  commentId: string;
  imageKeys: string[];
}

/**
 * Writes into the private group through the API: a post by `author` with a hashtag and an image, a
 * comment on it by `commenter`, and a post by `commenter` (so their profile lists one).
 */
async function writePrivateContent(group: { id: string }, author: TestUser, commenter: TestUser, secret: string): Promise<PrivateContent> {
  const post = ok(await call(t.app, author, { method: 'POST', url: '/api/post', payload: { text: `${secret} words #${secret}tag`, groups: [group.id] } }), 'post').json();
  const png = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#3a3' } }).png().toBuffer();
  const form = multipartBody({ id: post._id, index: '0' }, [{ field: 'image', filename: 'a.png', contentType: 'image/png', data: png }]);
  ok(await call(t.app, author, { method: 'POST', url: '/api/upload/image', ...form }), 'upload');
  const comment = ok(await call(t.app, commenter, { method: 'POST', url: '/api/comment/', payload: { text: `${secret} comment`, parent: post._id } }), 'comment').json();
  const second = ok(await call(t.app, commenter, { method: 'POST', url: '/api/post', payload: { text: `${secret} second`, groups: [group.id] } }), 'post 2').json();
  expect(await t.app.storage.get(imageKey(post._id, 0))).not.toBeNull();
  return { secret, postIds: [post._id, second._id], commentId: comment._id, imageKeys: [imageKey(post._id, 0)] };
}

/** Every read an outsider could use to reach the content; none may show any of it. */
async function leaksTo(viewer: TestUser | null, content: PrivateContent, groupName: string, profileOf: TestUser): Promise<string[]> {
  const { secret, postIds, commentId } = content;
  const urls = [
    '/api/feed',
    '/api/feed?sort=popular&time=all',
    '/api/feed/groups',
    `/api/feed/hash/${secret}tag`,
    `/api/group/${encodeURIComponent(groupName)}/posts`,
    `/api/profile/posts/${profileOf.username}?time=all`,
    `/api/search/for/posts?query=${secret}&time=all`,
    `/api/search/for/replies?query=${secret}&time=all`,
    ...postIds.flatMap((id) => [`/api/post/${id}`, `/api/post/${id}/comments`]),
    `/api/comment/${commentId}/tree`,
    ...content.imageKeys.map((key) => `/media/${key}`),
  ];
  const leaks: string[] = [];
  for (const url of urls) {
    const res = await call(t.app, viewer, { method: 'GET', url });
    if (url.startsWith('/media/')) {
      if (res.statusCode === 200) leaks.push(`${url} serves the image`);
      continue;
    }
    for (const word of [secret, ...postIds, commentId]) if (res.body.includes(word)) leaks.push(`${url} shows ${word}`);
  }
  return leaks;
}

describe('PATCH /group/{name}/owner/{pfp}', () => {
  it('hands the group to a member; the old owner stays admin; the new owner is notified', async () => {
    const { owner, group, members: [member] } = await createGroupWith(t.app, ['member']);
    await t.app.db.deleteFrom('jobs').execute();
    expectInfo(await call(t.app, owner, { method: 'PATCH', url: `/api/group/${group.name}/owner/${member.id}` }), 'owner_transferred');
    const state = await groupState(t.app, group.id);
    expect(state.group?.owner_id).toBe(member.id);
    expect(state.members.map((m) => [m.user_id, m.role]).sort()).toEqual([[owner.id, 'admin'], [member.id, 'owner']].sort());
    expect(await expectCountsConsistent(t.app, group.id)).toEqual({ members: 2, bans: 0 });
    expect(await enqueuedEvents(t.app)).toEqual([{ kind: 'group_made_owner', groupId: group.id, actorId: owner.id, userId: member.id }]);
    const seen = (await call(t.app, member, { method: 'GET', url: `/api/group/${group.name}` })).json().group;
    expect(seen).toMatchObject({ owner: true, admin: true });

    await runDueJobs(t.app);
    const list = (await call(t.app, member, { method: 'GET', url: '/api/notification/' })).json();
    const made = list.notifications.find((n: { type: string }) => n.type === 'MADE_OWNER');
    expect(made).toMatchObject({ type: 'MADE_OWNER', groupname: group.name, username: owner.username, gp: group.id });

    // The new owner may now do what only the owner may; the old one may not.
    expectError(await call(t.app, owner, { method: 'PATCH', url: `/api/group/${group.name}/owner/${owner.id}` }), 403, 'need_owner');
    expectError(await call(t.app, owner, { method: 'DELETE', url: `/api/group/${group.id}` }), 403, 'owner_delete');
    expectInfo(await call(t.app, member, { method: 'PATCH', url: `/api/group/${group.name}/owner/${owner.id}` }), 'owner_transferred');
  });

  it('refuses non-owners, non-members, banned users and bad targets, changing nothing', async () => {
    const { owner, group, members: [admin, member] } = await createGroupWith(t.app, ['admin', 'member']);
    const outsider = await createUser(t.app);
    const banned = await createUser(t.app);
    expectInfo(await call(t.app, owner, { method: 'PUT', url: `/api/group/${group.name}/ban/${banned.id}` }), 'user_banned');
    await t.app.db.deleteFrom('jobs').execute();
    const before = await groupState(t.app, group.id);
    const url = (pfp: string) => `/api/group/${group.name}/owner/${pfp}`;
    expectError(await call(t.app, admin, { method: 'PATCH', url: url(member.id) }), 403, 'need_owner');
    expectError(await call(t.app, member, { method: 'PATCH', url: url(member.id) }), 403, 'need_owner');
    expectError(await call(t.app, null, { method: 'PATCH', url: url(member.id) }), 401, 'no_token');
    expectError(await call(t.app, owner, { method: 'PATCH', url: url(outsider.id) }), 404, 'isnt_member');
    expectError(await call(t.app, owner, { method: 'PATCH', url: url(banned.id) }), 409, 'admin_banned');
    expectError(await call(t.app, owner, { method: 'PATCH', url: url(owner.id) }), 409, 'already_admin');
    expectError(await call(t.app, owner, { method: 'PATCH', url: url('c'.repeat(24)) }), 404, 'didnt_find_user');
    expectError(await call(t.app, owner, { method: 'PATCH', url: `/api/group/nosuchgroupz/owner/${member.id}` }), 404, 'didnt_find_group');
    expect(await groupState(t.app, group.id)).toEqual(before);
  });
});

describe('an owner deletes their account', () => {
  it('the longest-serving admin takes over; nothing of the private group becomes public', async () => {
    const owner = await createUser(t.app);
    const oldMember = await createUser(t.app);
    const laterAdmin = await createUser(t.app);
    const firstAdmin = await createUser(t.app);
    const outsider = await createUser(t.app);
    const group = await createGroup(t.app, owner, { isPrivate: true });
    await joinedAgo(t.app, group.id, oldMember, 'member', 60_000);
    await joinedAgo(t.app, group.id, firstAdmin, 'admin', 30_000);
    await joinedAgo(t.app, group.id, laterAdmin, 'admin', 10_000);
    const content = await writePrivateContent(group, owner, oldMember, 'zqheirs');
    await t.app.db.deleteFrom('jobs').execute();

    expectInfo(await deleteOwnAccount(t.app, owner), 'account_deleted');

    const state = await groupState(t.app, group.id);
    expect(state.group).toMatchObject({ owner_id: firstAdmin.id, is_private: 1 });
    expect(state.members.find((m) => m.user_id === firstAdmin.id)?.role).toBe('owner');
    expect(state.members.map((m) => m.user_id)).not.toContain(owner.id);
    expect(await expectCountsConsistent(t.app, group.id)).toEqual({ members: 3, bans: 0 });
    expect(state.tags.map((tag) => tag.post_id).sort()).toEqual([...content.postIds].sort());
    expect(await enqueuedEvents(t.app)).toContainEqual({ kind: 'group_made_owner', groupId: group.id, actorId: owner.id, userId: firstAdmin.id });
    await runDueJobs(t.app);
    const notes = await t.app.db.selectFrom('notifications').select(['type', 'actor_id']).where('user_id', '=', firstAdmin.id).execute();
    expect(notes).toContainEqual({ type: 'MADE_OWNER', actor_id: null });

    for (const viewer of [null, outsider]) expect(await leaksTo(viewer, content, group.name, oldMember)).toEqual([]);
    // The members still read it all: the probes can see the content when allowed to.
    const post = await call(t.app, oldMember, { method: 'GET', url: `/api/post/${content.postIds[0]}` });
    expect(post.statusCode).toBe(200);
    expect(post.body).toContain(content.secret);
  });

  it('with no admin, the longest-standing member takes over (ties by user id)', async () => {
    const owner = await createUser(t.app);
    const a = await createUser(t.app);
    const b = await createUser(t.app);
    const late = await createUser(t.app);
    const group = await createGroup(t.app, owner);
    const at = Date.now() - 50_000;
    for (const user of [a, b]) {
      await addMember(t.app, group.id, user);
      await t.app.db.updateTable('group_members').set({ created_at: at }).where('group_id', '=', group.id).where('user_id', '=', user.id).execute();
    }
    await joinedAgo(t.app, group.id, late, 'member', 1_000);
    expectInfo(await deleteOwnAccount(t.app, owner), 'account_deleted');
    const first = [a.id, b.id].sort()[0];
    expect((await groupState(t.app, group.id)).group?.owner_id).toBe(first);
  });

  it('a group left with nobody goes with its private posts and their images', async () => {
    const { owner, group, members: [leaver] } = await createGroupWith(t.app, ['member'], { isPrivate: true });
    const outsider = await createUser(t.app);
    const bystander = await createUser(t.app);
    const content = await writePrivateContent(group, owner, leaver, 'zqorphan');
    expectInfo(await call(t.app, leaver, { method: 'DELETE', url: `/api/group/${group.name}/leave` }), 'you_left');
    // A banned user is nobody to hand the group to.
    expectInfo(await call(t.app, owner, { method: 'PUT', url: `/api/group/${group.name}/ban/${bystander.id}` }), 'user_banned');

    expectInfo(await deleteOwnAccount(t.app, owner), 'account_deleted');

    expect((await groupState(t.app, group.id)).group).toBeUndefined();
    const left = await t.app.db.selectFrom('posts').select('id').where('id', 'in', content.postIds).execute();
    expect(left).toEqual([]);
    expect(await t.app.db.selectFrom('comments').select('id').where('id', '=', content.commentId).executeTakeFirst()).toBeUndefined();
    for (const key of content.imageKeys) expect(await t.app.storage.get(key)).toBeNull();
    for (const viewer of [null, outsider, leaver, bystander]) expect(await leaksTo(viewer, content, group.name, leaver)).toEqual([]);
  });
});
