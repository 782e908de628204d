import { describe, expect, it } from 'vitest';
import { DELETED } from '#core/limits';
import { enqueueNotificationEvent, type NotificationEvent } from '../../src/modules/notifications/events';
import { addMember, createFollow, createGroup, createGroupWith, createPost, createUser, useUsersPerTest } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';
import { createComment, drain, listFor, mention, setLevel, setSettings, typesFor, typesOfEach } from './support';

describe('notification generation', () => {
  const t = useTestApp();
  const { author, other } = useUsersPerTest(t, 'author', 'other');

  const app = () => t.app;
  /** Queues the events and runs the jobs they make, as the worker would. */
  const deliver = async (...events: NotificationEvent[]) => {
    for (const event of events) await enqueueNotificationEvent(app().db, event);
    await drain(app());
  };
  const postEvent = (postId: string) => deliver({ kind: 'post_created', postId });

  describe('follow', () => {
    const followed = (): NotificationEvent => ({ kind: 'follow', actorId: author.id, userId: other.id });

    it('sends NEW_FOLLOWER to the followed user, with the actor', async () => {
      await createFollow(app(), author, other);
      await enqueueNotificationEvent(app().db, followed());
      expect(await typesFor(app(), other)).toEqual([]);
      await drain(app());
      const { notifications } = await listFor(app(), other);
      expect(notifications).toHaveLength(1);
      expect(notifications[0]).toMatchObject({ type: 'NEW_FOLLOWER', author: author.username, username: author.username, pfp: author.id, seen: false, reply: null, gp: null, groupname: null, groups: [] });
      expect(await typesFor(app(), author)).toEqual([]);
    });

    it('respects the follower setting', async () => {
      await setSettings(app(), other, { 0: false });
      await createFollow(app(), author, other);
      await deliver(followed());
      expect(await typesFor(app(), other)).toEqual([]);
    });

    it('sends nothing when the follow is gone before delivery, and replaces the item on a re-follow', async () => {
      await deliver(followed());
      expect(await typesFor(app(), other)).toEqual([]);
      await createFollow(app(), author, other);
      await deliver(followed(), followed());
      expect(await typesFor(app(), other)).toEqual(['NEW_FOLLOWER']);
    });
  });

  describe('posts', () => {
    it('sends NEW_REPLY to the original author, with an excerpt of the reply', async () => {
      const original = await createPost(app(), other);
      const reply = await createPost(app(), author, { replyTo: original.id, text: 'a reply' });
      await postEvent(reply.id);
      const { notifications } = await listFor(app(), other);
      expect(notifications).toHaveLength(1);
      expect(notifications[0]).toMatchObject({ type: 'NEW_REPLY', author: author.username, reply: 'a reply', context: { post: reply.id, comment: null, count: 1 } });
      // A reply post answers a post, never a comment.
      expect(notifications[0]!.context).not.toHaveProperty('parentComment');
    });

    it('does not notify an author replying to their own post, nor with the reply setting off', async () => {
      const own = await createPost(app(), author);
      await postEvent((await createPost(app(), author, { replyTo: own.id })).id);
      expect(await typesFor(app(), author)).toEqual([]);
      await setSettings(app(), other, { 1: false });
      const original = await createPost(app(), other);
      await postEvent((await createPost(app(), author, { replyTo: original.id })).id);
      expect(await typesFor(app(), other)).toEqual([]);
    });

    it('sends NEW_POST only to followers who asked to be notified, per their setting', async () => {
      const loud = await createUser(app());
      const silent = await createUser(app());
      const optedOut = await createUser(app());
      await createFollow(app(), loud, author, { notify: true });
      await createFollow(app(), silent, author);
      await createFollow(app(), optedOut, author, { notify: true });
      await setSettings(app(), optedOut, { 2: false });
      const post = await createPost(app(), author, { text: 'news' });
      await postEvent(post.id);
      expect(await typesOfEach(app(), { loud, silent, optedOut })).toEqual({ loud: ['NEW_POST'], silent: [], optedOut: [] });
      expect((await listFor(app(), loud)).notifications[0]).toMatchObject({ reply: 'news', context: { post: post.id } });
    });

    it('sends one MENTION per mentioned user with the number of mentions, never to the author', async () => {
      const third = await createUser(app());
      const post = await createPost(app(), author);
      await mention(app(), post.id, [other, author, other, third, other]);
      await postEvent(post.id);
      const { notifications } = await listFor(app(), other);
      expect(notifications).toHaveLength(1);
      expect(notifications[0]).toMatchObject({ type: 'MENTION', context: { post: post.id, count: 3 } });
      expect((await listFor(app(), third)).notifications[0]).toMatchObject({ type: 'MENTION', context: { count: 1 } });
      expect(await typesFor(app(), author)).toEqual([]);
    });

    it('respects the post mention setting', async () => {
      await setSettings(app(), other, { 3: false });
      const post = await createPost(app(), author);
      await mention(app(), post.id, [other]);
      await postEvent(post.id);
      expect(await typesFor(app(), other)).toEqual([]);
    });

    it('gives one notification per post: a reply beats a mention, a mention beats a followed post and a group post', async () => {
      const group = await createGroup(app(), author);
      await addMember(app(), group.id, other);
      await createFollow(app(), other, author, { notify: true });
      const original = await createPost(app(), other);
      const reply = await createPost(app(), author, { replyTo: original.id, groupIds: [group.id] });
      await mention(app(), reply.id, [other]);
      await postEvent(reply.id);
      expect(await typesFor(app(), other)).toEqual(['NEW_REPLY']);

      const post = await createPost(app(), author, { groupIds: [group.id] });
      await mention(app(), post.id, [other]);
      await postEvent(post.id);
      expect(await typesFor(app(), other)).toEqual(['MENTION', 'NEW_REPLY']);

      await postEvent((await createPost(app(), author, { groupIds: [group.id] })).id);
      expect(await typesFor(app(), other)).toEqual(['MENTION', 'NEW_POST', 'NEW_REPLY']);
      // With posts from followed users turned off, the group post reaches them instead.
      await setSettings(app(), other, { 2: false });
      await postEvent((await createPost(app(), author, { groupIds: [group.id] })).id);
      expect(await typesFor(app(), other)).toEqual(['GROUP_POST', 'MENTION', 'NEW_POST', 'NEW_REPLY']);
    });

    it('sends GROUP_POST to members at level all only, once across several groups, never to the author', async () => {
      const a = await createGroup(app(), author);
      const b = await createGroup(app(), author);
      const all = await createUser(app());
      const essential = await createUser(app());
      const none = await createUser(app());
      const mixed = await createUser(app());
      for (const user of [all, essential, none, mixed]) await addMember(app(), a.id, user);
      await addMember(app(), b.id, all);
      await addMember(app(), b.id, mixed);
      await setLevel(app(), a.id, essential, 1);
      await setLevel(app(), a.id, none, 2);
      await setLevel(app(), a.id, mixed, 2);
      const post = await createPost(app(), author, { groupIds: [a.id, b.id] });
      await postEvent(post.id);
      // `mixed` is at level none in one group, all in the other: the post reaches them through the other group.
      expect(await typesOfEach(app(), { all, essential, none, mixed, author })).toEqual({
        all: ['GROUP_POST'], essential: [], none: [], mixed: ['GROUP_POST'], author: [],
      });
      const item = (await listFor(app(), all)).notifications[0]!;
      expect(item).toMatchObject({ type: 'GROUP_POST', gp: a.id, groupname: a.name, groups: [a.name, b.name], context: { post: post.id } });
      expect((await listFor(app(), mixed)).notifications[0]).toMatchObject({ gp: b.id });
    });

    it('notifies only people who can see a post in a private group', async () => {
      const secret = await createGroup(app(), author, { isPrivate: true });
      const open = await createGroup(app(), author);
      const member = await createUser(app());
      const outsider = await createUser(app());
      const halfIn = await createUser(app());
      await addMember(app(), secret.id, member);
      await addMember(app(), open.id, halfIn);
      await createFollow(app(), outsider, author, { notify: true });
      const original = await createPost(app(), outsider);
      const post = await createPost(app(), author, { groupIds: [secret.id, open.id], replyTo: original.id });
      await mention(app(), post.id, [member, outsider, halfIn]);
      await postEvent(post.id);
      expect(await typesOfEach(app(), { member, outsider, halfIn })).toEqual({ member: ['MENTION'], outsider: [], halfIn: [] });
    });

    it('hides an item once its post is no longer visible to the recipient', async () => {
      const secret = await createGroup(app(), author, { isPrivate: true });
      await addMember(app(), secret.id, other);
      const post = await createPost(app(), author, { groupIds: [secret.id] });
      await postEvent(post.id);
      expect((await listFor(app(), other)).notifications).toHaveLength(1);
      await app().db.deleteFrom('group_members').where('group_id', '=', secret.id).where('user_id', '=', other.id).execute();
      expect((await listFor(app(), other)).notifications).toHaveLength(0);
      const unread = await app().inject({ method: 'GET', url: '/api/notification/unread', headers: other.auth });
      expect(unread.json()).toEqual({ count: 0 });
    });

    it('sends nothing for a post deleted before delivery', async () => {
      const post = await createPost(app(), author);
      await mention(app(), post.id, [other]);
      await enqueueNotificationEvent(app().db, { kind: 'post_created', postId: post.id });
      await app().db.deleteFrom('posts').where('id', '=', post.id).execute();
      await drain(app());
      expect(await typesFor(app(), other)).toEqual([]);
      expect(await app().db.selectFrom('jobs').selectAll().execute()).toEqual([]);
    });
  });

  describe('comments', () => {
    it('sends NEW_REPLY to the post author for a comment, to the parent author for a reply', async () => {
      const third = await createUser(app());
      const post = await createPost(app(), other);
      const comment = await createComment(app(), author, post.id);
      await deliver({ kind: 'comment_created', commentId: comment });
      const [item] = (await listFor(app(), other)).notifications;
      // On the post itself: no comment answered.
      expect(item).toMatchObject({ type: 'NEW_REPLY', author: author.username, reply: `comment ${comment}`, context: { post: post.id, comment, parentComment: null } });
      const reply = await createComment(app(), third, post.id, { parent: comment });
      await deliver({ kind: 'comment_created', commentId: reply });
      expect(await typesFor(app(), author)).toEqual(['NEW_REPLY']);
      // A reply to a comment names the comment it answers, so the item can say so.
      expect((await listFor(app(), author)).notifications[0]).toMatchObject({ context: { post: post.id, comment: reply, parentComment: comment } });
      expect(await typesFor(app(), other)).toEqual(['NEW_REPLY']);
    });

    it('never notifies the commenter about their own post or comment', async () => {
      const post = await createPost(app(), author);
      const comment = await createComment(app(), author, post.id, { mentions: [author] });
      const reply = await createComment(app(), author, post.id, { parent: comment });
      await deliver(
        { kind: 'comment_created', commentId: comment },
        { kind: 'comment_created', commentId: reply },
      );
      expect(await typesFor(app(), author)).toEqual([]);
    });

    it('sends COMMENT_MENTION with the count, per the comment mention setting, to those who can see the post', async () => {
      const muted = await createUser(app());
      const outsider = await createUser(app());
      await setSettings(app(), muted, { 4: false });
      const secret = await createGroup(app(), author, { isPrivate: true });
      await addMember(app(), secret.id, other);
      await addMember(app(), secret.id, muted);
      const post = await createPost(app(), author, { groupIds: [secret.id] });
      const comment = await createComment(app(), author, post.id, { mentions: [other, other, muted, outsider] });
      await deliver({ kind: 'comment_created', commentId: comment });
      expect((await listFor(app(), other)).notifications[0]).toMatchObject({ type: 'COMMENT_MENTION', context: { post: post.id, comment, count: 2 } });
      expect(await typesFor(app(), muted)).toEqual([]);
      expect(await typesFor(app(), outsider)).toEqual([]);
    });

    it('respects the reply setting for comments', async () => {
      await setSettings(app(), other, { 1: false });
      const post = await createPost(app(), other);
      await deliver({ kind: 'comment_created', commentId: await createComment(app(), author, post.id) });
      expect(await typesFor(app(), other)).toEqual([]);
    });
  });

  describe('groups', () => {
    it('sends GROUP_JOIN_REQUEST to the owner and admins unless their level is none, and clears them once decided', async () => {
      const { group, members: [admin, quietAdmin, member] } = await createGroupWith(app(), ['admin', 'admin', 'member'], { owner: author, requestJoin: true });
      await setLevel(app(), group.id, quietAdmin, 2);
      await setLevel(app(), group.id, admin, 1);
      await app().db.insertInto('group_requests').values({ group_id: group.id, user_id: other.id, created_at: Date.now() }).execute();
      await deliver({ kind: 'group_join_request', groupId: group.id, actorId: other.id });
      expect(await typesOfEach(app(), { author, admin, quietAdmin, member, other })).toEqual({
        author: ['GROUP_JOIN_REQUEST'], admin: ['GROUP_JOIN_REQUEST'], quietAdmin: [], member: [], other: [],
      });
      expect((await listFor(app(), author)).notifications[0]).toMatchObject({ author: other.username, pfp: other.id, gp: group.id, groupname: group.name });

      await app().db.deleteFrom('group_requests').execute();
      await deliver({ kind: 'group_join_accepted', groupId: group.id, actorId: admin.id, userId: other.id });
      expect(await typesFor(app(), author)).toEqual([]);
      expect(await typesFor(app(), admin)).toEqual([]);
      expect((await listFor(app(), other)).notifications[0]).toMatchObject({ type: 'GROUP_JOIN_ACCEPT', author: admin.username, gp: group.id, groupname: group.name });
    });

    it("clears the admins' GROUP_JOIN_REQUEST once the requester withdraws it", async () => {
      const { group, members: [admin] } = await createGroupWith(app(), ['admin'], { owner: author, requestJoin: true });
      await app().db.insertInto('group_requests').values({ group_id: group.id, user_id: other.id, created_at: Date.now() }).execute();
      await deliver({ kind: 'group_join_request', groupId: group.id, actorId: other.id });
      expect(await typesOfEach(app(), { author, admin })).toEqual({ author: ['GROUP_JOIN_REQUEST'], admin: ['GROUP_JOIN_REQUEST'] });
      const withdrawn = await app().inject({ method: 'DELETE', url: `/api/group/${encodeURIComponent(group.name)}/request`, headers: other.auth });
      expect(withdrawn.statusCode).toBe(200);
      await drain(app());
      expect(await typesOfEach(app(), { author, admin })).toEqual({ author: [], admin: [] });
    });

    it('sends nothing for a request withdrawn before delivery; GROUP_JOIN_DENY to a denied requester', async () => {
      const group = await createGroup(app(), author, { requestJoin: true });
      await deliver(
        { kind: 'group_join_request', groupId: group.id, actorId: other.id },
        { kind: 'group_join_denied', groupId: group.id, actorId: author.id, userId: other.id },
      );
      expect(await typesFor(app(), author)).toEqual([]);
      expect(await typesFor(app(), other)).toEqual(['GROUP_JOIN_DENY']);
    });

    it('sends NEW_MEMBER to the owner and admins per the new member setting and level, not to the newcomer', async () => {
      const { group, members: [admin, muted] } = await createGroupWith(app(), ['admin', 'admin'], { owner: author });
      await setSettings(app(), muted, { 5: false });
      await addMember(app(), group.id, other);
      await deliver({ kind: 'group_new_member', groupId: group.id, userId: other.id });
      expect(await typesOfEach(app(), { author, admin, muted, other })).toEqual({ author: ['NEW_MEMBER'], admin: ['NEW_MEMBER'], muted: [], other: [] });
      expect((await listFor(app(), author)).notifications[0]).toMatchObject({ author: other.username, gp: group.id });

      await setLevel(app(), group.id, admin, 2);
      const newcomer = await createUser(app());
      await addMember(app(), group.id, newcomer);
      await deliver({ kind: 'group_new_member', groupId: group.id, userId: newcomer.id });
      expect(await typesFor(app(), admin)).toEqual(['NEW_MEMBER']);
      expect(await typesFor(app(), author)).toEqual(['NEW_MEMBER', 'NEW_MEMBER']);
    });

    it('sends MADE_ADMIN and REVOKED_ADMIN to the member concerned', async () => {
      const group = await createGroup(app(), author);
      await addMember(app(), group.id, other);
      await setLevel(app(), group.id, other, 2);
      await deliver(
        { kind: 'group_made_admin', groupId: group.id, actorId: author.id, userId: other.id },
        { kind: 'group_revoked_admin', groupId: group.id, actorId: author.id, userId: other.id },
      );
      expect(await typesFor(app(), other)).toEqual(['MADE_ADMIN', 'REVOKED_ADMIN']);
      expect(await typesFor(app(), author)).toEqual([]);
    });

    it('shows a deleted actor as <deleted>', async () => {
      const admin = await createUser(app());
      const group = await createGroup(app(), author);
      await addMember(app(), group.id, other);
      await app().db.deleteFrom('users').where('id', '=', admin.id).execute();
      await deliver({ kind: 'group_made_admin', groupId: group.id, actorId: admin.id, userId: other.id });
      expect((await listFor(app(), other)).notifications[0]).toMatchObject({ type: 'MADE_ADMIN', author: DELETED, username: DELETED, pfp: null });
    });
  });
});
