import sharp from 'sharp';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { SIGNED_MIN_MS, SIGNED_STEP_MS } from '../../src/policy/media-urls';
import { addMember, call, createGroup, createPost, createUser, type TestUser } from '../helpers/fixtures';
import { multipartBody } from '../helpers/multipart';
import { useTestApp } from '../helpers/test-app';

/** Signed image URLs of private-group posts live minutes, so a banned or departed member loses access. */
describe('private media URLs', () => {
  const t = useTestApp();
  let owner: TestUser;
  let group: { id: string; name: string };

  beforeAll(async () => {
    owner = await createUser(t.app);
    group = await createGroup(t.app, owner, { isPrivate: true });
  });
  afterEach(() => vi.useRealTimers());

  /** The longest a signed URL may stay valid after it was handed out. */
  const LONGEST_LIFE = SIGNED_MIN_MS + SIGNED_STEP_MS;
  /** What "dies within minutes" means here. */
  const MINUTES = 15 * 60 * 1000;

  async function privatePostWithImage(): Promise<string> {
    const post = await createPost(t.app, owner, { groupIds: [group.id] });
    const image = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#123456' } }).png().toBuffer();
    const body = multipartBody({ id: post.id, index: '0' }, [{ field: 'image', filename: 'a.png', contentType: 'image/png', data: image }]);
    const res = await call(t.app, owner, { method: 'POST', url: '/api/upload/image', payload: body.payload, headers: body.headers });
    expect(res.statusCode).toBe(201);
    return post.id;
  }
  const readPost = (user: TestUser, postId: string) => call(t.app, user, { method: 'GET', url: `/api/post/${postId}` });
  const fetchMedia = async (url: string) => (await t.app.inject({ method: 'GET', url })).statusCode;
  const moveClock = (ms: number) => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + ms);
  };

  it('signs for minutes, gives the same URL within a bucket and a new one after it', async () => {
    const member = await createUser(t.app);
    await addMember(t.app, group.id, member);
    const postId = await privatePostWithImage();
    const [url] = (await readPost(member, postId)).json().media as string[];
    const exp = Number(new URL(url!, 'http://x').searchParams.get('exp'));
    expect(exp - Date.now()).toBeGreaterThanOrEqual(SIGNED_MIN_MS - 1000);
    expect(exp - Date.now()).toBeLessThanOrEqual(LONGEST_LIFE);
    expect(LONGEST_LIFE).toBeLessThanOrEqual(MINUTES);
    expect(await fetchMedia(url!)).toBe(200);
    // Tampered signature or expiry: refused.
    expect(await fetchMedia(url!.replace(/sig=./, (m) => (m.endsWith('A') ? 'sig=B' : 'sig=A')))).toBe(404);
    expect(await fetchMedia(url!.replace(/exp=(\d+)/, (_, n: string) => `exp=${Number(n) + SIGNED_STEP_MS}`))).toBe(404);

    moveClock(LONGEST_LIFE + 1000);
    expect(await fetchMedia(url!)).toBe(404);
    // The member reads the post again and gets a fresh URL for the same image.
    const [fresh] = (await readPost(member, postId)).json().media as string[];
    expect(fresh).not.toBe(url);
    expect(fresh!.split('?')[0]).toBe(url!.split('?')[0]);
    expect(await fetchMedia(fresh!)).toBe(200);
    expect((await readPost(member, postId)).json().media).toEqual([fresh]);
  });

  it('lets a browser keep a signed image no longer than its signature lives', async () => {
    const member = await createUser(t.app);
    await addMember(t.app, group.id, member);
    const postId = await privatePostWithImage();
    const [url] = (await readPost(member, postId)).json().media as string[];
    const exp = Number(new URL(url!, 'http://x').searchParams.get('exp'));
    const maxAgeOf = async () => {
      const res = await t.app.inject({ method: 'GET', url: url! });
      expect(res.statusCode).toBe(200);
      const control = String(res.headers['cache-control']);
      expect(control).toMatch(/^private\b/);
      return Number(/max-age=(\d+)/.exec(control)?.[1]);
    };
    const first = await maxAgeOf();
    expect(first).toBeGreaterThan(0);
    expect(first * 1000).toBeLessThanOrEqual(exp - Date.now() + 1000);
    // Later in its life, what is left of it.
    moveClock(exp - Date.now() - 30_000);
    const late = await maxAgeOf();
    expect(late).toBeLessThanOrEqual(30);
    expect(late).toBeGreaterThanOrEqual(29);
  });

  it('gives a banned member no new URL and lets the one they hold die within minutes', async () => {
    const member = await createUser(t.app);
    await addMember(t.app, group.id, member);
    const postId = await privatePostWithImage();
    const [url] = (await readPost(member, postId)).json().media as string[];
    expect(await fetchMedia(url!)).toBe(200);

    const ban = await call(t.app, owner, { method: 'PUT', url: `/api/group/${group.name}/ban/${member.id}` });
    expect(ban.statusCode).toBe(200);
    const refused = await readPost(member, postId);
    expect(refused.statusCode).toBeGreaterThanOrEqual(400);
    expect(refused.body).not.toContain('sig=');

    moveClock(MINUTES);
    expect(await fetchMedia(url!)).toBe(404);
  });

  it('gives a member who left no new URL and lets the one they hold die within minutes', async () => {
    const member = await createUser(t.app);
    await addMember(t.app, group.id, member);
    const postId = await privatePostWithImage();
    const [url] = (await readPost(member, postId)).json().media as string[];

    const leave = await call(t.app, member, { method: 'DELETE', url: `/api/group/${group.name}/leave` });
    expect(leave.statusCode).toBe(200);
    const refused = await readPost(member, postId);
    expect(refused.statusCode).toBeGreaterThanOrEqual(400);
    expect(refused.body).not.toContain('sig=');
    const comments = await call(t.app, member, { method: 'GET', url: `/api/post/${postId}/comments` });
    expect(comments.body).not.toContain('sig=');

    moveClock(MINUTES);
    expect(await fetchMedia(url!)).toBe(404);
    // The owner still reads it under a fresh URL.
    const [fresh] = (await readPost(owner, postId)).json().media as string[];
    expect(await fetchMedia(fresh!)).toBe(200);
  });
});
