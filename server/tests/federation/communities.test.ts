import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { remoteAccountFor } from '../../src/modules/remote/remote-accounts';
import { runDueJobs } from '../../src/lib/jobs/worker';
import { AS_CONTEXT, type FakeActor, type FakeFediverse, PUBLIC, deliverToInbox, signerOf, startFakeFediverse } from '../helpers/fake-fediverse';
import { type TestUser, call, createUser } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';

/**
 * Communities of other servers (a Lemmy community: a Group actor) that local users follow: a post
 * goes into one as into a group, and a comment under a post the community holds goes to it too,
 * filed under it, so the community passes both on to its members. Fake servers record what their
 * inboxes receive; each delivery's signature is checked against the local actor's key.
 */

const ORIGIN = 'https://kruh.example';
const PUBLIC_ADDRESS = /^(as:Public|https:\/\/www\.w3\.org\/ns\/activitystreams#Public)$/;
const list = <T,>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);
const actor = (id: string) => `${ORIGIN}/ap/actors/${id}`;

type Json = Record<string, unknown> & { type: string; actor?: string; to?: string | string[]; cc?: string | string[]; object?: unknown };
type NoteJson = Json & { id: string; audience?: string; inReplyTo?: string; tag?: unknown };

describe('posting and commenting in communities of other servers', () => {
  const t = useTestApp({ FEDERATION: 'true', FEDERATION_ALLOW_HTTP: 'true', PUBLIC_URL: ORIGIN });
  /** A Lemmy-like server holding the communities, and another where their members live. */
  let lemmy: FakeFediverse;
  let members: FakeFediverse;
  let seeds: FakeActor;
  let other: FakeActor;
  let bob: FakeActor;
  let alice: TestUser;
  let seedsAccount: string;
  let otherAccount: string;
  let bobAccount: string;

  const ok = <R extends { statusCode: number; body: string }>(res: R, status = 200): R => {
    expect(res.statusCode, res.body).toBe(status);
    return res;
  };

  /** The account a handle's search makes for a remote actor (its server asked, as the search page does). */
  async function find(handle: string): Promise<string> {
    const res = ok(await call(t.app, alice, { method: 'GET', url: `/api/search/for/users?query=${encodeURIComponent(handle)}` }));
    const found = (res.json() as { userList: Array<{ _id: string; username: string }> }).userList.find((u) => `@${u.username}` === handle);
    expect(found, handle).toBeDefined();
    return found!._id;
  }

  /** Runs the queue and answers what the community's server received meanwhile, each with its signer. */
  async function toCommunities(run: () => Promise<unknown>) {
    const from = lemmy.received.length;
    await run();
    await runDueJobs(t.app);
    return Promise.all(
      lemmy.received.slice(from).map(async (delivery) => ({ path: delivery.path, signer: await signerOf(t.app, lemmy, delivery), activity: JSON.parse(delivery.body) as Json })),
    );
  }

  const post = (groups: string[], text = 'Saving bean seeds') => call(t.app, alice, { method: 'POST', url: '/api/post', payload: { text, groups } });

  beforeAll(async () => {
    lemmy = await startFakeFediverse();
    members = await startFakeFediverse();
    seeds = await lemmy.actor('seeds', { type: 'Group' });
    other = await lemmy.actor('orchards', { type: 'Group' });
    bob = await members.actor('bob');
    alice = await createUser(t.app, { username: 'alice' });
    seedsAccount = await find(seeds.handle);
    otherAccount = await find(other.handle);
    bobAccount = await find(bob.handle);
    // She follows the seeds community and bob; not the orchards one.
    ok(await call(t.app, alice, { method: 'POST', url: '/api/follow', payload: { following: seedsAccount } }), 201);
    ok(await call(t.app, alice, { method: 'POST', url: '/api/follow', payload: { following: bobAccount } }), 201);
    await runDueJobs(t.app);
  });
  afterAll(async () => {
    await lemmy?.close();
    await members?.close();
  });

  it('offers the communities she follows in the group slots, as name@host, and no person nor a community she does not follow', async () => {
    const suggested = async (query: string) =>
      ok(await call(t.app, alice, { method: 'GET', url: `/api/search/mygroups?query=${encodeURIComponent(query)}` })).json() as Array<{ _id: string; name: string }>;
    expect(await suggested('see')).toEqual([{ _id: seedsAccount, name: seeds.account }]);
    expect(await suggested('orch')).toEqual([]);
    expect(await suggested('bob')).toEqual([]);
  });

  it('refuses a post into a community she does not follow, into a person, or into a name@host known as nothing here', async () => {
    for (const entry of [other.account, otherAccount, bob.account, `nowhere@${lemmy.host}`]) {
      const res = await post([entry]);
      expect(res.statusCode, entry).toBe(403);
      expect(res.json()).toMatchObject({ message: 'error/not_following_community' });
    }
    expect(await t.app.db.selectFrom('posts').select('id').where('author_id', '=', alice.id).execute()).toEqual([]);
  });

  it("sends a post into a community she follows to the community's inbox, filed under it, and its deletion there too", async () => {
    let postId = '';
    const created = await toCommunities(async () => {
      postId = (ok(await post([seeds.account]), 201).json() as { _id: string })._id;
    });
    expect(created.map((d) => d.path)).toEqual(['/shared-inbox']);
    const create = created[0]!;
    expect(create.signer).toBe(actor(alice.id));
    expect(create.activity).toMatchObject({ type: 'Create', actor: actor(alice.id) });
    expect(list(create.activity.to)).toEqual([expect.stringMatching(PUBLIC_ADDRESS)]);
    expect(list(create.activity.cc)).toEqual(expect.arrayContaining([`${actor(alice.id)}/followers`, seeds.id]));
    const note = create.activity.object as NoteJson;
    expect(note).toMatchObject({ type: 'Note', id: `${ORIGIN}/ap/posts/${postId}`, audience: seeds.id });
    expect(list(note.cc)).toEqual(expect.arrayContaining([seeds.id]));
    // Her post names the community among its groups, as its name there.
    const view = ok(await call(t.app, alice, { method: 'GET', url: `/api/post/${postId}` })).json() as { groups: unknown[] };
    expect(view.groups).toEqual([{ _id: null, name: seeds.account }]);
    // The Note read at its address says the same.
    const fetched = ok(await t.app.inject({ method: 'GET', url: `/ap/posts/${postId}`, headers: { accept: 'application/activity+json' } })).json() as NoteJson;
    expect(fetched.audience).toBe(seeds.id);

    const deleted = await toCommunities(() => call(t.app, alice, { method: 'DELETE', url: `/api/post/${postId}` }).then((res) => ok(res)));
    expect(deleted.map((d) => [d.path, d.activity.type])).toEqual([['/shared-inbox', 'Delete']]);
  });

  it('sends a comment under a post the community passed on to the community, filed under it, besides its author', async () => {
    const note = { id: members.url(`/users/bob/notes/${randomUUID()}`), type: 'Note', attributedTo: bob.id, to: [PUBLIC, seeds.id], cc: [bob.followers], audience: seeds.id, content: '<p>Dry them first</p>' };
    members.serve(new URL(note.id).pathname, { '@context': AS_CONTEXT, ...note });
    // The community passes bob's post on by its address, as Lemmy does.
    const announce = { id: lemmy.url(`/activities/announce/${randomUUID()}`), type: 'Announce', actor: seeds.id, to: [PUBLIC], cc: [`${seeds.id}/followers`], object: note.id };
    expect((await deliverToInbox(t.app, '/ap/inbox', announce, seeds)).statusCode).toBe(202);
    const stored = await t.app.db.selectFrom('posts').select('id').where('ap_id', '=', note.id).executeTakeFirstOrThrow();

    let commentId = '';
    const sent = await toCommunities(async () => {
      commentId = (ok(await call(t.app, alice, { method: 'POST', url: '/api/comment/', payload: { parent: stored.id, text: 'In paper bags' } }), 201).json() as { _id: string })._id;
    });
    expect(sent.map((d) => d.path)).toEqual(['/shared-inbox']);
    expect(sent[0]!.signer).toBe(actor(alice.id));
    expect(sent[0]!.activity).toMatchObject({ type: 'Create', actor: actor(alice.id) });
    const reply = sent[0]!.activity.object as NoteJson;
    expect(reply).toMatchObject({ type: 'Note', id: `${ORIGIN}/ap/comments/${commentId}`, inReplyTo: note.id, audience: seeds.id });
    expect(list(reply.cc)).toEqual(expect.arrayContaining([bob.id, seeds.id]));
    // The community is filed under, not mentioned.
    expect(list(reply.tag)).toEqual([{ type: 'Mention', href: bob.id, name: bob.handle }]);

    const deleted = await toCommunities(() => call(t.app, alice, { method: 'DELETE', url: `/api/comment/${commentId}` }).then((res) => ok(res)));
    expect(deleted.map((d) => [d.path, d.activity.type])).toEqual([['/shared-inbox', 'Delete']]);
  });

  it('sends a comment under a post whose Note was filed under the community to the community too', async () => {
    const note = { id: members.url(`/users/bob/notes/${randomUUID()}`), type: 'Note', attributedTo: bob.id, to: [PUBLIC], cc: [bob.followers], audience: seeds.id, content: '<p>Beans from last year</p>' };
    const create = { id: `${note.id}/activity`, type: 'Create', actor: bob.id, to: [PUBLIC], cc: [bob.followers], object: note };
    expect((await deliverToInbox(t.app, '/ap/inbox', create, bob)).statusCode).toBe(202);
    const stored = await t.app.db.selectFrom('posts').select('id').where('ap_id', '=', note.id).executeTakeFirstOrThrow();

    const sent = await toCommunities(() => call(t.app, alice, { method: 'POST', url: '/api/comment/', payload: { parent: stored.id, text: 'Still good' } }).then((res) => ok(res, 201)));
    expect(sent.map((d) => d.path)).toEqual(['/shared-inbox']);
    expect(sent[0]!.activity.object).toMatchObject({ type: 'Note', inReplyTo: note.id, audience: seeds.id });
  });

  it('sends a comment to a community known from before communities were told apart, once it passed the post on', async () => {
    // Kept before a Group was marked as one: its account says nothing of it until read again.
    const herbs = await lemmy.actor('herbs', { type: 'Group' });
    const herbsAccount = await remoteAccountFor(t.app.db, { id: herbs.id, inbox: herbs.inbox, sharedInbox: herbs.sharedInbox, handle: herbs.handle, url: null, bio: '' }, Date.now());
    ok(await call(t.app, alice, { method: 'POST', url: '/api/follow', payload: { following: herbsAccount } }), 201);
    await runDueJobs(t.app);
    const note = { id: members.url(`/users/bob/notes/${randomUUID()}`), type: 'Note', attributedTo: bob.id, to: [PUBLIC], cc: [bob.followers], content: '<p>Basil from cuttings</p>' };
    members.serve(new URL(note.id).pathname, { '@context': AS_CONTEXT, ...note });
    const announce = { id: lemmy.url(`/activities/announce/${randomUUID()}`), type: 'Announce', actor: herbs.id, to: [PUBLIC], object: note.id };
    expect((await deliverToInbox(t.app, '/ap/inbox', announce, herbs)).statusCode).toBe(202);
    const stored = await t.app.db.selectFrom('posts').select('id').where('ap_id', '=', note.id).executeTakeFirstOrThrow();

    const sent = await toCommunities(() => call(t.app, alice, { method: 'POST', url: '/api/comment/', payload: { parent: stored.id, text: 'In water first' } }).then((res) => ok(res, 201)));
    expect(sent.map((d) => d.path)).toEqual(['/shared-inbox']);
    expect(sent[0]!.activity.object).toMatchObject({ type: 'Note', inReplyTo: note.id, audience: herbs.id });
  });

  it("counts a community's announce of a post of hers as its share only when she filed the post under it", async () => {
    const filed = (ok(await post([seeds.account], 'Filed under seeds'), 201).json() as { _id: string })._id;
    const unfiled = (ok(await post([], 'Only mine'), 201).json() as { _id: string })._id;
    for (const postId of [filed, unfiled]) {
      const announce = { id: lemmy.url(`/activities/announce/${randomUUID()}`), type: 'Announce', actor: seeds.id, to: [PUBLIC], object: `${ORIGIN}/ap/posts/${postId}` };
      expect((await deliverToInbox(t.app, '/ap/inbox', announce, seeds)).statusCode).toBe(202);
    }
    const shares = await t.app.db.selectFrom('post_shares').select('post_id').where('sharer_id', '=', seedsAccount).where('post_id', 'in', [filed, unfiled]).execute();
    expect(shares).toEqual([{ post_id: filed }]);
  });
});
