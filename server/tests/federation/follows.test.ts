import { randomUUID } from 'node:crypto';
import { type DocumentLoader, preloadedContexts, verifyRequest } from '@fedify/fedify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDueJobs } from '../../src/modules/jobs/worker';
import { type FakeActor, type FakeFediverse, deliverToInbox, startFakeFediverse } from '../helpers/fake-fediverse';
import { type TestUser, createGroup, createUser } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';

/**
 * A remote server following local actors: a fake fediverse server in the test (serving its
 * actor's document and taking what is delivered to its inbox) signs a Follow with its own key; the
 * instance verifies it, keeps the follow and delivers a signed Accept through the outgoing-request
 * guard, which the test verifies against the local actor's published key.
 */

const ORIGIN = 'https://kruh.example';
const AP = { accept: 'application/activity+json' };

describe('remote follows', () => {
  const t = useTestApp({ FEDERATION: 'true', FEDERATION_ALLOW_HTTP: 'true', PUBLIC_URL: ORIGIN });
  let fediverse: FakeFediverse;
  let remote: FakeActor;
  let alice: TestUser;
  let garden: { id: string; name: string };
  let secret: { id: string; name: string };

  beforeAll(async () => {
    fediverse = await startFakeFediverse();
    remote = await fediverse.actor('bob');
    alice = await createUser(t.app, { username: 'alice' });
    garden = await createGroup(t.app, alice, { name: 'garden' });
    secret = await createGroup(t.app, alice, { name: 'hideout', isPrivate: true });
  });
  afterAll(async () => {
    await fediverse.close();
  });

  const actor = (id: string) => `${ORIGIN}/ap/actors/${id}`;

  /** Posts an activity to a local inbox, signed by the remote actor's key unless `signed` is false. */
  const post = (inboxPath: string, activity: object, signed = true) => deliverToInbox(t.app, inboxPath, activity, signed ? remote : null);

  const followOf = (localId: string) => ({ id: `${remote.id}/follows/${randomUUID()}`, type: 'Follow', actor: remote.id, object: actor(localId) });

  const followers = async (localId: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/ap/actors/${localId}/followers`, headers: AP });
    expect(res.statusCode).toBe(200);
    return res.json() as { totalItems: number; orderedItems?: string[] };
  };

  const storedFollows = (localId: string) => t.app.db.selectFrom('remote_follows').selectAll().where('local_id', '=', localId).execute();

  /** Kruh's own documents, read from the app, so the Accept's signature is checked against its published key. */
  const localLoader: DocumentLoader = async (url) => {
    if (url in preloadedContexts) return { contextUrl: null, document: preloadedContexts[url], documentUrl: url };
    const res = await t.app.inject({ method: 'GET', url: new URL(url).pathname, headers: AP });
    return { contextUrl: null, document: res.json() as unknown, documentUrl: url };
  };

  it('keeps a signed Follow of a user and delivers a signed Accept of it to the follower', async () => {
    const follow = followOf(alice.id);
    const from = fediverse.received.length;
    expect((await post(`/ap/actors/${alice.id}/inbox`, follow)).statusCode).toBe(202);
    expect(await storedFollows(alice.id)).toEqual([expect.objectContaining({ remote_actor_id: remote.id })]);
    const stored = await t.app.db.selectFrom('remote_actors').selectAll().where('id', '=', remote.id).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ inbox: remote.inbox, shared_inbox: fediverse.url('/shared-inbox'), handle: `@bob@${fediverse.host}` });

    await runDueJobs(t.app);
    const delivered = fediverse.received.slice(from);
    expect(delivered).toHaveLength(1);
    const [accept] = delivered;
    expect(accept!.path).toBe(new URL(remote.inbox).pathname);
    const activity = JSON.parse(accept!.body) as { type: string; actor: string; object: { id: string; type: string; actor: string; object: string } };
    expect(activity.type).toBe('Accept');
    expect(activity.actor).toBe(actor(alice.id));
    expect(activity.object).toMatchObject({ id: follow.id, type: 'Follow', actor: remote.id, object: actor(alice.id) });

    const headers = new Headers();
    for (const [name, value] of Object.entries(accept!.headers)) if (typeof value === 'string') headers.set(name, value);
    const request = new Request(remote.inbox, { method: 'POST', headers, body: accept!.body });
    const key = await verifyRequest(request, { documentLoader: localLoader, contextLoader: localLoader });
    expect(key?.ownerId?.href).toBe(actor(alice.id));

    expect(await followers(alice.id)).toMatchObject({ totalItems: 1, orderedItems: [remote.id] });
  });

  it('ends the follow on an Undo of it by the same actor', async () => {
    const follow = followOf(garden.id);
    expect((await post('/ap/inbox', follow)).statusCode).toBe(202);
    expect(await followers(garden.id)).toMatchObject({ totalItems: 1 });
    const undo = { id: `${remote.id}/undos/${randomUUID()}`, type: 'Undo', actor: remote.id, object: follow };
    expect((await post(`/ap/actors/${garden.id}/inbox`, undo)).statusCode).toBe(202);
    expect(await storedFollows(garden.id)).toEqual([]);
    expect(await followers(garden.id)).toMatchObject({ totalItems: 0 });
  });

  it('refuses an unsigned Follow', async () => {
    const bystander = await createUser(t.app);
    expect((await post(`/ap/actors/${bystander.id}/inbox`, followOf(bystander.id), false)).statusCode).toBe(401);
    expect(await storedFollows(bystander.id)).toEqual([]);
  });

  it('answers no Follow of a private group or a suspended user, and keeps nothing of it', async () => {
    const suspended = await createUser(t.app);
    await t.app.db.updateTable('users').set({ suspended_at: Date.now() }).where('id', '=', suspended.id).execute();
    await runDueJobs(t.app);
    const from = fediverse.received.length;
    for (const id of [secret.id, suspended.id]) {
      expect((await post('/ap/inbox', followOf(id))).statusCode).toBe(202);
      expect(await storedFollows(id)).toEqual([]);
    }
    await runDueJobs(t.app);
    expect(fediverse.received.slice(from)).toEqual([]);
  });
});
