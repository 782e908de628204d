import { describe, expect, it } from 'vitest';
import { Account, Context, Relationship, Status } from '#core/api/client-entities';
import en from '../../../locales/en/error.json' with { type: 'json' };
import { runAdminCommand } from '../../src/modules/reports/admin';
import { addMember, call, createFollow, createGroup, createPost, createUser, type TestUser } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';
import { appGet, expectShape, linkOf } from './client-calls';
import { appToken } from './oauth-helpers';

/** The client API's reads: entities, their lookups, threads, timelines and paging, as apps call them. */

const t = useTestApp();

/** A GET as an app makes it: as a visitor, or with the access token an app holds. */
const get = (url: string, token?: string) => appGet(t.app, url, token);

describe('client API: accounts', () => {
  it('reads a person by id and by name, with the bio as HTML and the counts', async () => {
    const ana = await createUser(t.app);
    const fan = await createUser(t.app);
    await t.app.db.updateTable('users').set({ bio: 'Tea & <b>cake</b>\n\nThursdays' }).where('id', '=', ana.id).execute();
    await createFollow(t.app, fan, ana);
    await createPost(t.app, ana);
    const { status, body } = await get(`/api/v1/accounts/${ana.id}`);
    expect(status).toBe(200);
    expectShape(Account, body);
    expect(body).toMatchObject({
      id: ana.id, username: ana.username, acct: ana.username, display_name: ana.username, group: false,
      note: '<p>Tea &#38; &#60;b&#62;cake&#60;/b&#62;</p><p>Thursdays</p>',
      url: `http://kruh.test/u/${ana.username}`, followers_count: 1, following_count: 0, statuses_count: 1,
    });
    expect(body.avatar).toMatch(/^http:\/\/kruh\.test\/media\/pfp\//);
    for (const acct of [ana.username, `@${ana.username}`, `${ana.username.toUpperCase()}@kruh.test`]) {
      const found = await get(`/api/v1/accounts/lookup?acct=${encodeURIComponent(acct)}`);
      expect({ status: found.status, id: found.body.id }).toEqual({ status: 200, id: ana.id });
    }
  });

  it('reads a group as an account with group: true and an id of its own kind', async () => {
    const owner = await createUser(t.app);
    const group = await createGroup(t.app, owner);
    await createPost(t.app, owner, { groupIds: [group.id] });
    const { status, body } = await get(`/api/v1/accounts/g${group.id}`);
    expect(status).toBe(200);
    expectShape(Account, body);
    expect(body).toMatchObject({ id: `g${group.id}`, username: group.name, group: true, followers_count: 1, statuses_count: 1, locked: false });
    expect((await get(`/api/v1/accounts/lookup?acct=${group.name}`)).body.id).toBe(`g${group.id}`);
    // A group's id read as a person's names no one.
    expect((await get(`/api/v1/accounts/${group.id}`)).status).toBe(404);
  });

  it.each(['000000000000000000000000', 'g000000000000000000000000', 'nonsense'])('answers %s with 404 {error, message}', async (id) => {
    const { status, body } = await get(`/api/v1/accounts/${id}`);
    expect({ status, body }).toEqual({ status: 404, body: { error: en.user_not_found, message: 'error/user_not_found' } });
  });

  it('lists followers and follows newest first, paged by the Link header', async () => {
    const star = await createUser(t.app);
    const fans: TestUser[] = [];
    for (let i = 0; i < 3; i++) {
      const fan = await createUser(t.app);
      await createFollow(t.app, fan, star, { createdAt: 1_000_000 + i });
      fans.push(fan);
    }
    const first = await get(`/api/v1/accounts/${star.id}/followers?limit=2`);
    expect(first.body.map((a: { id: string }) => a.id)).toEqual([fans[2]!.id, fans[1]!.id]);
    first.body.forEach((a: unknown) => expectShape(Account, a));
    const next = await get(linkOf(first.link, 'next')!);
    expect(next.body.map((a: { id: string }) => a.id)).toEqual([fans[0]!.id]);
    expect(linkOf(next.link, 'next')).toBeUndefined();
    const back = await get(linkOf(next.link, 'prev')!);
    expect(back.body.map((a: { id: string }) => a.id)).toEqual([fans[2]!.id, fans[1]!.id]);
    const following = await get(`/api/v1/accounts/${fans[0]!.id}/following`);
    expect(following.body.map((a: { id: string }) => a.id)).toEqual([star.id]);
  });

  it("answers the caller's standing towards accounts", async () => {
    const me = await createUser(t.app);
    const other = await createUser(t.app);
    const owner = await createUser(t.app);
    const group = await createGroup(t.app, owner);
    await addMember(t.app, group.id, me);
    await createFollow(t.app, me, other, { notify: true });
    const token = await appToken(t.app, me, 'read');
    const rels = (await get(`/api/v1/accounts/relationships?id[]=${other.id}&id[]=g${group.id}&id[]=${owner.id}&id[]=nonsense`, token)).body as Relationship[];
    rels.forEach((r) => expectShape(Relationship, r));
    expect(rels.map((r) => [r.id, r.following, r.notifying, r.followed_by])).toEqual([
      [other.id, true, true, false],
      [`g${group.id}`, true, false, false],
      [owner.id, false, false, false],
    ]);
    const refused = await get(`/api/v1/accounts/relationships?id[]=${other.id}`);
    expect({ status: refused.status, message: refused.body.message }).toEqual({ status: 401, message: 'error/no_token' });
  });
});

describe('client API: statuses and threads', () => {
  it('maps a post: content as HTML, warning, tags, mentions, images with their descriptions', async () => {
    const author = await createUser(t.app);
    const named = await createUser(t.app);
    const made = await call(t.app, author, { method: 'POST', url: '/api/post', payload: { text: `Look #Tea with @${named.username} <3`, mentions: [named.username], contentWarning: 'spoilers' } });
    expect(made.statusCode).toBe(201);
    const id = made.json()._id as string;
    await t.app.db.updateTable('posts').set({ images: 1, image_alts: JSON.stringify(['a cup']) }).where('id', '=', id).execute();
    const { status, body } = await get(`/api/v1/statuses/${id}`);
    expect(status).toBe(200);
    expectShape(Status, body);
    expect(body).toMatchObject({
      id, visibility: 'public', sensitive: true, spoiler_text: 'spoilers', reblog: null, reblogs_count: 0, favourited: false, in_reply_to_id: null,
      account: { id: author.id, username: author.username },
      tags: [{ name: 'tea', url: 'http://kruh.test/h/tea' }],
      mentions: [{ id: named.id, acct: named.username }],
      media_attachments: [{ type: 'image', description: 'a cup' }],
    });
    expect(body.content).toContain('&#60;3');
    expect(body.content).toContain('href="http://kruh.test/h/tea" class="mention hashtag" rel="tag">#<span>Tea</span></a>');
    expect(body.content).not.toContain('<3');
  });

  it('reads comments as statuses answering their post or comment, and threads both ways', async () => {
    const author = await createUser(t.app);
    const fan = await createUser(t.app);
    const post = await createPost(t.app, author, { text: 'the post' });
    const comment = (await call(t.app, fan, { method: 'POST', url: '/api/comment/', payload: { text: 'first!', parent: post.id } })).json();
    const reply = (await call(t.app, author, { method: 'POST', url: '/api/comment/', payload: { text: 'thanks', parent: comment._id } })).json();
    await call(t.app, fan, { method: 'PATCH', url: `/api/post/${post.id}/like` });

    const commentStatus = await get(`/api/v1/statuses/c${comment._id}`);
    expectShape(Status, commentStatus.body);
    expect(commentStatus.body).toMatchObject({ id: `c${comment._id}`, in_reply_to_id: post.id, account: { id: fan.id }, replies_count: 1 });

    const thread = await get(`/api/v1/statuses/${post.id}/context`);
    expectShape(Context, thread.body);
    expect(thread.body.ancestors).toEqual([]);
    expect(thread.body.descendants.map((s: { id: string; in_reply_to_id: string }) => [s.id, s.in_reply_to_id])).toEqual([
      [`c${comment._id}`, post.id],
      [`c${reply._id}`, `c${comment._id}`],
    ]);
    const up = await get(`/api/v1/statuses/c${reply._id}/context`);
    expect(up.body.ancestors.map((s: { id: string }) => s.id)).toEqual([post.id, `c${comment._id}`]);
    expect(up.body.descendants).toEqual([]);

    const likers = await get(`/api/v1/statuses/${post.id}/favourited_by`);
    expect(likers.body.map((a: { id: string }) => a.id)).toEqual([fan.id]);
    expect((await get(`/api/v1/statuses/${post.id}`)).body.favourites_count).toBe(1);
  });

  it('shows a reply-with-post as a post linking its original', async () => {
    const author = await createUser(t.app);
    const original = await createPost(t.app, author);
    const answer = await createPost(t.app, author, { replyTo: original.id });
    const { body } = await get(`/api/v1/statuses/${answer.id}`);
    expect(body.in_reply_to_id).toBeNull();
    expect(body.content).toContain(`<a href="http://kruh.test/p/${original.id}">`);
  });

  it.each(['000000000000000000000000', 'c000000000000000000000000', 'x1'])('answers an unknown status %s with 404', async (id) => {
    for (const path of ['', '/context', '/favourited_by']) {
      const { status, body } = await get(`/api/v1/statuses/${id}${path}`);
      expect({ status, body }).toEqual({ status: 404, body: { error: en.didnt_find_post, message: 'error/didnt_find_post' } });
    }
  });
});

describe('client API: timelines', () => {
  it('pages the public timeline by max_id, min_id and since_id, as the Link header says', async () => {
    const author = await createUser(t.app);
    const base = Date.now() + 10_000_000;
    const posts = [];
    for (let i = 0; i < 5; i++) posts.push((await createPost(t.app, author, { createdAt: base + i })).id);
    const newest = [...posts].reverse();
    const first = await get('/api/v1/timelines/public?limit=2');
    expect(first.body.map((s: { id: string }) => s.id)).toEqual(newest.slice(0, 2));
    first.body.forEach((s: unknown) => expectShape(Status, s));
    expect(linkOf(first.link, 'next')).toBe(`/api/v1/timelines/public?limit=2&max_id=${newest[1]}`);
    const second = await get(linkOf(first.link, 'next')!);
    expect(second.body.map((s: { id: string }) => s.id)).toEqual(newest.slice(2, 4));
    // Back from the second page: the page just newer than it, not the newest.
    const third = await get(`/api/v1/timelines/public?limit=1&min_id=${newest[3]}`);
    expect(third.body.map((s: { id: string }) => s.id)).toEqual([newest[2]]);
    const since = await get(`/api/v1/timelines/public?limit=1&since_id=${newest[3]}`);
    expect(since.body.map((s: { id: string }) => s.id)).toEqual([newest[0]]);
    expect((await get(`/api/v1/timelines/public?limit=1000&max_id=${newest[4]}`)).body.length).toBeLessThanOrEqual(40);
    expect((await get('/api/v1/timelines/public?local=true&limit=1')).body[0].id).toBe(newest[0]);
  });

  it('lists a hashtag, an account, its pictures only and a group pinned post', async () => {
    const author = await createUser(t.app);
    const tagged = (await call(t.app, author, { method: 'POST', url: '/api/post', payload: { text: 'about #Zebras' } })).json()._id as string;
    const pictured = await createPost(t.app, author);
    await t.app.db.updateTable('posts').set({ images: 1 }).where('id', '=', pictured.id).execute();
    expect((await get('/api/v1/timelines/tag/zebras')).body.map((s: { id: string }) => s.id)).toEqual([tagged]);
    expect((await get(`/api/v1/accounts/${author.id}/statuses`)).body.map((s: { id: string }) => s.id)).toEqual([pictured.id, tagged]);
    expect((await get(`/api/v1/accounts/${author.id}/statuses?only_media=true`)).body.map((s: { id: string }) => s.id)).toEqual([pictured.id]);
    expect((await get(`/api/v1/accounts/${author.id}/statuses?pinned=true`)).body).toEqual([]);

    const group = await createGroup(t.app, author);
    const inGroup = await createPost(t.app, author, { groupIds: [group.id] });
    await t.app.db.updateTable('groups').set({ pinned_post_id: inGroup.id }).where('id', '=', group.id).execute();
    const pinned = await get(`/api/v1/accounts/g${group.id}/statuses?pinned=true`);
    expect(pinned.body.map((s: { id: string; pinned: boolean }) => [s.id, s.pinned])).toEqual([[inGroup.id, true]]);
    expect((await get(`/api/v1/accounts/g${group.id}/statuses`)).body.map((s: { id: string }) => s.id)).toEqual([inGroup.id]);
  });

  it("home: the follows' posts and the groups', and refused without a token", async () => {
    const me = await createUser(t.app);
    const followed = await createUser(t.app);
    const stranger = await createUser(t.app);
    const group = await createGroup(t.app, stranger, { isPrivate: true });
    await addMember(t.app, group.id, me);
    await createFollow(t.app, me, followed);
    const base = Date.now() + 20_000_000;
    const fromFollowed = await createPost(t.app, followed, { createdAt: base });
    const inGroup = await createPost(t.app, stranger, { groupIds: [group.id], createdAt: base + 1 });
    await createPost(t.app, stranger, { createdAt: base + 2 });
    const token = await appToken(t.app, me, 'read:statuses');
    const page = await get('/api/v1/timelines/home?limit=1', token);
    expect(page.body.map((s: { id: string; visibility: string }) => [s.id, s.visibility])).toEqual([[inGroup.id, 'private']]);
    const older = await get(linkOf(page.link, 'next')!, token);
    expect(older.body.map((s: { id: string }) => s.id)).toEqual([fromFollowed.id]);
    // The group's private post is the member's to read, through its own page too.
    expect((await get(`/api/v1/statuses/${inGroup.id}`, token)).status).toBe(200);
    expect((await get(`/api/v1/statuses/${inGroup.id}`)).status).toBe(404);
    const refused = await get('/api/v1/timelines/home');
    expect({ status: refused.status, body: refused.body }).toEqual({ status: 401, body: { error: en.no_token, message: 'error/no_token' } });
    const narrow = await get('/api/v1/timelines/home', await appToken(t.app, me, 'read:accounts'));
    expect({ status: narrow.status, message: narrow.body.message }).toEqual({ status: 403, message: 'error/insufficient_scope' });
  });

  it("favourites: the caller's liked posts, none for a visitor", async () => {
    const me = await createUser(t.app);
    const author = await createUser(t.app);
    const liked = await createPost(t.app, author);
    await call(t.app, me, { method: 'PATCH', url: `/api/post/${liked.id}/like` });
    const page = await get('/api/v1/favourites', await appToken(t.app, me, 'read'));
    expect(page.body.map((s: { id: string; favourited: boolean }) => [s.id, s.favourited])).toEqual([[liked.id, true]]);
    expect((await get('/api/v1/favourites')).body).toEqual([]);
  });
});

describe('client API: hostile paging', () => {
  it('reads a huge limit as the largest page, refuses a limit under 1 and an id of nothing as an empty page', async () => {
    const user = await createUser(t.app);
    await createPost(t.app, user);
    const lists = [
      '/api/v1/timelines/public', '/api/v1/timelines/tag/paging', `/api/v1/accounts/${user.id}/statuses`, `/api/v1/accounts/${user.id}/followers`,
      `/api/v1/accounts/${user.id}/following`, '/api/v1/favourites', '/api/v1/trends/statuses',
    ];
    const failures: string[] = [];
    for (const list of lists) {
      for (const query of ['limit=1e308', 'limit=99999999999999999999', 'max_id=zz', 'min_id=9_zz', 'since_id=c0', 'max_id=99999999999999999_x']) {
        const res = await t.app.inject({ method: 'GET', url: `${list}?${query}` });
        if (res.statusCode !== 200 || !Array.isArray(res.json())) failures.push(`${list}?${query} -> ${res.statusCode}`);
      }
      for (const query of ['limit=0', 'limit=-5', 'limit=Infinity', 'limit=1e400', 'limit=abc']) {
        const res = await t.app.inject({ method: 'GET', url: `${list}?${query}` });
        if (res.statusCode !== 400 || !String(res.json().message).startsWith('error/')) failures.push(`${list}?${query} -> ${res.statusCode}`);
      }
    }
    expect(failures).toEqual([]);
  });
});

describe('client API: what apps ask as they start', () => {
  it.each(['/api/v1/custom_emojis', '/api/v2/filters', '/api/v1/lists', '/api/v1/followed_tags', '/api/v1/trends/tags', '/api/v1/trends/links', '/api/v1/announcements', '/api/v1/bookmarks', '/api/v1/conversations', '/api/v1/domain_blocks', '/api/v2/suggestions'])(
    '%s answers an empty list',
    async (url) => {
      expect(await get(url)).toMatchObject({ status: 200, body: [] });
    },
  );

  it('trending statuses are the popular public posts', async () => {
    const author = await createUser(t.app);
    const popular = await createPost(t.app, author, { likes: 999 });
    const { status, body } = await get('/api/v1/trends/statuses?limit=1');
    expect({ status, ids: body.map((s: { id: string }) => s.id) }).toEqual({ status: 200, ids: [popular.id] });
  });

  it('the extended description is the about text as HTML', async () => {
    const mod = await createUser(t.app);
    await runAdminCommand(t.app.db, { grant: mod.username });
    const settings = { name: 'Friends', description: 'A small place', about: 'Tea on <Thursdays>.', rules: [], contact: 'admin@kruh.test' };
    expect((await call(t.app, mod, { method: 'PUT', url: '/api/instance', payload: settings })).statusCode).toBe(200);
    const { status, body } = await get('/api/v1/instance/extended_description');
    expect({ status, content: body.content }).toEqual({ status: 200, content: '<p>Tea on &#60;Thursdays&#62;.</p>' });
  });

  it('keeps the read position per person and timeline, a version per save', async () => {
    const me = await createUser(t.app);
    const other = await createUser(t.app);
    const token = await appToken(t.app, me, 'read write');
    const post = (payload: Record<string, unknown> | string, form = false) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/markers',
        headers: { authorization: `Bearer ${token}`, 'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json' },
        payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
      });
    expect((await get('/api/v1/markers?timeline[]=home&timeline[]=notifications', token)).body).toEqual({});
    expect((await post({ home: { last_read_id: 'aaa' } })).statusCode).toBe(200);
    const saved = (await post('home[last_read_id]=bbb&notifications[last_read_id]=nnn', true)).json();
    expect(saved).toMatchObject({ home: { last_read_id: 'bbb', version: 2 }, notifications: { last_read_id: 'nnn', version: 1 } });
    expect((await get('/api/v1/markers?timeline[]=home', await appToken(t.app, other, 'read'))).body).toEqual({});
    expect((await get('/api/v1/markers?timeline[]=home&timeline[]=elsewhere', token)).body).toEqual({ home: saved.home });
    const readOnly = await appToken(t.app, me, 'read');
    const refused = await t.app.inject({ method: 'POST', url: '/api/v1/markers', headers: { authorization: `Bearer ${readOnly}` }, payload: { home: { last_read_id: 'x' } } });
    expect({ status: refused.statusCode, message: refused.json().message }).toEqual({ status: 403, message: 'error/insufficient_scope' });
    expect((await get('/api/v1/preferences', token)).body).toMatchObject({ 'posting:default:visibility': 'public' });
    for (const [method, url] of [['GET', '/api/v1/markers?timeline[]=home'], ['POST', '/api/v1/markers'], ['GET', '/api/v1/preferences']] as const) {
      const res = await t.app.inject({ method, url, ...(method === 'POST' ? { payload: { home: { last_read_id: 'x' } } } : {}) });
      expect({ url, status: res.statusCode }).toEqual({ url, status: 401 });
    }
  });
});
