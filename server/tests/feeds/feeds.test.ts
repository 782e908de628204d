import { beforeAll, describe, expect, it } from 'vitest';
import { LIMITS, PAGE_SIZES } from '#core/limits';
import { addMember, call, createGroup, createPost, createUser, type TestUser } from '../helpers/fixtures';
import { type TestApp, useTestApp } from '../helpers/test-app';
import { expectError } from '../helpers/expect';

const DAY = 24 * 60 * 60 * 1000;

interface Page {
  posts: { _id: string; likes: number; createdAt: number }[];
  hasMore: boolean;
}

async function list(t: TestApp, user: TestUser | null, url: string, query: Record<string, string | number> = {}) {
  const params = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]));
  const qs = params.toString();
  return call(t.app, user, { method: 'GET', url: qs ? `${url}?${qs}` : url });
}

async function ids(t: TestApp, user: TestUser | null, url: string, query: Record<string, string | number> = {}) {
  const res = await list(t, user, url, query);
  expect(res.statusCode).toBe(200);
  return (res.json() as Page).posts.map((p) => p._id);
}

/** Reads every page of a listing, pinned to `before`. */
async function allPages(t: TestApp, user: TestUser | null, url: string, query: Record<string, string | number> = {}) {
  const out: string[] = [];
  for (let page = 1; page < 50; page++) {
    const res = await list(t, user, url, { ...query, page });
    const body = res.json() as Page;
    out.push(...body.posts.map((p) => p._id));
    if (!body.hasMore) break;
  }
  return out;
}

const follow = (t: TestApp, follower: TestUser, following: TestUser) =>
  t.app.db.insertInto('follows').values({ follower_id: follower.id, following_id: following.id, created_at: Date.now() }).execute();

describe('explore feed defaults and paging', () => {
  // Each block here gets its own database, so the explore feed holds exactly the block's posts.
  const t = useTestApp();
  let alice: TestUser;
  const now = Date.now();
  const posts: { id: string }[] = [];

  beforeAll(async () => {
    alice = await createUser(t.app);
    // Ten posts, an hour apart, newest first in `posts`.
    for (let i = 0; i < 10; i++) posts.push(await createPost(t.app, alice, { createdAt: now - (i + 1) * 60 * 60 * 1000 }));
  });

  it('answers four posts, newest first, with hasMore', async () => {
    const res = await list(t, null, '/api/feed');
    expect(res.statusCode).toBe(200);
    const body = res.json() as Page;
    expect(body.posts.map((p) => p._id)).toEqual(posts.slice(0, PAGE_SIZES.posts).map((p) => p.id));
    expect(body.hasMore).toBe(true);
    const last = (await list(t, null, '/api/feed', { page: 3 })).json() as Page;
    expect(last.posts.map((p) => p._id)).toEqual(posts.slice(8).map((p) => p.id));
    expect(last.hasMore).toBe(false);
  });

  it('page 0 reads as page 1, and the limit is capped', async () => {
    expect(await ids(t, null, '/api/feed', { page: 0 })).toEqual(await ids(t, null, '/api/feed'));
    const res = await list(t, null, '/api/feed', { limit: 1000 });
    expect((res.json() as Page).posts).toHaveLength(10);
    expect(await ids(t, null, '/api/feed', { limit: 2, page: 2 })).toEqual([posts[2]!.id, posts[3]!.id]);
    expect(LIMITS.maxPageSize).toBeLessThan(1000);
  });

  it('rejects a sort or time outside the lists', async () => {
    expect((await list(t, null, '/api/feed', { sort: 'oldest' })).statusCode).toBe(400);
    expect((await list(t, null, '/api/feed', { time: 'decade' })).statusCode).toBe(400);
  });

  it('with `before`, pages return each post once while new posts arrive', async () => {
    const before = Date.now();
    const seen: string[] = [];
    const first = (await list(t, null, '/api/feed', { before, page: 1 })).json() as Page;
    seen.push(...first.posts.map((p) => p._id));
    const arrived = [await createPost(t.app, alice, { createdAt: before + 5 }), await createPost(t.app, alice, { createdAt: before + 10 })];
    for (let page = 2; page <= 3; page++) {
      const body = (await list(t, null, '/api/feed', { before, page })).json() as Page;
      seen.push(...body.posts.map((p) => p._id));
    }
    expect(seen).toEqual(posts.map((p) => p.id));
    expect(new Set(seen).size).toBe(seen.length);
    // Without the snapshot the new posts shift later pages, which is what `before` prevents.
    const unpinned = await ids(t, null, '/api/feed');
    expect(unpinned.slice(0, 2)).toEqual([arrived[1]!.id, arrived[0]!.id]);
    await t.app.db.deleteFrom('posts').where('id', 'in', arrived.map((p) => p.id)).execute();
    t.app.invalidateVisitorCache();
  });
});

describe('popular sort and time windows', () => {
  const t = useTestApp();
  let alice: TestUser;
  const now = Date.now();
  const made: Record<string, string> = {};

  beforeAll(async () => {
    alice = await createUser(t.app);
    const spec: [string, number, number][] = [
      ['hourOld5', 60 * 60 * 1000, 5],
      ['twoHours5', 2 * 60 * 60 * 1000, 5],
      ['threeDays9', 3 * DAY, 9],
      ['twoWeeks20', 14 * DAY, 20],
      ['twoMonths30', 60 * DAY, 30],
      ['twoYears40', 2 * 365 * DAY, 40],
      ['fresh0', 60 * 1000, 0],
    ];
    for (const [name, age, likes] of spec) made[name] = (await createPost(t.app, alice, { createdAt: now - age, likes })).id;
  });

  const names = (list: string[]) => list.map((id) => Object.keys(made).find((k) => made[k] === id));

  it('popular: most likes first, newest first on ties, one week by default', async () => {
    const result = await ids(t, null, '/api/feed', { sort: 'popular', limit: 50 });
    expect(names(result)).toEqual(['threeDays9', 'hourOld5', 'twoHours5', 'fresh0']);
  });

  it.each([
    ['day', ['hourOld5', 'twoHours5', 'fresh0']],
    ['week', ['threeDays9', 'hourOld5', 'twoHours5', 'fresh0']],
    ['month', ['twoWeeks20', 'threeDays9', 'hourOld5', 'twoHours5', 'fresh0']],
    ['year', ['twoMonths30', 'twoWeeks20', 'threeDays9', 'hourOld5', 'twoHours5', 'fresh0']],
    ['all', ['twoYears40', 'twoMonths30', 'twoWeeks20', 'threeDays9', 'hourOld5', 'twoHours5', 'fresh0']],
  ])('popular within %s', async (time, expected) => {
    expect(names(await ids(t, null, '/api/feed', { sort: 'popular', time, limit: 50 }))).toEqual(expected);
  });

  it('newest runs back to the first post unless a time is given', async () => {
    const all = await ids(t, null, '/api/feed', { limit: 50 });
    expect(names(all)).toEqual(['fresh0', 'hourOld5', 'twoHours5', 'threeDays9', 'twoWeeks20', 'twoMonths30', 'twoYears40']);
    expect(names(await ids(t, null, '/api/feed', { time: 'day', limit: 50 }))).toEqual(['fresh0', 'hourOld5', 'twoHours5']);
  });

  it('popular pages keep ties in a stable order', async () => {
    const paged = await allPages(t, null, '/api/feed', { sort: 'popular', time: 'all', limit: 2, before: Date.now() });
    expect(names(paged)).toEqual(['twoYears40', 'twoMonths30', 'twoWeeks20', 'threeDays9', 'hourOld5', 'twoHours5', 'fresh0']);
  });
});

describe('scoped lists', () => {
  const t = useTestApp();
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let viewer: TestUser;
  let open: { id: string; name: string };
  let secret: { id: string; name: string };
  const p: Record<string, string> = {};

  beforeAll(async () => {
    alice = await createUser(t.app, { username: `Alice${Date.now()}` });
    bob = await createUser(t.app);
    carol = await createUser(t.app);
    viewer = await createUser(t.app);
    open = await createGroup(t.app, bob);
    secret = await createGroup(t.app, bob, { isPrivate: true });
    await addMember(t.app, open.id, alice);
    await addMember(t.app, secret.id, alice);
    await addMember(t.app, open.id, viewer);
    const base = Date.now() - 60 * 60 * 1000;
    p.aliceTagged = (await createPost(t.app, alice, { text: 'Šťastný #Summer day', createdAt: base + 1 })).id;
    p.aliceSecret = (await createPost(t.app, alice, { text: 'hidden #summer plans', groupIds: [secret.id], createdAt: base + 2 })).id;
    p.aliceOpen = (await createPost(t.app, alice, { text: 'open group news', groupIds: [open.id], createdAt: base + 3 })).id;
    p.bobPlain = (await createPost(t.app, bob, { text: 'bob says #winter', createdAt: base + 4 })).id;
    p.bobBoth = (await createPost(t.app, bob, { text: 'both groups #summer', groupIds: [open.id, secret.id], createdAt: base + 5 })).id;
    p.carolPlain = (await createPost(t.app, carol, { text: 'carol here', createdAt: base + 6 })).id;
    for (const [table, tags] of [
      [p.aliceTagged, ['summer']],
      [p.aliceSecret, ['summer']],
      [p.bobPlain, ['winter']],
      [p.bobBoth, ['summer']],
    ] as const) {
      // A hashtag row carries its post's date, as the app writes it: a tag's list is read in that order.
      const { created_at } = await t.app.db.selectFrom('posts').select('created_at').where('id', '=', table).executeTakeFirstOrThrow();
      for (const tag of tags) await t.app.db.insertInto('post_hashtags').values({ post_id: table, tag, created_at }).execute();
    }
    await follow(t, viewer, alice);
    await follow(t, viewer, bob);
  });

  it('explore never shows private-group posts to visitors or non-members', async () => {
    const expected = [p.carolPlain, p.bobPlain, p.aliceOpen, p.aliceTagged];
    expect(await ids(t, null, '/api/feed', { limit: 50 })).toEqual(expected);
    expect(await ids(t, viewer, '/api/feed', { limit: 50 })).toEqual(expected);
    // Hidden posts are filtered in the query, so a page is full and hasMore is exact.
    const page = (await list(t, null, '/api/feed')).json() as Page;
    expect(page.posts.map((x) => x._id)).toEqual(expected);
    expect(page.hasMore).toBe(false);
    const second = (await list(t, viewer, '/api/feed', { limit: 2, page: 2 })).json() as Page;
    expect(second.posts.map((x) => x._id)).toEqual(expected.slice(2));
    expect(await ids(t, alice, '/api/feed', { limit: 50 })).toEqual([
      p.carolPlain, p.bobBoth, p.bobPlain, p.aliceOpen, p.aliceSecret, p.aliceTagged,
    ]);
  });

  it('following: posts of followed users only, needs a token', async () => {
    expect(await ids(t, viewer, '/api/feed/following', { limit: 50 })).toEqual([p.bobPlain, p.aliceOpen, p.aliceTagged]);
    const res = await list(t, null, '/api/feed/following');
    expectError(res, 401, 'no_token');
    expect(await ids(t, carol, '/api/feed/following')).toEqual([]);
  });

  it('groups: posts in the caller’s groups, needs a token', async () => {
    expect(await ids(t, viewer, '/api/feed/groups', { limit: 50 })).toEqual([p.aliceOpen]);
    expect(await ids(t, alice, '/api/feed/groups', { limit: 50 })).toEqual([p.bobBoth, p.aliceOpen, p.aliceSecret]);
    const res = await list(t, null, '/api/feed/groups');
    expectError(res, 401, 'no_token');
  });

  it('hashtag: case-insensitive, a leading # ignored, private posts hidden', async () => {
    expect(await ids(t, null, '/api/feed/hash/SUMMER', { limit: 50 })).toEqual([p.aliceTagged]);
    expect(await ids(t, null, `/api/feed/hash/${encodeURIComponent('#summer')}`)).toEqual([p.aliceTagged]);
    expect(await ids(t, alice, '/api/feed/hash/summer', { limit: 50 })).toEqual([p.bobBoth, p.aliceSecret, p.aliceTagged]);
    expect(await ids(t, null, '/api/feed/hash/nothing')).toEqual([]);
  });

  it('hashtags of posts made through the API are listed', async () => {
    const made = await call(t.app, carol, { method: 'POST', url: '/api/post', payload: { text: 'new #Autumn leaves' } });
    expect(await ids(t, null, '/api/feed/hash/autumn')).toEqual([made.json()._id]);
    await t.app.db.deleteFrom('posts').where('id', '=', made.json()._id).execute();
  });

  it('profile posts: by username (any case), 404 user_not_found, private posts hidden', async () => {
    expect(await ids(t, null, `/api/profile/posts/${alice.username.toLowerCase()}`, { limit: 50 })).toEqual([p.aliceOpen, p.aliceTagged]);
    expect(await ids(t, alice, `/api/profile/posts/${alice.username}`, { limit: 50 })).toEqual([
      p.aliceOpen, p.aliceSecret, p.aliceTagged,
    ]);
    const res = await list(t, null, '/api/profile/posts/nobody_at_all');
    expectError(res, 404, 'user_not_found');
  });

  it('group posts: only the group’s, 404 didnt_find_group, a private group is for members', async () => {
    expect(await ids(t, null, `/api/group/${open.name.toUpperCase()}/posts`, { limit: 50 })).toEqual([p.aliceOpen]);
    // A post also tagged with a private group stays hidden from non-members even in a public group.
    expect(await ids(t, alice, `/api/group/${open.name}/posts`, { limit: 50 })).toEqual([p.bobBoth, p.aliceOpen]);
    expect(await ids(t, alice, `/api/group/${secret.name}/posts`, { limit: 50 })).toEqual([p.bobBoth, p.aliceSecret]);
    for (const user of [null, viewer]) {
      const res = await list(t, user, `/api/group/${secret.name}/posts`);
      expectError(res, 403, 'not_member');
    }
    const missing = await list(t, null, '/api/group/nosuchgroup/posts');
    expectError(missing, 404, 'didnt_find_group');
  });

  it('search: accent- and case-insensitive, private posts hidden, blank finds nothing', async () => {
    expect(await ids(t, null, '/api/search/for/posts', { query: 'STASTNY' })).toEqual([p.aliceTagged]);
    expect(await ids(t, null, '/api/search/for/posts', { query: 'summer', limit: 50 })).toEqual([p.aliceTagged]);
    expect(await ids(t, alice, '/api/search/for/posts', { query: 'summer', limit: 50 })).toEqual([
      p.bobBoth, p.aliceSecret, p.aliceTagged,
    ]);
    expect(await ids(t, null, '/api/search/for/posts', { query: '   ' })).toEqual([]);
    expect(await ids(t, null, '/api/search/for/posts', { query: '100%' })).toEqual([]);
  });

  it('each list answers the post card shape', async () => {
    const res = await list(t, alice, '/api/feed/groups');
    const post = (res.json() as { posts: Record<string, unknown>[] }).posts[0]!;
    expect(Object.keys(post).sort()).toEqual(
      [
        '_id', 'text', 'author', 'createdAt', 'likes', 'liked', 'comments', 'replyingTo', 'groups', 'mentions', 'itsme',
        'adminGroups', 'pinnedGroups', 'ownedGroups', 'authorOwnedGroups', 'bannedGroups', 'canReply', 'images', 'media', 'alts', 'contentWarning', 'editedAt', 'remote',
      ].sort(),
    );
  });
});

describe('defaults of every list', () => {
  const t = useTestApp();
  let author: TestUser;
  let reader: TestUser;
  let group: { id: string; name: string };
  const recent: string[] = [];
  let old: string;

  beforeAll(async () => {
    author = await createUser(t.app);
    reader = await createUser(t.app);
    group = await createGroup(t.app, author);
    await addMember(t.app, group.id, reader);
    await follow(t, reader, author);
    const now = Date.now();
    const make = async (age: number, likes: number) => {
      const post = await createPost(t.app, author, { text: 'quintet #five', groupIds: [group.id], createdAt: now - age, likes });
      await t.app.db.insertInto('post_hashtags').values({ post_id: post.id, tag: 'five', created_at: now - age }).execute();
      return post.id;
    };
    for (let hour = 1; hour <= 5; hour++) recent.push(await make(hour * 60 * 60 * 1000, 0));
    old = await make(8 * DAY, 100);
  });

  const urls = () => [
    ['/api/feed', {}],
    ['/api/feed/following', {}],
    ['/api/feed/groups', {}],
    ['/api/feed/hash/five', {}],
    [`/api/profile/posts/${author.username}`, {}],
    [`/api/group/${group.name}/posts`, {}],
    ['/api/search/for/posts', { query: 'quintet' }],
  ] as const;

  it('newest first, four per page, back to the oldest post', async () => {
    for (const [url, query] of urls()) {
      const first = (await list(t, reader, url, query)).json() as Page;
      expect(first.posts.map((p) => p._id), url).toEqual(recent.slice(0, 4));
      expect(first.hasMore, url).toBe(true);
      const second = (await list(t, reader, url, { ...query, page: 2 })).json() as Page;
      expect(second.posts.map((p) => p._id), url).toEqual([recent[4], old]);
      expect(second.hasMore, url).toBe(false);
    }
  });

  it('popular looks back one week unless told otherwise', async () => {
    for (const [url, query] of urls()) {
      const week = await allPages(t, reader, url, { ...query, sort: 'popular' });
      expect(week, url).toEqual(recent);
      const all = await ids(t, reader, url, { ...query, sort: 'popular', time: 'all' });
      expect(all[0], url).toBe(old);
    }
  });
});
