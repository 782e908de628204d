import { CompiledQuery, type Compilable } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { foldForSearch } from '#core/text';
import { commentIdsQuery, commentsByIdsQuery } from '../../src/modules/comments/comments.repository';
import { type ListingPlan, type ListPostIdsParams, type PostScope, pagePostsQuery, postIdsQuery } from '../../src/modules/feeds/feeds.repository';
import { listedPostsQuery, postGroupsSeenByQuery, visiblePostsQuery } from '../../src/modules/posts/posts.repository';
import { newId } from '../../src/lib/ids';
import { createPost, useUsers } from '../helpers/fixtures';
import { listingFor, privateGroupOfFollowed } from '../helpers/listings';
import { TEST_DB, useTestApp } from '../helpers/test-app';

/**
 * The hot listings read a page by walking an index in the listing's order and stopping at the
 * page: SQLite's plan for each (through the same query builders the routes use) sorts nothing in a
 * temporary b-tree and scans no table without an index. SQLite only: its plans do not depend on the
 * rows present, where PostgreSQL's choice follows the data (the benchmark records those plans).
 */
describe.skipIf(TEST_DB !== 'sqlite')('query plans of the hot listings', () => {
  const t = useTestApp();
  const { alice, bob, carol } = useUsers(t, 'alice', 'bob', 'carol');
  let groupId = '';
  let postId = '';
  let commentId = '';
  const pageIds: string[] = [];

  beforeAll(async () => {
    groupId = await privateGroupOfFollowed(t.app, alice, bob);
    const start = Date.now() - 100_000;
    for (let i = 0; i < 30; i++) {
      const author = [alice, carol][i % 2]!;
      const post = await createPost(t.app, author, {
        text: i % 3 === 0 ? `coffee #beans number ${i}` : `tea number ${i}`,
        groupIds: i % 4 === 0 ? [groupId] : [],
        createdAt: start + i * 1000,
        ...(postId && i % 5 === 0 ? { replyTo: postId } : {}),
      });
      postId ||= post.id;
      if (i >= 25) pageIds.push(post.id);
      if (i % 3 === 0) await t.app.db.insertInto('post_hashtags').values({ post_id: post.id, tag: 'beans', created_at: start + i * 1000 }).execute();
    }
    commentId = newId();
    await t.app.db
      .insertInto('comments')
      .values({ id: commentId, post_id: postId, parent_comment_id: null, author_id: bob.id, text: 'hi', search_text: foldForSearch('hi'), created_at: start })
      .execute();
  });

  async function planOf(query: Compilable<unknown>): Promise<string[]> {
    const compiled = query.compile();
    const result = await t.app.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${compiled.sql}`, [...compiled.parameters]));
    return result.rows.map((row) => row.detail);
  }

  /** Sorted nowhere, and every table reached through an index. */
  function expectIndexWalk(plan: string[]) {
    const text = plan.join('\n');
    expect(text, text).not.toMatch(/TEMP B-TREE/);
    for (const line of plan) expect(line, text).not.toMatch(/^SCAN \S+( AS \S+)?$/);
  }

  const listing = listingFor(() => bob, 11);

  const posts = (scope: () => PostScope, overrides: Partial<ListPostIdsParams> = {}, plan: ListingPlan = 'walk') =>
    () => postIdsQuery(t.app.db, listing(scope(), overrides), plan);

  const hot: [string, () => Compilable<unknown>, RegExp][] = [
    ['feed, newest', posts(() => ({ kind: 'all' })), /posts_created/],
    ['feed, newest, a later page', posts(() => ({ kind: 'all' }), { offset: 10_000 }), /posts_created/],
    // A first page: later pages carry the snapshot moment too, and SQLite may then prefer reading
    // the week's posts by date and sorting them (bounded by the week).
    ['feed, popular this week', posts(() => ({ kind: 'all' }), { sort: 'popular', since: Date.now() - 7 * 86_400_000, before: undefined }), /posts_popular/],
    ['feed, popular of all time', posts(() => ({ kind: 'all' }), { sort: 'popular' }), /posts_popular/],
    ['following feed', posts(() => ({ kind: 'following', userId: bob.id })), /posts_created/],
    ['group posts', posts(() => ({ kind: 'group', groupId })), /post_groups_group/],
    ['hashtag posts', posts(() => ({ kind: 'hashtag', tag: 'beans' })), /post_hashtags_tag/],
    ['an author\'s posts', posts(() => ({ kind: 'author', authorId: alice.id }), {}, 'sort'), /posts_author/],
    ['search posts', posts(() => ({ kind: 'search', query: 'coffee' })), /posts_created/],
    ['a post\'s comments, most liked first', () => commentIdsQuery(t.app.db, { filter: { kind: 'thread', postId, parentCommentId: null }, listing: { sort: 'popular', since: 0, before: undefined }, page: { offset: 0, limit: 10, fetch: 11 }, viewerId: bob.id }), /comments_post_popular/],
    ['a post\'s comments, newest first', () => commentIdsQuery(t.app.db, { filter: { kind: 'thread', postId, parentCommentId: null }, listing: { sort: 'newest', since: 0, before: undefined }, page: { offset: 0, limit: 10, fetch: 11 }, viewerId: bob.id }), /comments_post/],
    ['a comment\'s replies', () => commentIdsQuery(t.app.db, { filter: { kind: 'thread', postId, parentCommentId: commentId }, listing: { sort: 'popular', since: 0, before: undefined }, page: { offset: 0, limit: 10, fetch: 11 }, viewerId: bob.id }), /comments_post_popular/],
    ['a later page of a comment\'s replies, newest first', () => commentIdsQuery(t.app.db, { filter: { kind: 'thread', postId, parentCommentId: commentId }, listing: { sort: 'newest', since: 0, before: Date.now() }, page: { offset: 10, limit: 10, fetch: 11 }, viewerId: bob.id }), /comments_post/],
  ];

  it.each(hot)('%s walks its index in order', async (_name, query, index) => {
    const plan = await planOf(query());
    expectIndexWalk(plan);
    expect(plan.join('\n')).toMatch(index);
  });

  /**
   * What a page of posts or comments shows of its reader (likes, roles, bans, whether a reply's
   * original may be read) is read as columns of the page's own statements: each must stay a lookup
   * by key a row, never a scan or a sort of its own, or the round trips it saves cost more than
   * they did.
   */
  it.each([
    ['a page of posts, with likes and originals', () => visiblePostsQuery(t.app.db, pageIds, bob.id)],
    ['their group tags, with roles and bans', () => postGroupsSeenByQuery(t.app.db, pageIds, bob.id)],
    ['a page of comments, with likes', () => commentsByIdsQuery(t.app.db, [commentId], bob.id)],
  ] as const)('%s reads every table by key', async (_name, query) => {
    const plan = await planOf(query());
    expectIndexWalk(plan);
    for (const line of plan) expect(line, plan.join('\n')).toMatch(/^(SEARCH|CORRELATED SCALAR SUBQUERY)\b/);
  });

  /**
   * A feed's page is read with its posts in one statement: the page walks its index as above, its
   * posts are read by key, and the only sort is of the page's own rows back into the listing's order.
   */
  it.each([
    ['feed, newest', (): PostScope => ({ kind: 'all' }), /posts_created/],
    ['group posts', (): PostScope => ({ kind: 'group', groupId }), /post_groups_group/],
  ] as const)('%s: the page with its posts walks its index and reads the posts by key', async (_name, scope, index) => {
    const plan = await planOf(pagePostsQuery(t.app.db, listing(scope()), 'walk', listedPostsQuery));
    const text = plan.join('\n');
    expect(text).toMatch(index);
    expect(plan.filter((line) => /TEMP B-TREE/.test(line)), text).toEqual(['USE TEMP B-TREE FOR ORDER BY']);
    for (const line of plan) expect(line, text).not.toMatch(/^SCAN \S+( AS \S+)?$/);
  });

  /**
   * A sparse following feed or a rare search term is not walked: its few candidates are found
   * through their own index and sorted, a sort bounded by the count that chose it.
   */
  it.each([
    ['following feed', (): PostScope => ({ kind: 'following', userId: bob.id }), /posts_author/],
    ['search posts', (): PostScope => ({ kind: 'search', query: 'coffee' }), /posts_fts/],
  ] as const)('%s with few candidates reads them through their own index', async (_name, scope, index) => {
    const plan = (await planOf(postIdsQuery(t.app.db, listing(scope()), 'sort'))).join('\n');
    expect(plan).toMatch(index);
    expect(plan).not.toMatch(/^SCAN posts$/m);
  });

  it.each([
    ['following feed', (): PostScope => ({ kind: 'following', userId: bob.id })],
    ['search posts', (): PostScope => ({ kind: 'search', query: 'coffee' })],
    ['group posts', (): PostScope => ({ kind: 'group', groupId })],
    ['hashtag posts', (): PostScope => ({ kind: 'hashtag', tag: 'beans' })],
  ] as const)('%s: walking and sorting give the same pages', async (_name, scope) => {
    for (const offset of [0, 3, 6]) {
      const params = listing(scope(), { fetch: 4, offset });
      const walked = await postIdsQuery(t.app.db, params, 'walk').execute();
      const sorted = await postIdsQuery(t.app.db, { ...params, sort: 'popular' }, 'sort')
        .clearOrderBy()
        .orderBy('posts.created_at', 'desc')
        .orderBy('posts.id', 'desc')
        .execute();
      expect(walked.length).toBeGreaterThan(0);
      expect(walked).toEqual(sorted);
    }
  });
});
