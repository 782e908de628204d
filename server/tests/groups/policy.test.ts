import { describe, expect, it } from 'vitest';
import { foldForSearch } from '#core/text';
import { newId } from '../../src/lib/ids';
import { addMember, call, createGroup, createPost, createUser, type TestUser, createGroupWith } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';
import { expectCountsConsistent, expectError, expectInfo, groupState } from './helpers';

/**
 * Gaps in the group rules: a group named like another's id, what a banned user may still do in
 * the group's posts, who may change a group's privacy, what deleting an unseen comment answers,
 * and how often one user may join, leave or ask to join one group.
 */

const t = useTestApp();

describe('a path segment shaped like an id', () => {
  it('names the group with that id, not a group named like it', async () => {
    const owner = await createUser(t.app);
    const joiner = await createUser(t.app);
    const real = await createGroup(t.app, owner);
    // Made directly: creating such a name through the API is refused (groupname_reserved).
    const imposterOwner = await createUser(t.app);
    const imposterId = newId();
    const now = Date.now();
    await t.app.db
      .insertInto('groups')
      .values({
        id: imposterId, name: real.id, name_lower: real.id.toLowerCase(), owner_id: imposterOwner.id, is_private: 0, request_join: 0,
        everyone_can_post: 1, pinned_post_id: null, members: 1, search_text: foldForSearch(real.id), created_at: now,
      })
      .execute();
    await t.app.db.insertInto('group_members').values({ group_id: imposterId, user_id: imposterOwner.id, role: 'owner', created_at: now }).execute();

    const shown = (await call(t.app, null, { method: 'GET', url: `/api/group/${real.id}` })).json().group;
    expect(shown._id).toBe(real.id);
    expectInfo(await call(t.app, joiner, { method: 'PUT', url: `/api/group/${real.id}/join` }), 'joined_group');
    expect((await groupState(t.app, real.id)).members.map((m) => m.user_id)).toContain(joiner.id);
    expect((await groupState(t.app, imposterId)).members.map((m) => m.user_id)).not.toContain(joiner.id);
    const members = (await call(t.app, null, { method: 'GET', url: `/api/group/${real.id}/members` })).json();
    expect(members.group._id).toBe(real.id);
    // The same name in capitals is not id-shaped: it is still the other group's name.
    const upper = (await call(t.app, null, { method: 'GET', url: `/api/group/${real.id.toUpperCase()}` })).json().group;
    expect(upper._id).toBe(imposterId);
  });
});

describe('a banned user takes no part in the group\'s posts', () => {
  async function scene() {
    const { owner, group, members: [author, banned] } = await createGroupWith(t.app, ['member', 'member']);
    const post = await createPost(t.app, author, { groupIds: [group.id] });
    const comment = (await call(t.app, author, { method: 'POST', url: '/api/comment/', payload: { text: 'first', parent: post.id } })).json();
    expectInfo(await call(t.app, owner, { method: 'PUT', url: `/api/group/${group.name}/ban/${banned.id}` }), 'user_banned');
    return { owner, author, banned, group, post, commentId: comment._id as string };
  }

  async function counts(postId: string, commentId: string) {
    return {
      post: await t.app.db.selectFrom('posts').select(['likes', 'comments']).where('id', '=', postId).executeTakeFirstOrThrow(),
      comment: await t.app.db.selectFrom('comments').select(['likes', 'replies']).where('id', '=', commentId).executeTakeFirstOrThrow(),
      replies: (await t.app.db.selectFrom('posts').select('id').where('reply_to', '=', postId).execute()).length,
    };
  }

  it('refuses likes, comments, comment likes and reply posts with 403 banned', async () => {
    const s = await scene();
    const before = await counts(s.post.id, s.commentId);
    expectError(await call(t.app, s.banned, { method: 'PATCH', url: `/api/post/${s.post.id}/like` }), 403, 'banned');
    expectError(await call(t.app, s.banned, { method: 'PATCH', url: `/api/post/${s.post.id}/like`, payload: { liked: true } }), 403, 'banned');
    expectError(await call(t.app, s.banned, { method: 'POST', url: '/api/comment/', payload: { text: 'hi', parent: s.post.id } }), 403, 'banned');
    expectError(await call(t.app, s.banned, { method: 'POST', url: '/api/comment/', payload: { text: 'hi', parent: s.commentId } }), 403, 'banned');
    expectError(await call(t.app, s.banned, { method: 'PATCH', url: `/api/comment/${s.commentId}/like` }), 403, 'banned');
    expectError(await call(t.app, s.banned, { method: 'POST', url: '/api/post', payload: { text: 'my reply', replyingTo: s.post.id } }), 403, 'banned');
    expect(await counts(s.post.id, s.commentId)).toEqual(before);
  });

  it('others still may, and so may the user once unbanned', async () => {
    const s = await scene();
    const outsider = await createUser(t.app);
    for (const user of [outsider, s.author]) {
      expect((await call(t.app, user, { method: 'PATCH', url: `/api/post/${s.post.id}/like` })).statusCode).toBe(200);
      expect((await call(t.app, user, { method: 'PATCH', url: `/api/comment/${s.commentId}/like` })).statusCode).toBe(200);
      expect((await call(t.app, user, { method: 'POST', url: '/api/post', payload: { text: 'reply', replyingTo: s.post.id } })).statusCode).toBe(201);
    }
    expectInfo(await call(t.app, s.owner, { method: 'PUT', url: `/api/group/${s.group.name}/unban/${s.banned.id}` }), 'user_unbanned');
    expect((await call(t.app, s.banned, { method: 'PATCH', url: `/api/post/${s.post.id}/like` })).statusCode).toBe(200);
  });
});

describe('privacy is the owner\'s call', () => {
  const update = (user: TestUser, group: { id: string; name: string }, isPrivate: boolean) =>
    call(t.app, user, { method: 'PATCH', url: `/api/group/${group.id}/update`, payload: { name: group.name, isPrivate } });

  it('an admin may not make a private group public (nor the reverse): 403 need_owner, nothing changes', async () => {
    const { owner, group: secret, members: [admin] } = await createGroupWith(t.app, ['admin'], { isPrivate: true });
    const open = await createGroup(t.app, owner);
    await addMember(t.app, open.id, admin, 'admin');
    const before = await groupState(t.app, secret.id);
    expectError(await update(admin, secret, false), 403, 'need_owner');
    expect(await groupState(t.app, secret.id)).toEqual(before);
    expectError(await update(admin, open, true), 403, 'need_owner');
    // Other settings stay the admins' to change.
    const renamed = await call(t.app, admin, { method: 'PATCH', url: `/api/group/${secret.id}/update`, payload: { name: `${secret.name}x`, description: 'new' } });
    expect(renamed.statusCode).toBe(200);
    expect((await groupState(t.app, secret.id)).group?.is_private).toBe(1);
  });

  it('the owner may', async () => {
    const owner = await createUser(t.app);
    const group = await createGroup(t.app, owner, { isPrivate: true });
    expect((await update(owner, group, false)).statusCode).toBe(200);
    expect((await groupState(t.app, group.id)).group?.is_private).toBe(0);
  });
});

describe('DELETE /comment/{id} of a comment the caller cannot see', () => {
  it('answers 404 like a missing one; a visible comment of someone else is 403 not_author', async () => {
    const { owner, group, members: [member] } = await createGroupWith(t.app, ['member'], { isPrivate: true });
    const outsider = await createUser(t.app);
    const post = await createPost(t.app, owner, { groupIds: [group.id] });
    const comment = (await call(t.app, owner, { method: 'POST', url: '/api/comment/', payload: { text: 'hidden', parent: post.id } })).json();
    expectError(await call(t.app, outsider, { method: 'DELETE', url: `/api/comment/${comment._id}` }), 404, 'comment_not_found');
    expectError(await call(t.app, outsider, { method: 'DELETE', url: `/api/comment/${'d'.repeat(24)}` }), 404, 'comment_not_found');
    expectError(await call(t.app, member, { method: 'DELETE', url: `/api/comment/${comment._id}` }), 403, 'not_author');
    expect(await t.app.db.selectFrom('comments').select('deleted').where('id', '=', comment._id).executeTakeFirstOrThrow()).toEqual({ deleted: 0 });
  });
});

describe('joins, leaves and join requests per user and group', () => {
  const limited = useTestApp({ RATE_GROUP_ACTIONS_PER_HOUR: '3' });

  it('refuses the action over the limit with 429 group_action_limit, changing nothing', async () => {
    const owner = await createUser(limited.app);
    const user = await createUser(limited.app);
    const group = await createGroup(limited.app, owner);
    const other = await createGroup(limited.app, owner);
    const act = (method: 'PUT' | 'DELETE', name: string) =>
      call(limited.app, user, { method, url: `/api/group/${name}/${method === 'PUT' ? 'join' : 'leave'}` });
    expectInfo(await act('PUT', group.name), 'joined_group');
    expectInfo(await act('DELETE', group.name), 'you_left');
    // A refused call is not counted.
    expectError(await act('DELETE', group.name), 403, 'not_member');
    expectInfo(await act('PUT', group.name), 'joined_group');
    const before = await groupState(limited.app, group.id);
    expectError(await act('DELETE', group.name), 429, 'group_action_limit');
    expect(await groupState(limited.app, group.id)).toEqual(before);
    await expectCountsConsistent(limited.app, group.id);
    // Another group, or another user, has its own count.
    expectInfo(await act('PUT', other.name), 'joined_group');
    const someone = await createUser(limited.app);
    expectInfo(await call(limited.app, someone, { method: 'PUT', url: `/api/group/${group.name}/join` }), 'joined_group');
  });

  it('counts join requests: a request/deny cycle cannot repeat without end', async () => {
    const owner = await createUser(limited.app);
    const user = await createUser(limited.app);
    const group = await createGroup(limited.app, owner, { requestJoin: true });
    const request = () => call(limited.app, user, { method: 'POST', url: `/api/group/${group.name}/request` });
    for (let i = 0; i < 3; i++) {
      expectInfo(await request(), 'request_send');
      expectInfo(await call(limited.app, owner, { method: 'POST', url: `/api/group/${group.name}/deny/${user.id}` }), 'request_denied');
    }
    expectError(await request(), 429, 'group_action_limit');
    expect((await groupState(limited.app, group.id)).requests).toEqual([]);
  });
});
