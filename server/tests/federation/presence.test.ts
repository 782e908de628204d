import { beforeAll, describe, expect, it } from 'vitest';
import { type TestUser, call, createGroup, createPost, createUser } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';

/**
 * How the instance's people, groups and deleted writings present themselves to other servers:
 * whether an actor may be listed and searched there (each account's own choice), since when it
 * exists, and a deleted Note's address answering "gone" rather than "never was".
 */

const ORIGIN = 'https://kruh.example';
const AP = { accept: 'application/activity+json' };
/** `formerType` names a type by IRI: the ActivityStreams context's compact form, or the term. */
const NOTE_TYPE = ['as:Note', 'Note', 'https://www.w3.org/ns/activitystreams#Note'];

interface Actor {
  type: string;
  published?: string;
  discoverable?: boolean;
  indexable?: boolean;
}

describe("an actor's presence on other servers", () => {
  const t = useTestApp({ FEDERATION: 'true', PUBLIC_URL: ORIGIN });
  let alice: TestUser;
  const joined = Date.UTC(2025, 2, 14, 9, 30);

  beforeAll(async () => {
    alice = await createUser(t.app, { username: 'alice', createdAt: joined });
  });

  const actor = async (id: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/ap/actors/${id}`, headers: AP });
    expect(res.statusCode).toBe(200);
    return res.json<Actor>();
  };
  const discovery = (user: TestUser, payload: Record<string, unknown>) => call(t.app, user, { method: 'PATCH', url: '/api/account/discovery', payload });
  const account = async (user: TestUser) => (await call(t.app, user, { method: 'POST', url: '/api/account/get' })).json<{ user: { discoverable?: boolean; indexable?: boolean } }>().user;

  it('says when the account was made, and that it may be listed and searched, until its owner says otherwise', async () => {
    const person = await actor(alice.id);
    expect(person).toMatchObject({ type: 'Person', discoverable: true, indexable: true });
    expect(Date.parse(person.published!)).toBe(joined);
    expect(await account(alice)).toMatchObject({ discoverable: true, indexable: true });

    const off = await discovery(alice, { discoverable: false });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toMatchObject({ message: 'info/settings_updated', discoverable: false, indexable: true });
    expect(await actor(alice.id)).toMatchObject({ discoverable: false, indexable: true });
    expect((await discovery(alice, { indexable: false })).json()).toMatchObject({ discoverable: false, indexable: false });
    expect(await actor(alice.id)).toMatchObject({ discoverable: false, indexable: false });
    expect(await account(alice)).toMatchObject({ discoverable: false, indexable: false });

    expect((await discovery(alice, { discoverable: true, indexable: true })).statusCode).toBe(200);
    expect(await actor(alice.id)).toMatchObject({ discoverable: true, indexable: true });
  });

  it('refuses a setting that is no yes or no, and a caller who is not signed in', async () => {
    expect((await discovery(alice, { discoverable: 'maybe' })).statusCode).toBe(400);
    expect((await call(t.app, null, { method: 'PATCH', url: '/api/account/discovery', payload: { discoverable: false } })).statusCode).toBe(401);
  });

  it('lists a public group and says when it was made', async () => {
    const garden = await createGroup(t.app, alice, { name: 'garden' });
    const made = await t.app.db.selectFrom('groups').select('created_at').where('id', '=', garden.id).executeTakeFirstOrThrow();
    const group = await actor(garden.id);
    expect(group).toMatchObject({ type: 'Group', discoverable: true });
    expect(Date.parse(group.published!)).toBe(Number(made.created_at));
  });
});

describe("a deleted post's or comment's Note", () => {
  const t = useTestApp({ FEDERATION: 'true', PUBLIC_URL: ORIGIN });
  let alice: TestUser;

  beforeAll(async () => {
    alice = await createUser(t.app, { username: 'alice' });
  });

  const read = (path: string) => t.app.inject({ method: 'GET', url: path, headers: AP });
  const ok = <R extends { statusCode: number; body: string }>(res: R, status = 200): R => {
    expect(res.statusCode, res.body).toBe(status);
    return res;
  };

  it('answers 410 with a Tombstone once a public post is deleted, and 404 for an id that never was', async () => {
    const { id } = await createPost(t.app, alice, { text: 'soon gone' });
    expect((await read(`/ap/posts/${id}`)).statusCode).toBe(200);
    ok(await call(t.app, alice, { method: 'DELETE', url: `/api/post/${id}` }));
    const gone = await read(`/ap/posts/${id}`);
    expect(gone.statusCode).toBe(410);
    expect(gone.headers['content-type']).toMatch(/^application\/activity\+json/);
    const tombstone = gone.json<{ type: string; id: string; formerType: string; deleted: string }>();
    expect(tombstone).toMatchObject({ type: 'Tombstone', id: `${ORIGIN}/ap/posts/${id}` });
    expect(NOTE_TYPE).toContain(tombstone.formerType);
    expect(Date.parse(tombstone.deleted)).toBeGreaterThan(Date.now() - 60_000);

    expect((await read('/ap/posts/0123456789abcdef01234567')).statusCode).toBe(404);
  });

  it('answers 410 with a Tombstone once a public comment is deleted', async () => {
    const { id: postId } = await createPost(t.app, alice, { text: 'say something' });
    const comment = ok(await call(t.app, alice, { method: 'POST', url: '/api/comment/', payload: { parent: postId, text: 'something' } }), 201).json<{ _id: string }>();
    expect((await read(`/ap/comments/${comment._id}`)).statusCode).toBe(200);
    ok(await call(t.app, alice, { method: 'DELETE', url: `/api/comment/${comment._id}` }));
    const gone = await read(`/ap/comments/${comment._id}`);
    expect(gone.statusCode).toBe(410);
    const tombstone = gone.json<{ type: string; id: string; formerType: string }>();
    expect(tombstone).toMatchObject({ type: 'Tombstone', id: `${ORIGIN}/ap/comments/${comment._id}` });
    expect(NOTE_TYPE).toContain(tombstone.formerType);
  });

  it("keeps a private group's deleted post and comment unknown: 404, as before", async () => {
    const hideout = await createGroup(t.app, alice, { name: 'hideout', isPrivate: true });
    const { id } = await createPost(t.app, alice, { text: 'members only', groupIds: [hideout.id] });
    const comment = ok(await call(t.app, alice, { method: 'POST', url: '/api/comment/', payload: { parent: id, text: 'hush' } }), 201).json<{ _id: string }>();
    ok(await call(t.app, alice, { method: 'DELETE', url: `/api/comment/${comment._id}` }));
    ok(await call(t.app, alice, { method: 'DELETE', url: `/api/post/${id}` }));
    expect((await read(`/ap/posts/${id}`)).statusCode).toBe(404);
    expect((await read(`/ap/comments/${comment._id}`)).statusCode).toBe(404);
  });
});
