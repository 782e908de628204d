import { randomUUID } from 'node:crypto';
import { signRequest } from '@fedify/fedify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetKeysOfGoneActors } from '../../src/modules/federation/outbound/delivery';
import { runDueJobs } from '../../src/lib/jobs/worker';
import { AS_CONTEXT, type FakeFediverse, PUBLIC, deliverToInbox, fetchSignerOf, startFakeFediverse } from '../helpers/fake-fediverse';
import { type TestUser, call, createPost, createUser } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';
import { testRsaKeyPair } from '../helpers/test-keys';

/**
 * Servers in authorized-fetch (secure) mode, as GoToSocial is by default and Mastodon with
 * AUTHORIZED_FETCH, answer a document only to a GET signed by an actor of the asking server. The
 * instance signs every document it reads with the key of its own actor (an Application, never a
 * user), and answers a signed GET from a blocked domain with a refusal.
 */

const ORIGIN = 'https://kruh.example';
const HOST = 'kruh.example';
const INSTANCE_ACTOR = `${ORIGIN}/ap/actors/instance`;
const AP = { accept: 'application/activity+json' };

describe('signed fetches', () => {
  const t = useTestApp({ FEDERATION: 'true', FEDERATION_ALLOW_HTTP: 'true', PUBLIC_URL: ORIGIN });
  let secure: FakeFediverse;
  let alice: TestUser;
  /** The local actor whose key signed each document GET the secure server was asked, null for an unsigned one. */
  const signers: Array<string | null> = [];

  beforeAll(async () => {
    secure = await startFakeFediverse({
      authorizedFetch: async (request) => {
        const signer = await fetchSignerOf(t.app, request);
        signers.push(signer);
        return signer !== null;
      },
    });
    alice = await createUser(t.app, { username: 'alice' });
    // Its keys made, as they are moments after a new instance starts (until then it reads unsigned).
    expect((await t.app.inject({ method: 'GET', url: '/ap/actors/instance', headers: AP })).statusCode).toBe(200);
  });
  afterAll(async () => {
    await secure.close();
  });

  it('publishes the instance actor: an Application with a key, found by WebFinger as host@host, whose key maintenance keeps', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/ap/actors/instance', headers: AP });
    expect(res.statusCode).toBe(200);
    const actor = res.json() as Record<string, unknown>;
    expect(actor).toMatchObject({ id: INSTANCE_ACTOR, type: 'Application', preferredUsername: HOST });
    expect(actor.publicKey).toMatchObject({ id: `${INSTANCE_ACTOR}#main-key`, owner: INSTANCE_ACTOR });

    const finger = await t.app.inject({ method: 'GET', url: `/.well-known/webfinger?resource=${encodeURIComponent(`acct:${HOST}@${HOST}`)}` });
    expect(finger.statusCode).toBe(200);
    expect((finger.json() as { links: Array<{ rel: string; href?: string }> }).links).toContainEqual(expect.objectContaining({ rel: 'self', href: INSTANCE_ACTOR }));

    // Not a user's or a group's, yet its key is no gone actor's.
    const keys = () => t.app.db.selectFrom('federation_keys').select('algorithm').where('actor_id', '=', 'instance').execute();
    expect(await keys()).toHaveLength(2);
    await forgetKeysOfGoneActors(t.app.db);
    expect(await keys()).toHaveLength(2);
    const again = await t.app.inject({ method: 'GET', url: '/ap/actors/instance', headers: AP });
    expect((again.json() as { publicKey: unknown }).publicKey).toEqual(actor.publicKey);
  });

  it("finds a handle on a server that answers only signed fetches, and reads its outbox, each document signed by the instance actor", async () => {
    const outbox = '/users/bob/outbox';
    const bob = await secure.actor('bob', { outbox });
    const note = { id: secure.url('/notes/bob-1'), type: 'Note', attributedTo: bob.id, content: '<p>bob 1</p>', to: [PUBLIC], cc: [bob.followers] };
    const create = { id: `${note.id}/activity`, type: 'Create', actor: bob.id, to: note.to, cc: note.cc, object: note };
    secure.serve(outbox, { '@context': AS_CONTEXT, id: secure.url(outbox), type: 'OrderedCollection', totalItems: 1, first: secure.url(`${outbox}?page=1`) });
    secure.serve(`${outbox}?page=1`, { '@context': AS_CONTEXT, id: secure.url(`${outbox}?page=1`), type: 'OrderedCollectionPage', partOf: secure.url(outbox), orderedItems: [create] });
    signers.length = 0;

    const res = await call(t.app, alice, { method: 'GET', url: `/api/search/for/users?query=${encodeURIComponent(bob.handle)}` });
    expect((res.json() as { userList: Array<{ username: string }> }).userList.map((u) => u.username)).toEqual([bob.account]);
    await runDueJobs(t.app);
    const account = await t.app.db.selectFrom('users').select('id').where('username', '=', bob.account).executeTakeFirstOrThrow();
    const posts = await t.app.db.selectFrom('posts').select('text').where('author_id', '=', account.id).execute();
    expect(posts.map((post) => post.text)).toEqual(['bob 1']);

    // The actor, the outbox and its page: each asked once, signed, by the instance's own actor.
    expect(signers.length).toBeGreaterThanOrEqual(3);
    expect(new Set(signers)).toEqual(new Set([INSTANCE_ACTOR]));
  });

  it("checks an activity from such a server with the key it reads there signed, and fetches the thread a reply answers", async () => {
    const carol = await secure.actor('carol');
    const dave = await secure.actor('dave');
    const root = { id: `${carol.id}/notes/${randomUUID()}`, type: 'Note', attributedTo: carol.id, to: [PUBLIC], cc: [carol.followers], content: '<p>what grows?</p>' };
    secure.serve(new URL(root.id).pathname, { '@context': AS_CONTEXT, ...root });
    const reply = {
      id: `${dave.id}/notes/${randomUUID()}`,
      type: 'Note',
      attributedTo: dave.id,
      inReplyTo: root.id,
      to: [PUBLIC],
      cc: [`${ORIGIN}/ap/actors/${alice.id}`],
      tag: [{ type: 'Mention', href: `${ORIGIN}/ap/actors/${alice.id}`, name: `@alice@${HOST}` }],
      content: '<p>leeks, ask alice</p>',
    };
    const create = { id: `${reply.id}/activity`, type: 'Create', actor: dave.id, to: [PUBLIC], object: reply };
    signers.length = 0;

    expect((await deliverToInbox(t.app, '/ap/inbox', create, dave)).statusCode).toBe(202);
    const post = await t.app.db.selectFrom('posts').select(['id', 'text']).where('ap_id', '=', root.id).executeTakeFirst();
    expect(post?.text).toBe('what grows?');
    expect(await t.app.db.selectFrom('comments').select('post_id').where('ap_id', '=', reply.id).executeTakeFirst()).toEqual({ post_id: post!.id });
    expect(signers.length).toBeGreaterThanOrEqual(2);
    expect(new Set(signers)).toEqual(new Set([INSTANCE_ACTOR]));

    // At a personal inbox the key is read on its owner's behalf (read again: its cached copy forgotten),
    // signed by a local actor's key all the same.
    await t.app.db.deleteFrom('federation_kv').where('key', 'like', '%publicKey%').execute();
    const peas = await createPost(t.app, alice, { text: 'peas' });
    const later = { id: `${carol.id}/notes/${randomUUID()}`, type: 'Note', attributedTo: carol.id, inReplyTo: `${ORIGIN}/ap/posts/${peas.id}`, to: [PUBLIC], content: '<p>yes</p>' };
    signers.length = 0;
    const personal = await deliverToInbox(t.app, `/ap/actors/${alice.id}/inbox`, { id: `${later.id}/activity`, type: 'Create', actor: carol.id, to: [PUBLIC], object: later }, carol);
    expect(personal.statusCode).toBe(202);
    expect(await t.app.db.selectFrom('comments').select('post_id').where('ap_id', '=', later.id).executeTakeFirst()).toEqual({ post_id: peas.id });
    expect(signers.length).toBeGreaterThanOrEqual(1);
    expect(signers.every((signer) => signer?.startsWith(`${ORIGIN}/ap/actors/`))).toBe(true);
  });

  describe('a GET of the instance’s documents', () => {
    let privateKey: Awaited<ReturnType<typeof testRsaKeyPair>>['privateKey'];
    beforeAll(async () => {
      privateKey = (await testRsaKeyPair()).privateKey;
    });

    /** A GET of the path signed with a made-up key whose id is on the host (its signature is never checked: the host alone refuses). */
    async function signedGet(path: string, host: string) {
      const signed = await signRequest(new Request(new URL(path, ORIGIN), { headers: AP }), privateKey, new URL(`https://${host}/users/someone#main-key`));
      const headers: Record<string, string> = {};
      signed.headers.forEach((value, name) => {
        headers[name] = value;
      });
      return t.app.inject({ method: 'GET', url: path, headers });
    }

    it('is refused when signed by a key on a blocked domain, and answered unsigned or signed elsewhere', async () => {
      await t.app.db.insertInto('federation_domain_blocks').values({ domain: 'blocked.example', created_at: Date.now(), created_by: alice.id }).execute();
      const post = await createPost(t.app, alice, { text: 'public words' });
      const webfinger = `/.well-known/webfinger?resource=${encodeURIComponent(`acct:alice@${HOST}`)}`;
      for (const path of [`/ap/actors/${alice.id}`, `/ap/posts/${post.id}`, `/ap/actors/${alice.id}/outbox`, '/ap/actors/instance', webfinger]) {
        const refused = await signedGet(path, 'blocked.example');
        expect(refused.statusCode, path).toBe(403);
        expect(refused.json()).toEqual({ message: 'error/remote_blocked' });
        expect((await signedGet(path, 'sub.blocked.example')).statusCode, path).toBe(403);
        expect((await signedGet(path, 'friendly.example')).statusCode, path).toBe(200);
        expect((await t.app.inject({ method: 'GET', url: path, headers: AP })).statusCode, path).toBe(200);
      }
    });
  });
});
