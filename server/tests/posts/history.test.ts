import { describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids';
import { postsWrittenBy } from '../../src/modules/account/post-export';
import { addMember, call, createGroup, createPost, createUser, type TestUser, useUsers } from '../helpers/fixtures';
import { expectError } from '../helpers/expect';
import { useTestApp } from '../helpers/test-app';

/** A post's earlier versions: newest first, for exactly those who may read the post. */
describe('the history of a post', () => {
  const t = useTestApp();
  const { alice, bob } = useUsers(t, 'alice', 'bob');

  const edit = (user: TestUser, id: string, payload: Record<string, unknown>) =>
    call(t.app, user, { method: 'PATCH', url: `/api/post/${id}`, payload });
  const history = (user: TestUser | null, id: string) => call(t.app, user, { method: 'GET', url: `/api/post/${id}/history` });

  it('lists every replaced version newest first, each with when it was written and replaced', async () => {
    const post = await createPost(t.app, alice, { text: 'version one', createdAt: Date.now() - 60_000 });
    const created = await t.app.db.selectFrom('posts').select('created_at').where('id', '=', post.id).executeTakeFirstOrThrow();
    const second = (await edit(alice, post.id, { text: 'version two' })).json();
    const third = (await edit(alice, post.id, { text: 'version three', contentWarning: 'spoilers' })).json();
    expect(third.text).toBe('version three');
    expect(third.contentWarning).toBe('spoilers');

    const res = await history(bob, post.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      versions: [
        { text: 'version two', contentWarning: null, writtenAt: second.editedAt, replacedAt: third.editedAt },
        { text: 'version one', contentWarning: null, writtenAt: Number(created.created_at), replacedAt: second.editedAt },
      ],
    });
    // A visitor may read a public post, so its history too.
    expect((await history(null, post.id)).json().versions).toHaveLength(2);
  });

  it('a post never edited has an empty history', async () => {
    const post = await createPost(t.app, alice);
    expect((await history(bob, post.id)).json()).toEqual({ versions: [] });
  });

  it('a private group post keeps its history for its members: outsiders and visitors get 404', async () => {
    const secret = await createGroup(t.app, alice, { isPrivate: true });
    const post = await createPost(t.app, alice, { text: 'secret one', groupIds: [secret.id] });
    expect((await edit(alice, post.id, { text: 'secret two' })).statusCode).toBe(200);

    expectError(await history(bob, post.id), 404, 'didnt_find_post');
    expectError(await history(null, post.id), 404, 'didnt_find_post');
    await addMember(t.app, secret.id, bob);
    expect((await history(bob, post.id)).json().versions.map((v: { text: string }) => v.text)).toEqual(['secret one']);
  });

  it('an unknown post is 404 didnt_find_post, a malformed id 400 invalid_post', async () => {
    expectError(await history(alice, newId()), 404, 'didnt_find_post');
    expectError(await history(alice, 'nope'), 400, 'invalid_post');
  });

  it('the versions go with their post when it is deleted', async () => {
    const post = await createPost(t.app, alice, { text: 'to go' });
    expect((await edit(alice, post.id, { text: 'going' })).statusCode).toBe(200);
    expect((await call(t.app, alice, { method: 'DELETE', url: `/api/post/${post.id}` })).statusCode).toBe(200);
    const left = await t.app.db.selectFrom('post_edits').select('id').where('post_id', '=', post.id).execute();
    expect(left).toEqual([]);
    expectError(await history(alice, post.id), 404, 'didnt_find_post');
  });

  it('the author\'s data export holds every earlier version of their posts, newest first', async () => {
    const author = await createUser(t.app);
    const post = await createPost(t.app, author, { text: 'draft one' });
    const second = (await edit(author, post.id, { text: 'draft two' })).json();
    const third = (await edit(author, post.id, { text: 'draft three' })).json();
    const [exported] = await postsWrittenBy(t.app.db, author.id, { limit: 10 });
    expect(exported).toMatchObject({ id: post.id, text: 'draft three', editedAt: third.editedAt });
    expect(exported!.earlierVersions.map((v) => v.text)).toEqual(['draft two', 'draft one']);
    expect(exported!.earlierVersions[0]).toMatchObject({ writtenAt: second.editedAt, replacedAt: third.editedAt });
  });
});
