import { describe, expect, it } from 'vitest';
import { LEASE_MS, runDueJobs } from '../../src/lib/jobs/worker';
import { enqueueNotificationEvent } from '../../src/modules/notifications/events';
import { FANOUT_BATCH } from '../../src/modules/notifications/notifications.fanout';
import { addMember, createFollow, createGroup, createPost, createUser, type TestUser } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';
import { notificationStats, seedMembers } from './support';

/**
 * The batching of a post's fan-out at its exact boundaries, with audiences of one batch (the
 * 100,000-member test in fanout.test.ts shows the same at scale, too slowly for mutation runs).
 * A step is one transaction: the named recipients, then followers and then each group's members
 * FANOUT_BATCH at a time, a full batch always followed by a look for more.
 */
describe('fan-out batches', () => {
  const t = useTestApp();

  const announce = async (author: TestUser, groupIds: string[] = []) => {
    const post = await createPost(t.app, author, { groupIds });
    await enqueueNotificationEvent(t.app.db, { kind: 'post_created', postId: post.id });
    return post;
  };
  // The steps left after a run cut short, taken over once its lease has run out (as after a crash).
  const takeOver = () => runDueJobs(t.app, { clock: () => Date.now() + LEASE_MS + 1 });
  const typesOf = async (postId: string) =>
    (await t.app.db.selectFrom('notifications').select('type').distinct().where('post_id', '=', postId).execute()).map((row) => row.type);

  it('reaches exactly one full batch of followers in one step, then looks once more before the groups', async () => {
    const author = await createUser(t.app);
    // Members of an untagged group stand in as followers: only the follows count here.
    const crowd = await createGroup(t.app, author);
    await seedMembers(t.app, crowd.id, FANOUT_BATCH);
    const ids = await t.app.db.selectFrom('group_members').select('user_id').where('group_id', '=', crowd.id).where('user_id', '!=', author.id).execute();
    const now = Date.now();
    await t.app.db
      .insertInto('follows')
      .values(ids.map((row) => ({ follower_id: row.user_id, following_id: author.id, notify: 1, created_at: now })))
      .execute();
    const post = await announce(author);

    // Named recipients, then the one full batch of followers.
    expect(await runDueJobs(t.app, { maxSteps: 2 })).toBe(2);
    expect(await notificationStats(t.app, post.id)).toEqual({ total: FANOUT_BATCH, users: FANOUT_BATCH });
    // A full batch may not be the last: one more look (empty), then the groups phase (none).
    expect(await takeOver()).toBe(2);
    expect(await notificationStats(t.app, post.id)).toEqual({ total: FANOUT_BATCH, users: FANOUT_BATCH });
    expect(await typesOf(post.id)).toEqual(['NEW_POST']);
    expect(await t.app.db.selectFrom('jobs').selectAll().execute()).toEqual([]);
  });

  it('goes on to the groups in the step after a batch of followers shorter than a batch', async () => {
    const author = await createUser(t.app);
    const [fan, member] = [await createUser(t.app), await createUser(t.app)];
    const group = await createGroup(t.app, author);
    await addMember(t.app, group.id, member);
    await createFollow(t.app, fan, author, { notify: true });
    const post = await announce(author, [group.id]);

    // Named recipients (none), the one short batch of followers, then the group's members.
    expect(await runDueJobs(t.app, { maxSteps: 3 })).toBe(3);
    expect(await notificationStats(t.app, post.id)).toEqual({ total: 2, users: 2 });
    expect((await typesOf(post.id)).sort()).toEqual(['GROUP_POST', 'NEW_POST']);
    expect(await takeOver()).toBe(0);
    expect(await t.app.db.selectFrom('jobs').selectAll().execute()).toEqual([]);
  });

  it('still reaches the later groups when an earlier group of the post is deleted during the fan-out', async () => {
    const author = await createUser(t.app);
    const [first, second] = [await createUser(t.app), await createUser(t.app)];
    const gone = await createGroup(t.app, author);
    const kept = await createGroup(t.app, author);
    await addMember(t.app, gone.id, first);
    await addMember(t.app, kept.id, second);
    const post = await announce(author, [gone.id, kept.id]);

    // Named recipients, followers (none), then the first group's members.
    expect(await runDueJobs(t.app, { maxSteps: 3 })).toBe(3);
    expect(await t.app.db.selectFrom('notifications').select('user_id').where('post_id', '=', post.id).execute()).toEqual([{ user_id: first.id }]);
    // As the group's deletion does it: its posts untagged first (the database refuses otherwise).
    await t.app.db.deleteFrom('post_groups').where('group_id', '=', gone.id).execute();
    await t.app.db.deleteFrom('groups').where('id', '=', gone.id).execute();
    await takeOver();
    expect(await t.app.db.selectFrom('notifications').select(['user_id', 'type', 'group_id']).where('post_id', '=', post.id).execute()).toEqual([
      { user_id: second.id, type: 'GROUP_POST', group_id: kept.id },
    ]);
    expect(await t.app.db.selectFrom('jobs').selectAll().execute()).toEqual([]);
  });

  it('walks one group of exactly one batch in two steps, and a group past it in two', async () => {
    const author = await createUser(t.app);
    const full = await createGroup(t.app, author);
    const over = await createGroup(t.app, author);
    // With the author (owner, never notified), `full` has exactly one batch of rows.
    await seedMembers(t.app, full.id, FANOUT_BATCH - 1);
    await seedMembers(t.app, over.id, FANOUT_BATCH);
    const post = await announce(author, [full.id, over.id]);

    // Named recipients, followers (none), then the full group's one batch.
    expect(await runDueJobs(t.app, { maxSteps: 3 })).toBe(3);
    expect(await notificationStats(t.app, post.id)).toEqual({ total: FANOUT_BATCH - 1, users: FANOUT_BATCH - 1 });
    // The full batch is followed by an empty look, then the second group's batch of 1000 rows
    // (author included) and its last row.
    expect(await takeOver()).toBe(3);
    expect(await notificationStats(t.app, post.id)).toEqual({ total: 2 * FANOUT_BATCH - 1, users: 2 * FANOUT_BATCH - 1 });
    expect(await typesOf(post.id)).toEqual(['GROUP_POST']);
    expect(await t.app.db.selectFrom('jobs').selectAll().execute()).toEqual([]);
  });
});
