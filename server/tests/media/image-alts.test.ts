import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '#core/limits';
import { call, createPost, type TestUser, useUsers } from '../helpers/fixtures';
import { expectError } from '../helpers/expect';
import { multipartBody } from '../helpers/multipart';
import { useTestApp } from '../helpers/test-app';

const png = () => sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 20, g: 90, b: 200 } } }).png().toBuffer();

/** Descriptions (alt texts) of post and comment images: sent with each upload, answered with the views. */
describe('image descriptions', () => {
  const t = useTestApp();
  const { alice, bob } = useUsers(t, 'alice', 'bob');

  const upload = async (user: TestUser, fields: Record<string, string>) => {
    const body = multipartBody(fields, [{ field: 'image', filename: 'photo.png', contentType: 'image/png', data: await png() }]);
    return call(t.app, user, { method: 'POST', url: '/api/upload/image', payload: body.payload, headers: body.headers });
  };
  const getPost = (id: string, user: TestUser | null = bob) => call(t.app, user, { method: 'GET', url: `/api/post/${id}` });
  const stored = (table: 'posts' | 'comments', id: string) =>
    t.app.db.selectFrom(table).select(['images', 'image_alts']).where('id', '=', id).executeTakeFirstOrThrow();

  it("stores each image's description, trimmed, and answers them in image order on the post", async () => {
    const post = await createPost(t.app, alice);
    expect((await upload(alice, { id: post.id, index: '0', alt: '  A blue square on white  ' })).statusCode).toBe(201);
    expect((await upload(alice, { id: post.id, index: '1' })).statusCode).toBe(201);
    const res = await getPost(post.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ images: 2, alts: ['A blue square on white', ''], contentWarning: null });
    expect(res.json().media).toHaveLength(2);
    // Visitors read them too, and listings carry them.
    expect((await getPost(post.id, null)).json().alts).toEqual(['A blue square on white', '']);
    const feed = await call(t.app, bob, { method: 'GET', url: '/api/feed' });
    expect(feed.json().posts.find((p: { _id: string }) => p._id === post.id)?.alts).toEqual(['A blue square on white', '']);
  });

  it('a post without descriptions answers an empty one per image', async () => {
    const post = await createPost(t.app, alice);
    expect((await getPost(post.id)).json()).toMatchObject({ images: 0, alts: [] });
    await upload(alice, { id: post.id, index: '1', alt: 'second' });
    expect((await getPost(post.id)).json()).toMatchObject({ images: 2, alts: ['', 'second'] });
  });

  it('an image replaced without a description loses the old one, and the other image keeps its own', async () => {
    const post = await createPost(t.app, alice);
    await upload(alice, { id: post.id, index: '0', alt: 'first' });
    await upload(alice, { id: post.id, index: '1', alt: 'second' });
    await upload(alice, { id: post.id, index: '0' });
    expect((await getPost(post.id)).json().alts).toEqual(['', 'second']);
  });

  it('takes a description at the limit, in characters however many bytes they take', async () => {
    const post = await createPost(t.app, alice);
    const emoji = '🦔'.repeat(LIMITS.imageAltMaxLength);
    expect((await upload(alice, { id: post.id, index: '0', alt: emoji })).statusCode).toBe(201);
    expect((await upload(alice, { id: post.id, index: '1', alt: 'a'.repeat(LIMITS.imageAltMaxLength) })).statusCode).toBe(201);
    expect((await getPost(post.id)).json().alts).toEqual([emoji, 'a'.repeat(LIMITS.imageAltMaxLength)]);
  });

  it('refuses a description over the limit and stores nothing of that upload', async () => {
    const post = await createPost(t.app, alice);
    const before = await stored('posts', post.id);
    expectError(await upload(alice, { id: post.id, index: '0', alt: 'a'.repeat(LIMITS.imageAltMaxLength + 1) }), 400, 'max_alt_length');
    // Far over the limit: cut by the form reader, still refused.
    expectError(await upload(alice, { id: post.id, index: '0', alt: '🦔'.repeat(LIMITS.imageAltMaxLength * 3) }), 400, 'max_alt_length');
    expect(await stored('posts', post.id)).toEqual(before);
    expect(await t.app.storage.get(`${post.id}0.webp`)).toBeNull();
    expect((await getPost(post.id)).json()).toMatchObject({ images: 0, alts: [] });
  });

  it("stores a comment image's description and answers it in the thread and the comment tree", async () => {
    const post = await createPost(t.app, alice);
    const created = await call(t.app, bob, { method: 'POST', url: '/api/comment/', payload: { text: 'look', parent: post.id } });
    expect(created.statusCode).toBe(201);
    const commentId = created.json()._id as string;
    expect(created.json().alts).toEqual([]);
    expectError(await upload(bob, { id: commentId, index: '0', alt: 'x'.repeat(LIMITS.imageAltMaxLength + 1) }), 400, 'max_alt_length');
    expect((await upload(bob, { id: commentId, index: '0', alt: 'A hedgehog in the grass' })).statusCode).toBe(201);
    const thread = await call(t.app, alice, { method: 'GET', url: `/api/post/${post.id}/comments` });
    const comment = thread.json().comments.find((c: { _id: string }) => c._id === commentId);
    expect(comment).toMatchObject({ images: 1, alts: ['A hedgehog in the grass'] });
    expect(comment.media).toHaveLength(1);
    const tree = await call(t.app, alice, { method: 'GET', url: `/api/comment/${commentId}/tree` });
    expect(tree.json().pinnedTree.alts).toEqual(['A hedgehog in the grass']);
  });

  it("a deleted comment kept for its replies keeps no description", async () => {
    const post = await createPost(t.app, alice);
    const comment = (await call(t.app, bob, { method: 'POST', url: '/api/comment/', payload: { text: 'mine', parent: post.id } })).json()._id as string;
    await upload(bob, { id: comment, index: '0', alt: 'private words' });
    await call(t.app, alice, { method: 'POST', url: '/api/comment/', payload: { text: 'reply', parent: comment } });
    expect((await call(t.app, bob, { method: 'DELETE', url: `/api/comment/${comment}` })).statusCode).toBe(200);
    expect((await stored('comments', comment)).image_alts).toBe('[]');
    const thread = await call(t.app, alice, { method: 'GET', url: `/api/post/${post.id}/comments` });
    expect(thread.json().comments.find((c: { _id: string }) => c._id === comment)).toMatchObject({ deleted: true, alts: [] });
  });
});
