import { describe, expect, it } from 'vitest';
import { RATE_LIMIT_DEFAULTS } from '#core/limits';
import { type NotificationEvent, enqueueNotificationEvent } from '../../src/modules/notifications/events';
import { addMember, createFollow, createGroup, createPost, createUser, type TestUser } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';
import { drain, mention } from './support';

/** Repeating an action (join/leave, request/deny, follow/unfollow) refreshes one item instead of piling them up. */
describe('notification collapsing', () => {
  const t = useTestApp();
  const collapseMs = RATE_LIMIT_DEFAULTS.notificationCollapseMs;

  const items = (user: TestUser, type: string) =>
    t.app.db.selectFrom('notifications').select(['id', 'seen', 'created_at', 'actor_id']).where('user_id', '=', user.id).where('type', '=', type).execute();
  const deliver = async (event: NotificationEvent) => {
    await enqueueNotificationEvent(t.app.db, event);
    await drain(t.app);
  };
  /** Marks the user's items seen and moves them `ago` ms into the past. */
  const age = (user: TestUser, ago: number) =>
    t.app.db.updateTable('notifications').set((eb) => ({ seen: 1, created_at: eb('created_at', '-', ago) })).where('user_id', '=', user.id).execute();

  async function groupWithOwner() {
    const owner = await createUser(t.app);
    const group = await createGroup(t.app, owner);
    return { owner, group };
  }
  const leave = (groupId: string, user: TestUser) =>
    t.app.db.deleteFrom('group_members').where('group_id', '=', groupId).where('user_id', '=', user.id).execute();

  it('join/leave cycles within the window leave one NEW_MEMBER item, unseen and moved to now', async () => {
    const { owner, group } = await groupWithOwner();
    const joiner = await createUser(t.app);
    await addMember(t.app, group.id, joiner);
    await deliver({ kind: 'group_new_member', groupId: group.id, userId: joiner.id });
    const [first] = await items(owner, 'NEW_MEMBER');
    await age(owner, collapseMs - 60_000);
    await leave(group.id, joiner);
    await addMember(t.app, group.id, joiner);
    const before = Date.now();
    await deliver({ kind: 'group_new_member', groupId: group.id, userId: joiner.id });
    const after = await items(owner, 'NEW_MEMBER');
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ id: first!.id, seen: 0 });
    expect(Number(after[0]!.created_at)).toBeGreaterThanOrEqual(before);
    // Someone else joining is news of its own.
    const second = await createUser(t.app);
    await addMember(t.app, group.id, second);
    await deliver({ kind: 'group_new_member', groupId: group.id, userId: second.id });
    expect(await items(owner, 'NEW_MEMBER')).toHaveLength(2);
  });

  it('a repeat beyond the window is a new item', async () => {
    const { owner, group } = await groupWithOwner();
    const joiner = await createUser(t.app);
    await addMember(t.app, group.id, joiner);
    await deliver({ kind: 'group_new_member', groupId: group.id, userId: joiner.id });
    await age(owner, collapseMs + 1000);
    await leave(group.id, joiner);
    await addMember(t.app, group.id, joiner);
    await deliver({ kind: 'group_new_member', groupId: group.id, userId: joiner.id });
    const rows = await items(owner, 'NEW_MEMBER');
    expect(rows.map((row) => row.seen).sort()).toEqual([0, 1]);
  });

  it('request/deny cycles leave one join request for the staff and one denial for the requester', async () => {
    const { owner, group } = await groupWithOwner();
    const requester = await createUser(t.app);
    for (let round = 0; round < 3; round++) {
      await t.app.db.insertInto('group_requests').values({ group_id: group.id, user_id: requester.id, created_at: Date.now() }).execute();
      await deliver({ kind: 'group_join_request', groupId: group.id, actorId: requester.id });
      await t.app.db.deleteFrom('group_requests').where('group_id', '=', group.id).where('user_id', '=', requester.id).execute();
      await deliver({ kind: 'group_join_denied', groupId: group.id, actorId: owner.id, userId: requester.id });
    }
    expect(await items(requester, 'GROUP_JOIN_DENY')).toHaveLength(1);
    // A request withdrawn and made again (no decision in between) refreshes the staff's item.
    for (let round = 0; round < 3; round++) {
      await t.app.db.insertInto('group_requests').values({ group_id: group.id, user_id: requester.id, created_at: Date.now() }).execute();
      await deliver({ kind: 'group_join_request', groupId: group.id, actorId: requester.id });
      await t.app.db.deleteFrom('group_requests').where('group_id', '=', group.id).where('user_id', '=', requester.id).execute();
    }
    expect(await items(owner, 'GROUP_JOIN_REQUEST')).toHaveLength(1);
  });

  it('accept cycles (accepted, left, accepted again) leave one GROUP_JOIN_ACCEPT', async () => {
    const { owner, group } = await groupWithOwner();
    const requester = await createUser(t.app);
    for (let round = 0; round < 3; round++) {
      await deliver({ kind: 'group_join_accepted', groupId: group.id, actorId: owner.id, userId: requester.id });
    }
    expect(await items(requester, 'GROUP_JOIN_ACCEPT')).toHaveLength(1);
  });

  it('keeps items that are not repeats of an action apart: two replies and two mentions by one author are four items', async () => {
    const [fan, star] = [await createUser(t.app), await createUser(t.app)];
    for (let round = 0; round < 2; round++) {
      const original = await createPost(t.app, star);
      const reply = await createPost(t.app, fan, { replyTo: original.id });
      await deliver({ kind: 'post_created', postId: reply.id });
      const post = await createPost(t.app, fan);
      await mention(t.app, post.id, [star]);
      await deliver({ kind: 'post_created', postId: post.id });
    }
    expect(await items(star, 'NEW_REPLY')).toHaveLength(2);
    expect(await items(star, 'MENTION')).toHaveLength(2);
  });

  it('follow/unfollow cycles leave one NEW_FOLLOWER: refreshed within the window, replaced beyond it', async () => {
    const [fan, star] = [await createUser(t.app), await createUser(t.app)];
    await createFollow(t.app, fan, star);
    await deliver({ kind: 'follow', actorId: fan.id, userId: star.id });
    const [first] = await items(star, 'NEW_FOLLOWER');
    await age(star, 60_000);
    await deliver({ kind: 'follow', actorId: fan.id, userId: star.id });
    const refreshed = await items(star, 'NEW_FOLLOWER');
    expect(refreshed).toEqual([expect.objectContaining({ id: first!.id, seen: 0 })]);
    await age(star, collapseMs + 1000);
    await deliver({ kind: 'follow', actorId: fan.id, userId: star.id });
    const replaced = await items(star, 'NEW_FOLLOWER');
    expect(replaced).toHaveLength(1);
    expect(replaced[0]).toMatchObject({ seen: 0 });
    expect(replaced[0]!.id).not.toBe(first!.id);
  });
});
