import { beforeAll, describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/lib/idempotency';
import { expectError } from '../helpers/expect';
import { call, createPost, createUser, type TestUser } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';

describe('Idempotency-Key', () => {
  const t = useTestApp();
  let alice: TestUser;
  let bob: TestUser;
  let n = 0;
  const freshKey = () => `key-${Date.now().toString(36)}-${n++}`;

  beforeAll(async () => {
    alice = await createUser(t.app);
    bob = await createUser(t.app);
  });

  const post = (user: TestUser, key: string, payload: Record<string, unknown>) =>
    call(t.app, user, { method: 'POST', url: '/api/post', payload, headers: { 'idempotency-key': key } });
  const postCount = async (user: TestUser) =>
    Number(
      (await t.app.db.selectFrom('posts').select((eb) => eb.fn.countAll<number>().as('n')).where('author_id', '=', user.id).executeTakeFirstOrThrow()).n,
    );

  it('replays the first answer to a retry with the same key and the same body', async () => {
    const key = freshKey();
    const before = await postCount(alice);
    const first = await post(alice, key, { text: 'once only', mentions: [] });
    // The same body with its fields in another order is the same request.
    const retry = await post(alice, key, { mentions: [], text: 'once only' });
    expect(first.statusCode).toBe(201);
    expect(retry.statusCode).toBe(201);
    expect(retry.json()._id).toBe(first.json()._id);
    expect(await postCount(alice)).toBe(before + 1);
    // The endpoint as the migration renames keys stored before: method and route pattern.
    const stored = await t.app.db.selectFrom('idempotency_keys').select('route').where('user_id', '=', alice.id).where('key', '=', key).executeTakeFirstOrThrow();
    expect(stored.route).toBe('POST /api/post');
  });

  it('refuses the key with a different body instead of replaying or running it again', async () => {
    const key = freshKey();
    const first = await post(alice, key, { text: 'the original' });
    const before = await postCount(alice);
    const other = await post(alice, key, { text: 'something else' });
    expectError(other, 422, 'idempotency_mismatch');
    expect(await postCount(alice)).toBe(before);
    // The stored answer is untouched: the real retry still replays it.
    const retry = await post(alice, key, { text: 'the original' });
    expect(retry.json()._id).toBe(first.json()._id);
  });

  it('refuses the key on another endpoint', async () => {
    const key = freshKey();
    expect((await post(alice, key, { text: 'made with the key' })).statusCode).toBe(201);
    const target = await createPost(t.app, bob);
    const like = await call(t.app, alice, { method: 'PATCH', url: `/api/post/${target.id}/like`, payload: { liked: true }, headers: { 'idempotency-key': key } });
    expectError(like, 422, 'idempotency_mismatch');
    const routes = await t.app.db.selectFrom('idempotency_keys').select('route').where('user_id', '=', alice.id).where('key', '=', key).execute();
    expect(routes).toEqual([{ route: 'POST /api/post' }]);
    const likes = await t.app.db.selectFrom('post_likes').select('user_id').where('post_id', '=', target.id).execute();
    expect(likes).toEqual([]);
  });

  it('refuses the key on the same endpoint with other params (another post to like)', async () => {
    const key = freshKey();
    const [one, two] = [await createPost(t.app, bob), await createPost(t.app, bob)];
    const like = (postId: string) =>
      call(t.app, alice, { method: 'PATCH', url: `/api/post/${postId}/like`, payload: { liked: true }, headers: { 'idempotency-key': key } });
    expect((await like(one.id)).json()).toEqual({ likes: 1, liked: true });
    expect((await like(one.id)).json()).toEqual({ likes: 1, liked: true });
    expectError(await like(two.id), 422, 'idempotency_mismatch');
  });

  it('keeps keys apart per user: two users may send the same key', async () => {
    const key = freshKey();
    const mine = await post(alice, key, { text: 'same key, alice' });
    const theirs = await post(bob, key, { text: 'same key, bob' });
    expect(mine.statusCode).toBe(201);
    expect(theirs.statusCode).toBe(201);
    expect(theirs.json()._id).not.toBe(mine.json()._id);
    expect(theirs.json().text).toBe('same key, bob');
  });

  it('replays a key stored before requests were fingerprinted on its endpoint only', async () => {
    const key = freshKey();
    const first = await post(alice, key, { text: 'before the upgrade' });
    await t.app.db.updateTable('idempotency_keys').set({ request_hash: null }).where('user_id', '=', alice.id).where('key', '=', key).execute();
    expect((await post(alice, key, { text: 'before the upgrade' })).json()._id).toBe(first.json()._id);
    const target = await createPost(t.app, bob);
    const like = await call(t.app, alice, { method: 'PATCH', url: `/api/post/${target.id}/like`, headers: { 'idempotency-key': key } });
    expectError(like, 422, 'idempotency_mismatch');
  });

  it('fingerprints bodies by meaning: key order does not count, values and file bytes do', () => {
    expect(canonicalJson({ b: 1, a: [1, { d: 2, c: undefined }] })).toBe('{"a":[1,{"d":2}],"b":1}');
    expect(canonicalJson({ file: Buffer.from('one') })).toBe(canonicalJson({ file: Buffer.from('one') }));
    expect(canonicalJson({ file: Buffer.from('one') })).not.toBe(canonicalJson({ file: Buffer.from('two') }));
  });
});
