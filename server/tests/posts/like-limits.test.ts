import { describe, expect, it } from 'vitest';
import { RATE_LIMIT_DEFAULTS } from '#core/limits';
import { newId } from '../../src/lib/ids';
import { expectError } from '../helpers/expect';
import { call, createPost, createUser, type TestUser } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';

async function commentOn(app: Parameters<typeof call>[0], user: TestUser, postId: string): Promise<string> {
  const res = await call(app, user, { method: 'POST', url: '/api/comment/', payload: { text: 'a comment', parent: postId } });
  expect(res.statusCode).toBe(201);
  return res.json<{ _id: string }>()._id;
}

const likePost = (app: Parameters<typeof call>[0], user: TestUser, id: string, liked = true) =>
  call(app, user, { method: 'PATCH', url: `/api/post/${id}/like`, payload: { liked } });
const likeComment = (app: Parameters<typeof call>[0], user: TestUser, id: string, liked = true) =>
  call(app, user, { method: 'PATCH', url: `/api/comment/${id}/like`, payload: { liked } });

describe('likes per window', () => {
  const t = useTestApp({ RATE_LIKES_PER_10_MIN: '4' });

  it('counts likes of posts and of comments together, and refuses past the limit with like_limit', async () => {
    const [author, liker, other] = [await createUser(t.app), await createUser(t.app), await createUser(t.app)];
    const posts = await Promise.all([1, 2, 3].map(() => createPost(t.app, author)));
    const comments = [await commentOn(t.app, author, posts[0]!.id), await commentOn(t.app, author, posts[1]!.id)];
    expect((await likePost(t.app, liker, posts[0]!.id)).statusCode).toBe(200);
    expect((await likeComment(t.app, liker, comments[0]!)).statusCode).toBe(200);
    // Taking a like back is a write too, and counts.
    expect((await likePost(t.app, liker, posts[0]!.id, false)).statusCode).toBe(200);
    expect((await likeComment(t.app, liker, comments[1]!)).statusCode).toBe(200);
    expectError(await likePost(t.app, liker, posts[2]!.id), 429, 'like_limit');
    expectError(await likeComment(t.app, liker, comments[0]!, false), 429, 'like_limit');
    const liked = await t.app.db.selectFrom('post_likes').select('post_id').where('user_id', '=', liker.id).execute();
    expect(liked).toEqual([]);
    // The limit is the liker's own.
    expect((await likePost(t.app, other, posts[2]!.id)).statusCode).toBe(200);
  });

  it('does not count a like that was refused', async () => {
    const [author, liker] = [await createUser(t.app), await createUser(t.app)];
    const post = await createPost(t.app, author);
    for (let i = 0; i < 4; i++) expectError(await likePost(t.app, liker, newId()), 404, 'didnt_find_post');
    for (let i = 0; i < 4; i++) expect((await likePost(t.app, liker, post.id, i % 2 === 0)).statusCode).toBe(200);
  });
});

describe('likes under the default limit', () => {
  const t = useTestApp();

  it('let an offline burst through: 60 likes replayed at once are all taken', async () => {
    expect(RATE_LIMIT_DEFAULTS.likesPerWindow).toBeGreaterThanOrEqual(60);
    const [author, liker] = [await createUser(t.app), await createUser(t.app)];
    const posts = await Promise.all(Array.from({ length: 30 }, () => createPost(t.app, author)));
    const comments = await Promise.all(posts.map((post) => commentOn(t.app, author, post.id)));
    const answers = await Promise.all([
      ...posts.map((post) => likePost(t.app, liker, post.id)),
      ...comments.map((comment) => likeComment(t.app, liker, comment)),
    ]);
    expect(answers.map((res) => res.statusCode)).toEqual(answers.map(() => 200));
  });
});
