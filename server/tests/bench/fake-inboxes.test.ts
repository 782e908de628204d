import { signRequest } from '@fedify/fedify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeInboxes, startFakeInboxes } from '../../bench/fake-inboxes';
import { enqueueJob } from '../../src/lib/jobs/queue';
import { addRemoteFollow, saveRemoteActor } from '../../src/modules/federation/federation.repository';
import { FEDERATION_OUTGOING_JOB } from '../../src/modules/federation/outbound/outgoing';
import { actorUrl } from '../../src/modules/remote/actor-path';
import { call, createUser } from '../helpers/fixtures';
import { type KruhInstance, startInstance } from '../helpers/kruh-instance';
import { testRsaKeyPair } from '../helpers/test-keys';

/**
 * The fan-out benchmark's fake servers, small: a post's deliveries to two servers with a shared
 * inbox, one without (two followers there) and two dead ones (one refusing, one never answering)
 * are counted once each, their signatures checked against the author's published key; a forged
 * delivery and a second copy of the post are caught.
 */
describe('fake inboxes of the fan-out benchmark', () => {
  let instance: KruhInstance;
  let inboxes: FakeInboxes;
  let postId: string;

  beforeAll(async () => {
    // A never-answering server holds its delivery this long; a live one checks the signature first.
    instance = await startInstance({ FEDERATION_DELIVERY_TIMEOUT_MS: '5000' });
    inboxes = await startFakeInboxes({
      plans: [
        { mode: 'live', shared: true, followers: 3 },
        { mode: 'live', shared: true, followers: 1 },
        { mode: 'live', shared: false, followers: 2 },
        { mode: 'refuse', shared: true, followers: 2 },
        { mode: 'hang', shared: false, followers: 1 },
      ],
      trusted: (url) => url.origin === instance.origin,
    });
    const author = await createUser(instance.app);
    // Its keys made beforehand (seconds of CPU on a busy machine), as its followers' Follows left them.
    await fetch(actorUrl(instance.origin, author.id), { headers: { accept: 'application/activity+json' } });
    const now = Date.now();
    for (const follower of inboxes.servers.flatMap((server) => server.followers)) {
      await saveRemoteActor(instance.app.db, { id: follower.id, inbox: follower.inbox, shared_inbox: follower.sharedInbox, handle: null }, now);
      await addRemoteFollow(instance.app.db, follower.id, author.id, now);
    }
    const res = await call(instance.app, author, { method: 'POST', url: '/api/post', payload: { text: 'to every server once' } });
    expect(res.statusCode).toBe(201);
    postId = res.json<{ _id: string }>()._id;
    await instance.runJobs();
  }, 60_000);

  afterAll(async () => {
    await inboxes?.close();
    await instance?.close();
  });

  const ofPost = () => {
    const report = inboxes.report();
    const id = Object.keys(report.activities).find((activity) => activity.includes(postId));
    return { report, activity: id ? report.activities[id] : undefined };
  };

  it('counts one verified delivery per shared inbox and per follower elsewhere, and none twice', () => {
    const { report, activity } = ofPost();
    expect(report).toMatchObject({ live: 3, dead: 2, unverified: 0, malformed: 0 });
    expect(report.hungConnections).toBeGreaterThanOrEqual(1);
    expect(activity).toMatchObject({ liveReached: 3, delivered: 4, duplicates: 0 });
    expect(activity?.allLiveAt).toEqual(expect.any(Number));
  });

  it('refuses a delivery signed by a key its signer does not publish, and counts nothing of it', async () => {
    const target = inboxes.servers[0]!;
    const forger = await testRsaKeyPair();
    const body = JSON.stringify({ '@context': 'https://www.w3.org/ns/activitystreams', id: `${instance.origin}/forged`, type: 'Create', actor: `${instance.origin}/ap/actors/x` });
    const request = await signRequest(
      new Request(target.followers[0]!.sharedInbox!, { method: 'POST', headers: { 'content-type': 'application/activity+json' }, body }),
      forger.privateKey,
      new URL('https://elsewhere.example/actor#main-key'),
    );
    const res = await fetch(request);
    expect(res.status).toBe(401);
    const report = inboxes.report();
    expect(report.unverified).toBe(1);
    expect(Object.keys(report.activities)).not.toContain(`${instance.origin}/forged`);
  });

  it('reports a post delivered again as duplicates', async () => {
    await enqueueJob(instance.app.db, FEDERATION_OUTGOING_JOB, { kind: 'post', postId, change: 'create' });
    await instance.runJobs();
    expect(ofPost().activity).toMatchObject({ delivered: 8, duplicates: 4 });
  }, 30_000);
});
