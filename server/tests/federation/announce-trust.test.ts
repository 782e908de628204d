import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { remoteAccountFor } from '../../src/modules/remote/remote-accounts';
import { AS_CONTEXT, type FakeActor, type FakeFediverse, PUBLIC, deliverToInbox, startFakeFediverse } from '../helpers/fake-fediverse';
import { type TestUser, createUser } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';

/**
 * What a followed remote group passes on is taken on its word only for its own server's members:
 * a group on one server (`hall`) cannot edit, delete or write in the name of someone on another
 * (`bob`), whatever ids it gives the activities it embeds. Those are read again at bob's server.
 */

const ORIGIN = 'https://kruh.example';
const INBOX = '/ap/inbox';

describe('activities a remote group passes on', () => {
  const t = useTestApp({ FEDERATION: 'true', FEDERATION_ALLOW_HTTP: 'true', PUBLIC_URL: ORIGIN });
  /** bob's server. */
  let home: FakeFediverse;
  /** The group's server, with a member of its own. */
  let hallServer: FakeFediverse;
  let bob: FakeActor;
  let hall: FakeActor;
  let mia: FakeActor;
  let fan: TestUser;

  const accountOf = (actor: FakeActor) =>
    remoteAccountFor(t.app.db, { id: actor.id, inbox: actor.inbox, sharedInbox: null, handle: actor.handle, url: null, bio: '' }, Date.now());

  async function follow(user: TestUser, actor: FakeActor) {
    await t.app.db.insertInto('follows').values({ follower_id: user.id, following_id: await accountOf(actor), created_at: Date.now() }).execute();
  }

  const noteBy = (actor: FakeActor, content: string) => ({
    id: `${actor.id}/notes/${randomUUID()}`,
    type: 'Note',
    attributedTo: actor.id,
    to: [PUBLIC],
    cc: [actor.followers],
    content: `<p>${content}</p>`,
    published: '2026-11-25T09:00:00Z',
  });
  /** An activity of `actor` with an id on `server` (its own, or one it was forged on). */
  const activity = (server: FakeFediverse, type: string, actor: FakeActor, object: unknown) => ({
    id: server.url(`/activities/${randomUUID()}`),
    type,
    actor: actor.id,
    to: [PUBLIC],
    object,
  });
  /** The group's Announce of `object`, its id on `server`: the group's own, or bob's as a forger may claim. */
  const announce = (object: unknown, server: FakeFediverse = hallServer) => activity(server, 'Announce', hall, object);
  const send = async (body: object, signer: FakeActor) => (await deliverToInbox(t.app, INBOX, body, signer)).statusCode;

  const postByAp = (apId: string) => t.app.db.selectFrom('posts').selectAll().where('ap_id', '=', apId).executeTakeFirst();
  const accountExists = async (actor: FakeActor) =>
    (await t.app.db.selectFrom('remote_actors').select('user_id').where('id', '=', actor.id).executeTakeFirst()) !== undefined;
  const publish = (server: FakeFediverse, note: { id: string; [field: string]: unknown }) => server.serve(new URL(note.id).pathname, { '@context': AS_CONTEXT, ...note });

  /** A post of bob's, stored here as fan follows him, and served by his server. */
  async function bobsPost(content: string) {
    const note = noteBy(bob, content);
    publish(home, note);
    expect(await send(activity(home, 'Create', bob, note), bob)).toBe(202);
    expect((await postByAp(note.id))?.text).toBe(content);
    return note;
  }

  beforeAll(async () => {
    home = await startFakeFediverse();
    hallServer = await startFakeFediverse();
    bob = await home.actor('bob');
    hall = await hallServer.actor('hall', { type: 'Group' });
    mia = await hallServer.actor('mia');
    fan = await createUser(t.app, { username: 'fan' });
    await follow(fan, bob);
    await follow(fan, hall);
  });
  afterAll(async () => {
    await home.close();
    await hallServer.close();
  });

  it("does not delete another server's post on a group's word, whatever server the ids name", async () => {
    const note = await bobsPost('still here');
    for (const server of [hallServer, home]) {
      expect(await send(announce(activity(server, 'Delete', bob, note.id), server), hall)).toBe(202);
      expect(await send(announce(activity(server, 'Delete', bob, { id: note.id, type: 'Tombstone' }), server), hall)).toBe(202);
    }
    expect((await postByAp(note.id))?.text).toBe('still here');
  });

  it("does not delete another server's account on a group's word", async () => {
    const note = await bobsPost('my account stays');
    for (const server of [hallServer, home]) expect(await send(announce(activity(server, 'Delete', bob, bob.id), server), hall)).toBe(202);
    expect(await accountExists(bob)).toBe(true);
    expect(await postByAp(note.id)).toBeDefined();
  });

  it("takes a passed-on Update of another server's post only as that server serves the post", async () => {
    const note = await bobsPost('original words');
    const forged = { ...note, content: '<p>forged words</p>', updated: '2026-11-25T10:00:00Z' };
    for (const server of [hallServer, home]) expect(await send(announce(activity(server, 'Update', bob, forged), server), hall)).toBe(202);
    expect((await postByAp(note.id))?.text).toBe('original words');

    // bob did edit it: his server says so, and that version is taken.
    publish(home, { ...note, content: '<p>edited words</p>', updated: '2026-11-25T11:00:00Z' });
    expect(await send(announce(activity(hallServer, 'Update', bob, forged)), hall)).toBe(202);
    expect((await postByAp(note.id))?.text).toBe('edited words');
  });

  it("stores a passed-on post of another server's author only as that server serves it", async () => {
    const unknown = noteBy(bob, 'never written');
    const written = noteBy(bob, 'as bob wrote it');
    publish(home, written);
    for (const server of [hallServer, home]) {
      expect(await send(announce(activity(server, 'Create', bob, unknown), server), hall)).toBe(202);
      expect(await send(announce(unknown, server), hall)).toBe(202);
      expect(await send(announce(activity(server, 'Create', bob, { ...written, content: '<p>forged</p>' }), server), hall)).toBe(202);
    }
    expect(await postByAp(unknown.id)).toBeUndefined();
    expect((await postByAp(written.id))?.text).toBe('as bob wrote it');
  });

  it("takes the group's word for its own server's members: their posts, edits and deletions", async () => {
    const note = noteBy(mia, 'from the hall');
    expect(await send(announce(activity(hallServer, 'Create', mia, note)), hall)).toBe(202);
    expect((await postByAp(note.id))?.text).toBe('from the hall');
    const edited = { ...note, content: '<p>edited in the hall</p>', updated: '2026-11-25T10:00:00Z' };
    expect(await send(announce(activity(hallServer, 'Update', mia, edited)), hall)).toBe(202);
    expect((await postByAp(note.id))?.text).toBe('edited in the hall');
    expect(await send(announce(activity(hallServer, 'Delete', mia, { id: note.id, type: 'Tombstone' })), hall)).toBe(202);
    expect(await postByAp(note.id)).toBeUndefined();

    // A member's deletion of its own account, passed on by the group of its server.
    const last = noteBy(mia, 'last words');
    expect(await send(announce(activity(hallServer, 'Create', mia, last)), hall)).toBe(202);
    expect(await postByAp(last.id)).toBeDefined();
    expect(await send(announce(activity(hallServer, 'Delete', mia, mia.id)), hall)).toBe(202);
    expect(await accountExists(mia)).toBe(false);
    expect(await postByAp(last.id)).toBeUndefined();
  });
});
