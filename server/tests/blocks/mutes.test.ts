import { beforeAll, describe, expect, it } from 'vitest';
import { call, createFollow, createUser, type TestUser } from '../helpers/fixtures';
import { expectError, expectInfo } from '../helpers/expect';
import { useTestApp } from '../helpers/test-app';

/**
 * Mutes are the muter's own: a muted user's posts and a muted hashtag's posts leave the muter's
 * feeds, a muted user's notifications leave their list; direct reads, profiles and searches stay,
 * and nothing changes for anyone else, the muted user included.
 */

const t = useTestApp();

async function runJobs(): Promise<void> {
  const { runDueJobs } = await import('../../src/lib/jobs/worker');
  await runDueJobs(t.app);
}

const get = (user: TestUser | null, url: string) => call(t.app, user, { method: 'GET', url });

interface Scene {
  muter: TestUser;
  muted: TestUser;
  other: TestUser;
  group: string;
  mutedPost: string;
  taggedPost: string;
  plainPost: string;
  muterPost: string;
}

let s: Scene;

async function post(user: TestUser, text: string, groupId: string, mentions: string[] = []): Promise<string> {
  const res = await call(t.app, user, { method: 'POST', url: '/api/post', payload: { text, groups: [groupId], mentions } });
  if (res.statusCode !== 201) throw new Error(`post: ${res.statusCode} ${res.body}`);
  return res.json()._id;
}

beforeAll(async () => {
  const muter = await createUser(t.app, { username: 'mutemuter' });
  const muted = await createUser(t.app, { username: 'mutemuted' });
  const other = await createUser(t.app, { username: 'muteother' });
  const group = 'Mute Hall';
  const created = await call(t.app, other, { method: 'POST', url: '/api/group', payload: { name: group } });
  const groupId = created.json().group._id as string;
  for (const user of [muter, muted]) await call(t.app, user, { method: 'PUT', url: `/api/group/${group}/join` });
  for (const [a, b] of [[muter, muted], [muter, other], [muted, muter]] as const) await createFollow(t.app, a, b);

  const mutedPost = await post(muted, 'mutedwords #mutecommon', groupId);
  const taggedPost = await post(other, 'taggedwords #mutecommon #mutenoise', groupId);
  const plainPost = await post(other, 'plainwords #mutecommon', groupId);
  const muterPost = await post(muter, 'muterwords #mutecommon', groupId);

  expectInfo(await call(t.app, muter, { method: 'PUT', url: `/api/mute/${muted.id}` }), 'user_muted');
  expectInfo(await call(t.app, muter, { method: 'PUT', url: '/api/mute/tag/%23MuteNoise' }), 'tag_muted');
  s = { muter, muted, other, group, mutedPost, taggedPost, plainPost, muterPost };
});

const feeds = () => ['/api/feed', '/api/feed?sort=popular&time=all', '/api/feed/following', '/api/feed/groups', '/api/feed/hash/mutecommon', `/api/group/${s.group}/posts`];

describe('mutes', () => {
  it("the muted user's posts and the muted hashtag's posts leave every feed of the muter", async () => {
    for (const url of feeds()) {
      const body = (await get(s.muter, url)).body;
      expect({ url, muted: body.includes(s.mutedPost), tagged: body.includes(s.taggedPost), plain: body.includes(s.plainPost) })
        .toEqual({ url, muted: false, tagged: false, plain: true });
    }
  });

  it('the feeds of everyone else, the muted user included, are unchanged', async () => {
    for (const url of ['/api/feed', '/api/feed/groups', '/api/feed/hash/mutecommon']) {
      for (const viewer of [s.muted, s.other]) {
        const body = (await get(viewer, url)).body;
        expect([url, body.includes(s.mutedPost), body.includes(s.taggedPost), body.includes(s.muterPost)]).toEqual([url, true, true, true]);
      }
    }
    expect((await get(s.muted, '/api/feed/following')).body).toContain(s.muterPost);
  });

  it('the muter still opens the profile, the post and the search results, and the muted hashtag\'s own page', async () => {
    expect((await get(s.muter, `/api/post/${s.mutedPost}`)).statusCode).toBe(200);
    expect((await get(s.muter, `/api/profile/posts/${s.muted.username}`)).body).toContain(s.mutedPost);
    expect((await get(s.muter, '/api/search/for/posts?query=mutedwords&time=all')).body).toContain(s.mutedPost);
    expect((await get(s.muter, '/api/feed/hash/mutenoise')).body).toContain(s.taggedPost);
  });

  it("the muted user's notifications leave the muter's list, new ones are not made, others' stay", async () => {
    const comment = await call(t.app, s.muted, { method: 'POST', url: '/api/comment/', payload: { text: 'from muted', parent: s.muterPost } });
    expect(comment.statusCode).toBe(201);
    const fromOther = await call(t.app, s.other, { method: 'POST', url: '/api/comment/', payload: { text: 'from other', parent: s.muterPost } });
    expect(fromOther.statusCode).toBe(201);
    await runJobs();
    const stored = await t.app.db.selectFrom('notifications').select('actor_id').where('user_id', '=', s.muter.id).execute();
    expect(stored.map((n) => n.actor_id)).not.toContain(s.muted.id);
    const list = (await get(s.muter, '/api/notification/')).body;
    expect(list).not.toContain(s.muted.id);
    expect(list).toContain(s.other.id);
  });

  it('a notification made before the mute is hidden, and counted, only while it lasts', async () => {
    const muter = await createUser(t.app);
    const loud = await createUser(t.app);
    await call(t.app, loud, { method: 'POST', url: '/api/follow', payload: { following: muter.id } });
    await runJobs();
    const unread = async () => (await get(muter, '/api/notification/unread')).json();
    const before = await unread();
    expect((await get(muter, '/api/notification/')).body).toContain(loud.id);
    await call(t.app, muter, { method: 'PUT', url: `/api/mute/${loud.id}` });
    expect((await get(muter, '/api/notification/')).body).not.toContain(loud.id);
    expect(await unread()).not.toEqual(before);
    await call(t.app, muter, { method: 'DELETE', url: `/api/mute/${loud.id}` });
    expect((await get(muter, '/api/notification/')).body).toContain(loud.id);
    expect(await unread()).toEqual(before);
  });

  it('lists muted users and hashtags; unmuting restores the feeds', async () => {
    const users = (await get(s.muter, '/api/mute')).json();
    expect(users.userList.map((u: { _id: string }) => u._id)).toEqual([s.muted.id]);
    const tags = (await get(s.muter, '/api/mute/tag')).json();
    expect(tags).toEqual({ tags: [{ tag: 'mutenoise', createdAt: expect.any(Number) }], hasMore: false });

    const a = await createUser(t.app);
    const b = await createUser(t.app);
    const groupless = await call(t.app, b, { method: 'POST', url: '/api/post', payload: { text: 'back again #mutetemp' } });
    const id = groupless.json()._id as string;
    await call(t.app, a, { method: 'PUT', url: `/api/mute/${b.id}` });
    await call(t.app, a, { method: 'PUT', url: `/api/mute/${b.id}` });
    expect((await get(a, '/api/feed')).body).not.toContain(id);
    expectInfo(await call(t.app, a, { method: 'DELETE', url: `/api/mute/${b.id}` }), 'user_unmuted');
    expectInfo(await call(t.app, a, { method: 'DELETE', url: `/api/mute/${b.id}` }), 'user_unmuted');
    expect((await get(a, '/api/feed')).body).toContain(id);
    await call(t.app, a, { method: 'PUT', url: '/api/mute/tag/mutetemp' });
    expect((await get(a, '/api/feed')).body).not.toContain(id);
    expectInfo(await call(t.app, a, { method: 'DELETE', url: '/api/mute/tag/MUTETEMP' }), 'tag_unmuted');
    expect((await get(a, '/api/feed')).body).toContain(id);
  });

  it('refuses muting oneself, an unknown user, a malformed id, a non-hashtag and a visitor, storing nothing', async () => {
    const count = async () => ({
      users: (await t.app.db.selectFrom('user_mutes').selectAll().execute()).length,
      tags: (await t.app.db.selectFrom('tag_mutes').selectAll().execute()).length,
    });
    const before = await count();
    expectError(await call(t.app, s.muter, { method: 'PUT', url: `/api/mute/${s.muter.id}` }), 400, 'mute_yourself');
    expectError(await call(t.app, s.muter, { method: 'PUT', url: '/api/mute/0123456789abcdef01234567' }), 404, 'user_not_found');
    expectError(await call(t.app, s.muter, { method: 'PUT', url: '/api/mute/nope' }), 400, 'invalid_id');
    for (const bad of ['123', 'two%20words', '%23', 'a-b']) {
      expectError(await call(t.app, s.muter, { method: 'PUT', url: `/api/mute/tag/${bad}` }), 400, 'invalid_hashtag');
    }
    expectError(await call(t.app, null, { method: 'PUT', url: '/api/mute/tag/fine' }), 401, 'no_token');
    expectError(await call(t.app, null, { method: 'GET', url: '/api/mute' }), 401, 'no_token');
    expect(await count()).toEqual(before);
  });
});
