import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { LITERAL_OFFSET_MAX, type PostScope, listPagePosts, listPostIds } from '../../src/modules/feeds/feeds.repository';
import { listedPostsQuery } from '../../src/modules/posts/posts.repository';
import { createPost, useUsers } from '../helpers/fixtures';
import { listingFor, privateGroupOfFollowed } from '../helpers/listings';
import { TEST_DB, useTestApp } from '../helpers/test-app';

/**
 * A feed's page is read with its posts in one statement, and on PostgreSQL the page's size and
 * offset of the listings that walk an index are written into it so the server keeps one plan.
 */
describe('a page read with its posts', () => {
  const t = useTestApp();
  const { alice, bob, carol } = useUsers(t, 'alice', 'bob', 'carol');
  let groupId = '';

  beforeAll(async () => {
    groupId = await privateGroupOfFollowed(t.app, alice, bob);
    const start = Date.now() - 100_000;
    for (let i = 0; i < 24; i++) {
      await createPost(t.app, [alice, carol][i % 2]!, { text: `post ${i}`, groupIds: i % 3 === 0 ? [groupId] : [], createdAt: start + i * 1000 });
    }
  });

  const listing = listingFor(() => bob, 5);
  // The following feed of followed authors alone: its walk or sort is counted, each its own text.
  const followed = (): PostScope => ({ kind: 'following', userId: bob.id, shares: false });

  it('lists the same posts in the same order as the page\'s ids, for every window and sort', async () => {
    const scopes: PostScope[] = [{ kind: 'all' }, { kind: 'group', groupId }, { kind: 'following', userId: bob.id }, followed(), { kind: 'author', authorId: carol.id }];
    for (const scope of scopes) {
      for (const sort of ['newest', 'popular'] as const) {
        // The last offset is past the written-out windows: the same page, its window bound.
        for (const offset of [0, 4, LITERAL_OFFSET_MAX + 1]) {
          for (const viewerId of [bob.id, carol.id, null]) {
            const params = listing(scope, { sort, offset, viewerId });
            const ids = await listPostIds(t.app.db, params);
            const posts = await listPagePosts(t.app.db, params, 'posts.visible', listedPostsQuery);
            expect(posts.map((post) => post.id)).toEqual(ids);
          }
        }
      }
    }
    // The group's members read its posts; others read none of them.
    expect(await listPagePosts(t.app.db, listing({ kind: 'group', groupId }), 'posts.visible', listedPostsQuery)).toHaveLength(5);
    expect(await listPagePosts(t.app.db, listing({ kind: 'group', groupId }, { viewerId: carol.id }), 'posts.visible', listedPostsQuery)).toHaveLength(0);
  });

  it.runIf(TEST_DB === 'postgres').each([
    ['the newest feed', (): PostScope => ({ kind: 'all' }), '%"posts"."id" in (select "posts"."id" from "posts"%limit 5 offset 0)%'],
    ['the following feed', followed, '%"posts"."id" in (select "posts"."id" from "posts"%"follows"."follower_id"%limit 5 offset 0)%'],
    ['a group\'s posts', (): PostScope => ({ kind: 'group', groupId }), '%"posts"."id" in (select "posts"."id" from "post_groups" as "scope"%limit 5 offset 0)%'],
  ] as const)('keeps one generic plan of %s\'s page on a connection', async (_name, scope, statement) => {
    await t.app.db.connection().execute(async (db) => {
      for (let i = 0; i < 8; i++) await listPagePosts(db, listing(scope()), 'posts.visible', listedPostsQuery);
      // The connection may have read other pages before: the one read most here is this one.
      const { rows } = await sql<{ generic_plans: string; custom_plans: string }>`
        select generic_plans, custom_plans from pg_prepared_statements
        where statement like ${statement}
        order by generic_plans + custom_plans desc limit 1`.execute(db);
      const [{ generic_plans: generic, custom_plans: custom }] = rows as [{ generic_plans: string; custom_plans: string }];
      expect(Number(generic) + Number(custom)).toBeGreaterThanOrEqual(8);
      // A statement planned for each call counts only custom plans.
      expect(Number(generic)).toBeGreaterThan(0);
    });
  });
});
