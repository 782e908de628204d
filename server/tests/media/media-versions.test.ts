import sharp from 'sharp';
import { utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { newId } from '../../src/lib/ids';
import { addMember, call, createFollow, createGroup, createPost, createUser, type TestUser, useUsers } from '../helpers/fixtures';
import { type FilePart, multipartBody } from '../helpers/multipart';
import { useTestApp } from '../helpers/test-app';

/** Media whose bytes can be replaced is served under versioned URLs, so `immutable` stays true. */
describe('versioned media URLs', () => {
  const t = useTestApp();
  const { alice, bob } = useUsers(t, 'alice', 'bob');
  let group: { id: string; name: string };
  let postId: string;

  const picture = (color: string) =>
    sharp({ create: { width: 40, height: 40, channels: 3, background: color } }).png().toBuffer();
  const file = async (color: string, field = 'image'): Promise<FilePart> =>
    ({ field, filename: 'a.png', contentType: 'image/png', data: await picture(color) });
  const upload = async (user: TestUser, url: string, files: FilePart[], fields: Record<string, string> = {}) => {
    const body = multipartBody(fields, files);
    const res = await call(t.app, user, { method: 'POST', url, payload: body.payload, headers: body.headers });
    expect(res.statusCode).toBe(201);
    return res.json().url as string;
  };
  const get = (user: TestUser | null, method: 'GET' | 'POST', url: string) => call(t.app, user, { method, url });

  /** Every URL of `prefix` in a reply body: they must all be `expected`, and there must be some. */
  async function expectOnlyVersion(reply: Promise<{ statusCode: number; body: string }>, prefix: string, expected: string) {
    const res = await reply;
    expect(res.statusCode, res.body).toBe(200);
    const found = res.body.match(new RegExp(`${prefix.replace(/[.]/g, '\\.')}[^"]*`, 'g')) ?? [];
    expect(found.length, res.body).toBeGreaterThan(0);
    expect(new Set(found)).toEqual(new Set([expected]));
  }

  beforeAll(async () => {
    group = await createGroup(t.app, alice);
    await addMember(t.app, group.id, bob);
    await createFollow(t.app, bob, alice);
    postId = (await createPost(t.app, alice, { groupIds: [group.id] })).id;
    const comment = await call(t.app, alice, { method: 'POST', url: '/api/comment/', payload: { text: 'hi', parent: postId } });
    expect(comment.statusCode).toBe(201);
    await t.app.db
      .insertInto('notifications')
      .values({ id: newId(), user_id: bob.id, type: 'GROUP_POST', actor_id: alice.id, post_id: postId, comment_id: null, group_id: group.id, created_at: Date.now() })
      .execute();
  });

  it('names the new avatar version in every reply that names the avatar', async () => {
    const first = await upload(alice, '/api/upload/pfp', [await file('#ff0000', 'pfp')]);
    const second = await upload(alice, '/api/upload/pfp', [await file('#00ff00', 'pfp')]);
    expect(second).toMatch(new RegExp(`^/media/pfp/${alice.id}\\.jpeg\\?v=\\d+$`));
    expect(second).not.toBe(first);
    const pfp = `/media/pfp/${alice.id}.jpeg`;
    await expectOnlyVersion(get(alice, 'POST', '/api/account/get'), pfp, second);
    await expectOnlyVersion(get(bob, 'GET', `/api/profile/user/${alice.username}`), pfp, second);
    await expectOnlyVersion(get(bob, 'GET', `/api/profile/user/${bob.username}/following`), pfp, second);
    await expectOnlyVersion(get(bob, 'GET', `/api/search/for/users?query=${alice.username}`), pfp, second);
    await expectOnlyVersion(get(bob, 'GET', `/api/group/${group.name}/members`), pfp, second);
    await expectOnlyVersion(get(bob, 'GET', `/api/post/${postId}`), pfp, second);
    await expectOnlyVersion(get(bob, 'GET', `/api/post/${postId}/comments`), pfp, second);
    await expectOnlyVersion(get(bob, 'GET', '/api/notification/'), pfp, second);
  });

  it('names the new group picture version in every reply that names it', async () => {
    const url = await upload(alice, `/api/upload/gp/${group.id}`, [await file('#0000ff', 'gp')]);
    expect(url).toMatch(new RegExp(`^/media/gp/${group.id}\\.jpeg\\?v=\\d+$`));
    const gp = `/media/gp/${group.id}.jpeg`;
    await expectOnlyVersion(get(bob, 'GET', `/api/group/${group.name}`), gp, url);
    await expectOnlyVersion(get(bob, 'GET', `/api/search/for/groups?query=${group.name}`), gp, url);
    await expectOnlyVersion(get(bob, 'GET', `/api/profile/user/${bob.username}/groups`), gp, url);
    await expectOnlyVersion(get(bob, 'GET', '/api/notification/'), gp, url);
  });

  it('serves an old avatar URL no longer as immutable once the bytes are replaced', async () => {
    const carol = await createUser(t.app);
    const old = await upload(carol, '/api/upload/pfp', [await file('#112233', 'pfp')]);
    const before = await t.app.inject({ method: 'GET', url: old });
    expect(before.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const fresh = await upload(carol, '/api/upload/pfp', [await file('#ddeeff', 'pfp')]);
    expect(fresh).not.toBe(old);
    const now = await t.app.inject({ method: 'GET', url: fresh });
    expect(now.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(now.rawPayload.equals(before.rawPayload)).toBe(false);
    const stale = await t.app.inject({ method: 'GET', url: old });
    expect(stale.statusCode).toBe(200);
    expect(stale.headers['cache-control']).not.toContain('immutable');
    // The unversioned address always answers the current bytes, to be revalidated.
    const plain = await t.app.inject({ method: 'GET', url: `/media/pfp/${carol.id}.jpeg` });
    expect(plain.headers['cache-control']).toBe('public, no-cache');
    expect(plain.rawPayload.equals(now.rawPayload)).toBe(true);
  });

  it('gives a re-uploaded post image a new URL and stops calling the old one immutable', async () => {
    const post = await createPost(t.app, alice);
    const old = await upload(alice, '/api/upload/image', [await file('#445566')], { id: post.id, index: '0' });
    expect((await t.app.inject({ method: 'GET', url: old })).headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const fresh = await upload(alice, '/api/upload/image', [await file('#778899')], { id: post.id, index: '0' });
    expect(fresh).not.toBe(old);
    expect((await get(bob, 'GET', `/api/post/${post.id}`)).json().media).toEqual([fresh]);
    expect((await t.app.inject({ method: 'GET', url: fresh })).headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await t.app.inject({ method: 'GET', url: old })).headers['cache-control']).not.toContain('immutable');
  });

  it('keeps versions growing when the same avatar is rewritten within one millisecond', async () => {
    const dave = await createUser(t.app);
    const versionIn = (url: string) => Number(new URL(url, 'http://x').searchParams.get('v'));
    // The clock stands still, so both writes happen in the same millisecond.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now());
    try {
      const first = await upload(dave, '/api/upload/pfp', [await file('#010101', 'pfp')]);
      const second = await upload(dave, '/api/upload/pfp', [await file('#020202', 'pfp')]);
      expect(versionIn(second)).toBeGreaterThan(versionIn(first));
      expect((await t.app.inject({ method: 'GET', url: second })).headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect((await t.app.inject({ method: 'GET', url: first })).headers['cache-control']).not.toContain('immutable');
      // A clock set back does not bring an old version back either.
      vi.setSystemTime(Date.now() - 60_000);
      const third = await upload(dave, '/api/upload/pfp', [await file('#030303', 'pfp')]);
      expect(versionIn(third)).toBeGreaterThan(versionIn(second));
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps the version in the database, not in the stored file', async () => {
    const erin = await createUser(t.app);
    const url = await upload(erin, '/api/upload/pfp', [await file('#445500', 'pfp')]);
    const row = await t.app.db.selectFrom('users').select('pfp_version').where('id', '=', erin.id).executeTakeFirstOrThrow();
    expect(url).toBe(`/media/pfp/${erin.id}.jpeg?v=${Number(row.pfp_version)}`);
    // The file's time moved (a copy, a restore from backup): the URL still names these bytes.
    const path = join(t.config.dataDir, 'media', 'pfp', `${erin.id}.jpeg`);
    await utimes(path, new Date(2001, 0, 1), new Date(2001, 0, 1));
    expect((await t.app.inject({ method: 'GET', url })).headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });
});
