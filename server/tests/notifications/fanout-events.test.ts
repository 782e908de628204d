import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueNotificationEvent, type NotificationEvent } from '../../src/modules/notifications/events';
import { addMember, createGroup, createPost, createUser, type TestUser } from '../helpers/fixtures';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { createComment, drain, mention, setSettings, typesFor } from './support';

/**
 * Events whose subject is gone by delivery, the rarer event kinds, and who hears that their
 * notifications changed (generation.test.ts covers the everyday cases).
 */
describe('notification events at the edges', () => {
  let t: TestApp;
  let owner: TestUser;
  let user: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  const send = async (event: NotificationEvent | { kind: string }) => {
    await enqueueNotificationEvent(t.app.db, event as NotificationEvent);
    await drain(t.app);
  };
  /** Records which of the users are told their notifications changed while `run` runs. */
  const announced = async (users: TestUser[], run: () => Promise<void>) => {
    const heard: string[] = [];
    const stops = await Promise.all(users.map((one) => t.app.notificationHub.subscribe(one.id, () => heard.push(one.id))));
    try {
      await run();
    } finally {
      for (const stop of stops) stop();
    }
    return [...new Set(heard)].sort();
  };
  const freshPair = async () => {
    owner = await createUser(t.app);
    user = await createUser(t.app);
  };

  it('sends MADE_OWNER to the new owner, and tells only them', async () => {
    await freshPair();
    const group = await createGroup(t.app, owner);
    await addMember(t.app, group.id, user, 'admin');
    const heard = await announced([owner, user], () => send({ kind: 'group_made_owner', groupId: group.id, actorId: owner.id, userId: user.id }));
    expect(await typesFor(t.app, user)).toEqual(['MADE_OWNER']);
    expect(await typesFor(t.app, owner)).toEqual([]);
    expect(heard).toEqual([user.id]);
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

  it('sends a decision on a request to a deleted group nowhere', async () => {
    await freshPair();
    await send({ kind: 'group_join_accepted', groupId: 'no-such-group', actorId: owner.id, userId: user.id });
    expect(await typesFor(t.app, user)).toEqual([]);
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
