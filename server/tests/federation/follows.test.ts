import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDueJobs } from '../../src/lib/jobs/worker';
import { runAdminCommand } from '../../src/modules/reports/admin';
import { type TestUser, call, createGroup, createUser } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';
import { type FakeActor, type FakeFediverse, deliverToInbox, signerOf, startFakeFediverse } from '../helpers/fake-fediverse';

/**
 * A remote server following local actors: a fake fediverse server in the test (a local http server
 * serving its actor's document and taking what is delivered to its inbox) signs a Follow with its
 * own key; the instance verifies it, keeps the follow and delivers a signed Accept through the
 * outgoing-request guard, which the test verifies against the local actor's published key.
 */

const ORIGIN = 'https://kruh.example';
const AP = { accept: 'application/activity+json' };

describe('remote follows', () => {
  const t = useTestApp({ FEDERATION: 'true', FEDERATION_ALLOW_HTTP: 'true', PUBLIC_URL: ORIGIN });
  let remote: FakeFediverse;
  let bob: FakeActor;
  let alice: TestUser;
  let garden: { id: string; name: string };
  let secret: { id: string; name: string };

  beforeAll(async () => {
    remote = await startFakeFediverse();
    bob = await remote.actor('bob');
    alice = await createUser(t.app, { username: 'alice' });
    garden = await createGroup(t.app, alice, { name: 'garden' });
    secret = await createGroup(t.app, alice, { name: 'hideout', isPrivate: true });
  });
  afterAll(async () => {
    await remote.close();
  });

  const actor = (id: string) => `${ORIGIN}/ap/actors/${id}`;

  const post = (inboxPath: string, activity: object, signed = true) => deliverToInbox(t.app, inboxPath, activity, signed ? bob : null);

  const followOf = (localId: string) => ({ id: `${bob.id}/follows/${randomUUID()}`, type: 'Follow', actor: bob.id, object: actor(localId) });

  const followers = async (localId: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/ap/actors/${localId}/followers`, headers: AP });
    expect(res.statusCode).toBe(200);
    return res.json() as { totalItems: number; orderedItems?: string[] };
  };

  const storedFollows = (localId: string) => t.app.db.selectFrom('remote_follows').selectAll().where('local_id', '=', localId).execute();

  it('keeps a signed Follow of a user and delivers a signed Accept of it to the follower', async () => {
    const follow = followOf(alice.id);
    const from = remote.received.length;
    expect((await post(`/ap/actors/${alice.id}/inbox`, follow)).statusCode).toBe(202);
    expect(await storedFollows(alice.id)).toEqual([expect.objectContaining({ remote_actor_id: bob.id })]);
    const stored = await t.app.db.selectFrom('remote_actors').selectAll().where('id', '=', bob.id).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ inbox: bob.inbox, shared_inbox: remote.url('/shared-inbox'), handle: `@bob@${remote.host}` });

    await runDueJobs(t.app);
    const delivered = remote.received.slice(from);
    expect(delivered).toHaveLength(1);
    const [accept] = delivered;
    expect(accept!.path).toBe(new URL(bob.inbox).pathname);
    const activity = JSON.parse(accept!.body) as { type: string; actor: string; object: { id: string; type: string; actor: string; object: string } };
    expect(activity.type).toBe('Accept');
    expect(activity.actor).toBe(actor(alice.id));
    expect(activity.object).toMatchObject({ id: follow.id, type: 'Follow', actor: bob.id, object: actor(alice.id) });

    expect(await signerOf(t.app, remote, accept!)).toBe(actor(alice.id));

    expect(await followers(alice.id)).toMatchObject({ totalItems: 1, orderedItems: [bob.id] });
  });

  it('ends the follow on an Undo of it by the same actor', async () => {
    const follow = followOf(garden.id);
    expect((await post('/ap/inbox', follow)).statusCode).toBe(202);
    expect(await followers(garden.id)).toMatchObject({ totalItems: 1 });
    const undo = { id: `${bob.id}/undos/${randomUUID()}`, type: 'Undo', actor: bob.id, object: follow };
    expect((await post(`/ap/actors/${garden.id}/inbox`, undo)).statusCode).toBe(202);
    expect(await storedFollows(garden.id)).toEqual([]);
    expect(await followers(garden.id)).toMatchObject({ totalItems: 0 });
  });

  it("ends the follow on an Undo whose Follow names no actor or is named by its id alone, and no one else's follow", async () => {
    const tomatoes = await createGroup(t.app, alice, { name: 'tomatoes' });
    const eve = await remote.actor('eve');
    const undoBy = (actor: FakeActor, object: unknown) => ({ id: `${actor.id}/undos/${randomUUID()}`, type: 'Undo', actor: actor.id, object });
    const undo = async (actor: FakeActor, object: unknown) => (await deliverToInbox(t.app, '/ap/inbox', undoBy(actor, object), actor)).statusCode;
    const follows = async () => (await storedFollows(tomatoes.id)).map((row) => row.remote_actor_id);

    const follow = followOf(tomatoes.id);
    expect((await post('/ap/inbox', follow)).statusCode).toBe(202);
    const { actor: _actor, ...actorless } = follow;
    // Another actor undoing bob's Follow, however it names it, undoes nothing of bob's.
    for (const object of [follow, actorless, follow.id]) expect(await undo(eve, object)).toBe(202);
    expect(await follows()).toEqual([bob.id]);
    // The Follow's actor, when it names none, is the Undo's own.
    expect(await undo(bob, actorless)).toBe(202);
    expect(await follows()).toEqual([]);

    // A Follow named by its id alone (its server does not serve it): the follow kept here under that id ends.
    const again = followOf(tomatoes.id);
    expect((await post('/ap/inbox', again)).statusCode).toBe(202);
    expect(await undo(bob, follow.id)).toBe(202);
    expect(await follows()).toEqual([bob.id]);
    expect(await undo(bob, again.id)).toBe(202);
    expect(await follows()).toEqual([]);
  });

  it('refuses an unsigned Follow', async () => {
    const bystander = await createUser(t.app);
    expect((await post(`/ap/actors/${bystander.id}/inbox`, followOf(bystander.id), false)).statusCode).toBe(401);
    expect(await storedFollows(bystander.id)).toEqual([]);
  });

  it('shows a remote follower to the person followed as any follower: listed by handle, counted, and told of', async () => {
    const carol = await createUser(t.app);
    const dan = await remote.actor('dan');
    const danAccount = `dan@${remote.host}`;
    const profile = async () => (await call(t.app, carol, { method: 'GET', url: `/api/profile/user/${carol.username}` })).json<{ user: { followers: number } }>().user;
    const listed = async () =>
      (await call(t.app, carol, { method: 'GET', url: `/api/profile/user/${carol.username}/followers` })).json<{ userList: { username: string }[] }>().userList;
    const told = async () =>
      (await call(t.app, carol, { method: 'GET', url: '/api/notification/' })).json<{ notifications: { type: string; username: string }[] }>().notifications;

    const follow = { id: `${dan.id}/follows/${randomUUID()}`, type: 'Follow', actor: dan.id, object: actor(carol.id) };
    expect((await deliverToInbox(t.app, `/ap/actors/${carol.id}/inbox`, follow, dan)).statusCode).toBe(202);
    // Sent again, as servers do: still one follower, told once.
    expect((await deliverToInbox(t.app, '/ap/inbox', { ...follow, id: `${dan.id}/follows/${randomUUID()}` }, dan)).statusCode).toBe(202);
    await runDueJobs(t.app);
    expect((await profile()).followers).toBe(1);
    expect((await listed()).map((user) => user.username)).toEqual([danAccount]);
    expect((await told()).filter((n) => n.type === 'NEW_FOLLOWER').map((n) => n.username)).toEqual([danAccount]);

    const undo = { id: `${dan.id}/undos/${randomUUID()}`, type: 'Undo', actor: dan.id, object: follow };
    expect((await deliverToInbox(t.app, '/ap/inbox', undo, dan)).statusCode).toBe(202);
    expect((await profile()).followers).toBe(0);
    expect(await listed()).toEqual([]);
    expect(await storedFollows(carol.id)).toEqual([]);
  });

  it("ends a remote follower's follow, in the list and the count too, when its domain is blocked", async () => {
    const fay = await createUser(t.app);
    const mod = await createUser(t.app);
    await runAdminCommand(t.app.db, { grant: mod.username });
    const gil = await remote.actor('gil');
    const follow = { id: `${gil.id}/follows/${randomUUID()}`, type: 'Follow', actor: gil.id, object: actor(fay.id) };
    expect((await deliverToInbox(t.app, '/ap/inbox', follow, gil)).statusCode).toBe(202);
    const followers = async () => (await call(t.app, fay, { method: 'GET', url: `/api/profile/user/${fay.username}` })).json<{ user: { followers: number } }>().user.followers;
    expect(await followers()).toBe(1);
    // Every fake server is on this machine's address: gil alone is put on a domain of his own to block.
    await t.app.db.updateTable('remote_actors').set({ domain: 'far.example' }).where('id', '=', gil.id).execute();
    const blocked = await call(t.app, mod, { method: 'POST', url: '/api/moderation/domain-blocks', payload: { domain: 'far.example' } });
    expect(blocked.statusCode, blocked.body).toBe(200);
    expect(await followers()).toBe(0);
    expect(await storedFollows(fay.id)).toEqual([]);
  });

  it('answers no Follow of a private group or a suspended user, and keeps nothing of it', async () => {
    const suspended = await createUser(t.app);
    await t.app.db.updateTable('users').set({ suspended_at: Date.now() }).where('id', '=', suspended.id).execute();
    await runDueJobs(t.app);
    const from = remote.received.length;
    for (const id of [secret.id, suspended.id]) {
      expect((await post('/ap/inbox', followOf(id))).statusCode).toBe(202);
      expect(await storedFollows(id)).toEqual([]);
    }
    await runDueJobs(t.app);
    expect(remote.received.slice(from)).toEqual([]);
  });
});
