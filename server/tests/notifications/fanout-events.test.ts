import { describe, expect, it, vi } from 'vitest';
import { enqueueNotificationEvent, type NotificationEvent } from '../../src/modules/notifications/events';
import { addMember, createFollow, createGroup, createPost, createUser, type TestUser } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';
import { createComment, drain, listFor, mention, setSettings, typesFor } from './support';

/**
 * Events whose subject is gone by delivery, the rarer event kinds, and who hears that their
 * notifications changed (generation.test.ts covers the everyday cases).
 */
describe('notification events at the edges', () => {
  const t = useTestApp();
  let owner: TestUser;
  let user: TestUser;

  const send = async (event: NotificationEvent | { kind: string }) => {
    await enqueueNotificationEvent(t.app.db, event as NotificationEvent);
    await drain(t.app);
  };
  /**
   * Records which of the users are told their notifications changed while `run` runs. On
   * PostgreSQL the announcements travel through NOTIFY and arrive after `run` returns; a marker
   * announced last arrives after all of them (one listening connection gets them in commit order),
   * so waiting for it makes the record complete on both databases.
   */
  const announced = async (users: TestUser[], run: () => Promise<void>) => {
    const heard: string[] = [];
    const marker = `marker-${users.length}-${Date.now()}`;
    let markerHeard = false;
    const stops = await Promise.all(users.map((one) => t.app.notificationHub.subscribe(one.id, () => heard.push(one.id))));
    stops.push(await t.app.notificationHub.subscribe(marker, () => (markerHeard = true)));
    try {
      await run();
      const dispatch = await t.app.notificationHub.announce(t.app.db, [marker]);
      dispatch();
      await vi.waitFor(() => expect(markerHeard).toBe(true), { timeout: 10_000 });
    } finally {
      for (const stop of stops) stop();
    }
    return [...new Set(heard)].sort();
  };
  const freshPair = async () => {
    owner = await createUser(t.app);
    user = await createUser(t.app);
  };
  /** Nothing left in the queue: each event was delivered or dropped, none waits for a retry. */
  const queueIsEmpty = async () => expect(await t.app.db.selectFrom('jobs').select(['kind', 'payload', 'last_error']).execute()).toEqual([]);

  it('sends MADE_OWNER to the new owner, and tells only them', async () => {
    await freshPair();
    const group = await createGroup(t.app, owner);
    await addMember(t.app, group.id, user, 'admin');
    const heard = await announced([owner, user], () => send({ kind: 'group_made_owner', groupId: group.id, actorId: owner.id, userId: user.id }));
    expect(await typesFor(t.app, user)).toEqual(['MADE_OWNER']);
    expect(await typesFor(t.app, owner)).toEqual([]);
    expect(heard).toEqual([user.id]);
  });

  it('names who made the change and the group in a role change, whatever the role', async () => {
    await freshPair();
    const group = await createGroup(t.app, owner);
    await addMember(t.app, group.id, user, 'admin');
    for (const kind of ['group_made_admin', 'group_revoked_admin', 'group_made_owner'] as const) {
      await send({ kind, groupId: group.id, actorId: owner.id, userId: user.id });
    }
    const { notifications } = await listFor(t.app, user);
    expect(notifications.map((item) => item.type).sort()).toEqual(['MADE_ADMIN', 'MADE_OWNER', 'REVOKED_ADMIN']);
    for (const item of notifications) {
      expect(item).toMatchObject({ author: owner.username, pfp: owner.id, gp: group.id, groupname: group.name });
    }
  });

  it('never tells a newcomer made admin before the delivery about their own joining', async () => {
    await freshPair();
    const group = await createGroup(t.app, owner);
    await addMember(t.app, group.id, user);
    await enqueueNotificationEvent(t.app.db, { kind: 'group_new_member', groupId: group.id, userId: user.id });
    // Promoted before the worker got to the event: the newcomer is now staff too.
    await t.app.db.updateTable('group_members').set({ role: 'admin' }).where('group_id', '=', group.id).where('user_id', '=', user.id).execute();
    await drain(t.app);
    expect(await typesFor(t.app, owner)).toEqual(['NEW_MEMBER']);
    expect(await typesFor(t.app, user)).toEqual([]);
  });

  it('sends nothing about a join request withdrawn before delivery, and drops the event', async () => {
    await freshPair();
    const group = await createGroup(t.app, owner, { requestJoin: true });
    await send({ kind: 'group_join_request', groupId: group.id, actorId: user.id });
    expect(await typesFor(t.app, owner)).toEqual([]);
    await queueIsEmpty();
  });

  it('drops a follow event whose follow is gone or whose recipient turned follower items off', async () => {
    await freshPair();
    await send({ kind: 'follow', actorId: user.id, userId: owner.id });
    await setSettings(t.app, owner, { 0: false });
    await createFollow(t.app, user, owner);
    await send({ kind: 'follow', actorId: user.id, userId: owner.id });
    expect(await typesFor(t.app, owner)).toEqual([]);
    await queueIsEmpty();
  });

  it('drops a decision on a request whose group or requester is gone, sending nothing', async () => {
    for (const kind of ['group_join_accepted', 'group_join_denied'] as const) {
      await freshPair();
      const group = await createGroup(t.app, owner, { requestJoin: true });
      await send({ kind, groupId: 'no-such-group', actorId: owner.id, userId: user.id });
      const gone = await createUser(t.app);
      await t.app.db.deleteFrom('users').where('id', '=', gone.id).execute();
      await send({ kind, groupId: group.id, actorId: owner.id, userId: gone.id });
      expect(await typesFor(t.app, user)).toEqual([]);
      expect(await typesFor(t.app, owner)).toEqual([]);
      await queueIsEmpty();
    }
  });

  it('sends nothing about a group or a member gone before delivery', async () => {
    await freshPair();
    const group = await createGroup(t.app, owner);
    const gone = await createUser(t.app);
    await t.app.db.deleteFrom('users').where('id', '=', gone.id).execute();
    for (const kind of ['group_made_admin', 'group_revoked_admin', 'group_made_owner'] as const) {
      await send({ kind, groupId: 'no-such-group', actorId: owner.id, userId: user.id });
      await send({ kind, groupId: group.id, actorId: owner.id, userId: gone.id });
    }
    await send({ kind: 'group_new_member', groupId: 'no-such-group', userId: user.id });
    await send({ kind: 'group_new_member', groupId: group.id, userId: gone.id });
    expect(await typesFor(t.app, user)).toEqual([]);
    expect(await typesFor(t.app, owner)).toEqual([]);
    expect(await t.app.db.selectFrom('jobs').selectAll().execute()).toEqual([]);
  });

  it('tells the staff whose request items a decision cleared, as well as the requester', async () => {
    for (const kind of ['group_join_accepted', 'group_join_denied'] as const) {
      await freshPair();
      const [admin, bystander] = [await createUser(t.app), await createUser(t.app)];
      const group = await createGroup(t.app, owner, { requestJoin: true });
      await addMember(t.app, group.id, admin, 'admin');
      await addMember(t.app, group.id, bystander);
      await t.app.db.insertInto('group_requests').values({ group_id: group.id, user_id: user.id, created_at: Date.now() }).execute();
      await send({ kind: 'group_join_request', groupId: group.id, actorId: user.id });
      expect(await typesFor(t.app, owner)).toEqual(['GROUP_JOIN_REQUEST']);
      await t.app.db.deleteFrom('group_requests').execute();
      const heard = await announced([owner, admin, bystander, user], () => send({ kind, groupId: group.id, actorId: admin.id, userId: user.id }));
      expect(await typesFor(t.app, owner)).toEqual([]);
      expect(heard).toEqual([owner.id, admin.id, user.id].sort());
    }
  });


  it('drops an event kind it does not know instead of retrying it', async () => {
    await send({ kind: 'from_a_later_version' });
    expect(await t.app.db.selectFrom('jobs').selectAll().execute()).toEqual([]);
  });

  it('sends nothing about a post or comment whose author is gone', async () => {
    await freshPair();
    const post = await createPost(t.app, owner);
    await mention(t.app, post.id, [user]);
    const comment = await createComment(t.app, owner, post.id, { mentions: [user] });
    await t.app.db.updateTable('posts').set({ author_id: null }).where('id', '=', post.id).execute();
    await t.app.db.updateTable('comments').set({ author_id: null }).where('id', '=', comment).execute();
    await send({ kind: 'post_created', postId: post.id });
    await send({ kind: 'comment_created', commentId: comment });
    expect(await typesFor(t.app, user)).toEqual([]);
    await queueIsEmpty();
  });

  it('sends nothing about a comment deleted before delivery', async () => {
    await freshPair();
    const post = await createPost(t.app, user);
    const comment = await createComment(t.app, owner, post.id, { mentions: [user] });
    await enqueueNotificationEvent(t.app.db, { kind: 'comment_created', commentId: comment });
    await t.app.db.deleteFrom('comments').where('id', '=', comment).execute();
    await drain(t.app);
    expect(await typesFor(t.app, user)).toEqual([]);
    await queueIsEmpty();
  });

  it('tells the recipients of a post, and nobody else, that their notifications changed', async () => {
    await freshPair();
    const bystander = await createUser(t.app);
    const post = await createPost(t.app, owner);
    await mention(t.app, post.id, [user]);
    const heard = await announced([owner, user, bystander], () => send({ kind: 'post_created', postId: post.id }));
    expect(heard).toEqual([user.id]);
  });

  it('tells nobody when a step delivers nothing', async () => {
    await freshPair();
    await setSettings(t.app, user, { 4: false });
    const post = await createPost(t.app, owner);
    const comment = await createComment(t.app, owner, post.id, { mentions: [user] });
    const heard = await announced([owner, user], () => send({ kind: 'comment_created', commentId: comment }));
    expect(heard).toEqual([]);
    expect(await typesFor(t.app, user)).toEqual([]);
  });
});
