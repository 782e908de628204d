import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { extractHashtags, foldForSearch } from '#core/text';
import { SEED_NAMES, type SeedSummary, seedDatabase, seedOptions } from '../../bench/seed-data';
import { TEST_DB, useTestApp } from '../helpers/test-app';

/**
 * The benchmark's seed (server/bench/seed-data.ts) at a small size: its rows are what the app
 * itself would have left (counters equal to their rows, search text folded and indexed, hashtags
 * extracted, group posts by members), and the app's own API answers them.
 */
describe('bench seed', () => {
  const t = useTestApp();
  let summary: SeedSummary;

  it('seeds the requested shape', async () => {
    summary = await seedDatabase(
      t.app.db,
      TEST_DB,
      seedOptions({ users: 80, posts: 600, likes: 2000, comments: 500, groups: 6, bigGroupMembers: 50, heavyFollows: 40, hotPostComments: 60, seed: 7 }),
    );
    expect(summary).toMatchObject({ users: 80, posts: 600, postLikes: 2000, comments: 500, groups: 6 });
    const counts = async (table: 'users' | 'posts' | 'post_likes' | 'comments' | 'follows' | 'notifications') =>
      Number((await t.app.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    expect(await counts('users')).toBe(80);
    expect(await counts('posts')).toBe(600);
    expect(await counts('post_likes')).toBe(2000);
    expect(await counts('comments')).toBe(500);
    expect(await counts('notifications')).toBe(summary.notifications);
    const heavy = await t.app.db.selectFrom('follows').select((eb) => eb.fn.countAll<number>().as('n')).where('follower_id', '=', summary.heavyFollowerId).executeTakeFirstOrThrow();
    expect(Number(heavy.n)).toBe(40);
    const big = await t.app.db.selectFrom('groups').select(['members', 'name']).where('id', '=', summary.bigGroupId).executeTakeFirstOrThrow();
    expect(big).toEqual({ members: 50, name: SEED_NAMES.bigGroup });
  });

  it('keeps every counter equal to the rows it counts', async () => {
    const mismatches = async (query: string) => (await sql.raw<{ id: string }>(query).execute(t.app.db)).rows;
    expect(await mismatches('select id from posts p where likes <> (select count(*) from post_likes l where l.post_id = p.id)')).toEqual([]);
    expect(await mismatches('select id from posts p where comments <> (select count(*) from comments c where c.post_id = p.id)')).toEqual([]);
    expect(await mismatches('select id from comments c where likes <> (select count(*) from comment_likes l where l.comment_id = c.id)')).toEqual([]);
    expect(await mismatches('select id from comments c where replies <> (select count(*) from comments r where r.parent_comment_id = c.id)')).toEqual([]);
    expect(await mismatches('select id from groups g where members <> (select count(*) from group_members m where m.group_id = g.id)')).toEqual([]);
    // Group posts are by members; replies point at existing posts; threads stay in their post.
    expect(await mismatches('select pg.post_id as id from post_groups pg join posts p on p.id = pg.post_id where not exists (select 1 from group_members m where m.group_id = pg.group_id and m.user_id = p.author_id)')).toEqual([]);
    expect(await mismatches('select id from posts p where reply_to is not null and not exists (select 1 from posts o where o.id = p.reply_to)')).toEqual([]);
    expect(await mismatches('select c.id from comments c join comments parent on parent.id = c.parent_comment_id where parent.post_id <> c.post_id')).toEqual([]);
    // Every account has its counts and last post, as the app keeps them.
    const counted = 'from posts p where p.author_id = u.id and not exists (select 1 from post_groups pg join groups g on g.id = pg.group_id where pg.post_id = p.id and g.is_private = 1)';
    expect(await mismatches(`select u.id from users u left join account_counts a on a.user_id = u.id where a.user_id is null
      or a.followers <> (select count(*) from follows f where f.following_id = u.id) or a.following <> (select count(*) from follows f where f.follower_id = u.id)
      or a.statuses <> (select count(*) ${counted}) or coalesce(a.last_status_at, -1) <> coalesce((select max(p.created_at) ${counted}), -1)`)).toEqual([]);
    const liked = await t.app.db.selectFrom('posts').select(({ fn }) => fn.sum<number>('likes').as('n')).executeTakeFirstOrThrow();
    expect(Number(liked.n)).toBe(2000);
  });

  it('stores search text and hashtags as the app does', async () => {
    const posts = await t.app.db.selectFrom('posts').select(['id', 'text', 'search_text']).execute();
    const tags = await t.app.db.selectFrom('post_hashtags').select(['post_id', 'tag']).execute();
    const tagsOf = new Map<string, string[]>();
    for (const row of tags) tagsOf.set(row.post_id, [...(tagsOf.get(row.post_id) ?? []), row.tag]);
    for (const post of posts) {
      expect(post.search_text).toBe(foldForSearch(post.text));
      expect((tagsOf.get(post.id) ?? []).sort()).toEqual(extractHashtags(post.text).sort());
    }
    for (const table of ['users', 'groups', 'comments'] as const) {
      const wrong = await sql.raw(`select count(*) as n from ${table} where search_text = ''`).execute(t.app.db);
      expect(Number((wrong.rows[0] as { n: number }).n)).toBe(0);
    }
    expect(posts.filter((p) => p.text.includes('#')).length).toBeGreaterThan(50);
  });

  it('is answered by the app: a post, its counts, search and the feeds', async () => {
    const hot = await t.app.inject({ method: 'GET', url: `/api/post/${summary.hotPostId}` });
    expect(hot.statusCode).toBe(200);
    const hotRow = await t.app.db.selectFrom('posts').select(['likes', 'comments', 'text']).where('id', '=', summary.hotPostId).executeTakeFirstOrThrow();
    expect(hot.json()).toMatchObject({ _id: summary.hotPostId, likes: hotRow.likes, comments: 60 });
    expect(hotRow.comments).toBe(60);

    // A seeded post is found by search through the index (FTS5 on SQLite, pg_trgm on PostgreSQL),
    // accents folded: its own text with accents stripped finds it.
    const target = await t.app.db
      .selectFrom('posts')
      .leftJoin('post_groups', 'post_groups.post_id', 'posts.id')
      .select(['posts.id', 'posts.text'])
      .where('post_groups.post_id', 'is', null)
      .where('posts.text', 'like', '% % % % % % %')
      .orderBy('posts.created_at', 'desc')
      .executeTakeFirstOrThrow();
    const words = target.text.split(' ').slice(0, 6).join(' ');
    const query = words.normalize('NFD').replace(/\p{M}/gu, '').toUpperCase();
    const found = new Set<string>();
    for (let page = 1; page <= 30 && !found.has(target.id); page++) {
      const res = await t.app.inject({ method: 'GET', url: `/api/search/for/posts?query=${encodeURIComponent(query)}&page=${page}&sort=newest&time=all` });
      expect(res.statusCode).toBe(200);
      const body = res.json() as { posts: { _id: string }[]; hasMore: boolean };
      for (const p of body.posts) found.add(p._id);
      if (!body.hasMore) break;
    }
    expect(found.has(target.id)).toBe(true);

    const users = await t.app.inject({ method: 'GET', url: `/api/search/for/users?query=${SEED_NAMES.userQuery}` });
    expect(users.statusCode).toBe(200);
    const userList = (users.json() as { userList: { username: string }[] }).userList;
    expect(userList.length).toBeGreaterThan(0);
    for (const user of userList) expect(user.username).toContain(SEED_NAMES.userQuery);

    const feed = await t.app.inject({ method: 'GET', url: '/api/feed?sort=popular&time=all' });
    expect(feed.statusCode).toBe(200);
    const top = (feed.json() as { posts: { _id: string; likes: number }[] }).posts[0]!;
    const count = await t.app.db.selectFrom('post_likes').select((eb) => eb.fn.countAll<number>().as('n')).where('post_id', '=', top._id).executeTakeFirstOrThrow();
    expect(top.likes).toBe(Number(count.n));

    const token = await t.app.signToken({ id: summary.heavyFollowerId, token_version: 0 });
    const following = await t.app.inject({ method: 'GET', url: '/api/feed/following?sort=newest', headers: { authorization: `Bearer ${token}` } });
    expect(following.statusCode).toBe(200);
    expect((following.json() as { posts: unknown[] }).posts.length).toBeGreaterThan(0);
    const group = await t.app.inject({ method: 'GET', url: `/api/group/${SEED_NAMES.bigGroup}/posts`, headers: { authorization: `Bearer ${token}` } });
    expect(group.statusCode).toBe(200);
  });
});
