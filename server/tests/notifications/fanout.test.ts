import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEASE_MS, runDueJobs } from '../../src/lib/jobs/worker';
import { enqueueNotificationEvent } from '../../src/modules/notifications/events';
import { FANOUT_BATCH } from '../../src/modules/notifications/notifications.fanout';
import { createFollow, createGroup, createPost, createUser } from '../helpers/fixtures';
import { createTestApp, TEST_DB, type TestApp, useTestApp } from '../helpers/test-app';
import { notificationStats, openSibling, restart, seedMembers, typesFor } from './support';

// Several batches and a part of one: enough to die between batches and finish after. How long a
// group of 100,000 takes is the benchmark's to measure (`npm run bench`).
const MEMBERS = 5 * FANOUT_BATCH + 17;

describe('fan-out to a group of several batches of members', () => {
  let t: TestApp;
  let reopened: Awaited<ReturnType<typeof restart>> | undefined;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    if (reopened) await reopened.close();
    else await t.close();
  });

  it('enqueues without delivering, then survives a restart mid-delivery with no loss and no duplicate', { timeout: 240_000 }, async () => {
    const author = await createUser(t.app);
    const follower = await createUser(t.app);
    const group = await createGroup(t.app, author);
    await seedMembers(t.app, group.id, MEMBERS);
    await createFollow(t.app, follower, author, { notify: true });

    const post = await createPost(t.app, author, { groupIds: [group.id] });
    await t.app.db.transaction().execute((trx) => enqueueNotificationEvent(trx, { kind: 'post_created', postId: post.id }));
    expect(await notificationStats(t.app, post.id)).toEqual({ total: 0, users: 0 });

    // Named recipients, then followers, then the first batch of members; then the process dies.
    expect(await runDueJobs(t.app, { maxSteps: 3 })).toBe(3);
    expect(await notificationStats(t.app, post.id)).toEqual({ total: FANOUT_BATCH + 1, users: FANOUT_BATCH + 1 });

    reopened = await restart(t);
    const app = reopened.app;
    // The dead worker's lease has to run out before another takes the job over.
    expect(await runDueJobs(app)).toBe(0);
    await runDueJobs(app, { clock: () => Date.now() + LEASE_MS + 1 });
    expect(await notificationStats(app, post.id)).toEqual({ total: MEMBERS + 1, users: MEMBERS + 1 });
    expect(await app.db.selectFrom('jobs').selectAll().execute()).toEqual([]);
    expect(await typesFor(app, { id: follower.id } as never)).toEqual(['NEW_POST']);
    expect(await typesFor(app, { id: author.id } as never)).toEqual([]);
  });
});

describe('fan-out drained by several workers at once', () => {
  const t = useTestApp();

  it('delivers each notification exactly once', { timeout: 120_000 }, async () => {
    const members = 5 * FANOUT_BATCH + 17;
    const author = await createUser(t.app);
    const group = await createGroup(t.app, author);
    await seedMembers(t.app, group.id, members);
    const posts = [];
    for (let i = 0; i < 3; i++) {
      const post = await createPost(t.app, author, { groupIds: [group.id] });
      await enqueueNotificationEvent(t.app.db, { kind: 'post_created', postId: post.id });
      posts.push(post);
    }
    // PostgreSQL: another server process on the same database; SQLite: one process, two loops.
    const sibling = TEST_DB === 'postgres' ? await openSibling(t) : t.app;
    try {
      await Promise.all([runDueJobs(t.app), runDueJobs(sibling), runDueJobs(t.app)]);
    } finally {
      if (sibling !== t.app) await sibling.close();
    }
    for (const post of posts) expect(await notificationStats(t.app, post.id)).toEqual({ total: members, users: members });
    expect(await t.app.db.selectFrom('jobs').selectAll().execute()).toEqual([]);
  });
});

