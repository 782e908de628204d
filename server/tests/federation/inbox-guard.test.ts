import { randomUUID } from 'node:crypto';
import { signRequest } from '@fedify/fedify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_DEPTH } from '../../src/modules/federation/inbound/inbox-guard';
import { expectError } from '../helpers/expect';
import {
  AS_CONTEXT,
  type FakeActor,
  type FakeFediverse,
  LITEPUB_CONTEXT,
  LITEPUB_CONTEXT_PATH,
  PUBLIC,
  deliverToInbox,
  injectSigned,
  pleromaContext,
  startFakeFediverse,
} from '../helpers/fake-fediverse';
import { type TestUser, createPost, createUser } from '../helpers/fixtures';
import { type RedirectChain, startRedirectChain } from '../helpers/redirect-chain';
import { useTestApp } from '../helpers/test-app';

/**
 * What an inbox refuses before and after a request's signature is checked: a server's budget is
 * spent only by requests its own key signed; an unsigned request, or one nested deeper than any
 * activity, is refused without a single request to anyone; a JSON-LD context named by address is
 * never fetched (one the instance does not know reads as empty); and a signing key a server hides behind slow redirects holds the request no
 * longer than one short deadline.
 */

const ORIGIN = 'https://kruh.example';
const FEDERATED = { FEDERATION: 'true', FEDERATION_ALLOW_HTTP: 'true', PUBLIC_URL: ORIGIN };
const INBOX = '/ap/inbox';
const INBOX_URL = `${ORIGIN}${INBOX}`;

/** A POST of the body text to the shared inbox, signed with `key` under the name `keyId` (a forger names someone else's). */
function signedBody(text: string, key: FakeActor['privateKey'], keyId: URL): Promise<Request> {
  return signRequest(new Request(INBOX_URL, { method: 'POST', headers: { 'content-type': 'application/activity+json' }, body: text }), key, keyId);
}

const followOf = (from: string, to: string) => ({ '@context': AS_CONTEXT, id: `${from}/follows/${randomUUID()}`, type: 'Follow', actor: from, object: to });

describe('an inbox’s per-server budget', () => {
  const t = useTestApp({ ...FEDERATED, RATE_INBOX_POSTS_PER_HOST_PER_HOUR: '2', RATE_INBOX_POSTS_PER_ADDRESS_PER_HOUR: '20' });
  let remote: FakeFediverse;
  let victim: FakeActor;
  let forger: FakeActor;
  let alice: TestUser;

  beforeAll(async () => {
    remote = await startFakeFediverse();
    victim = await remote.actor('victim');
    forger = await remote.actor('forger');
    alice = await createUser(t.app, { username: 'alice' });
  });
  afterAll(async () => {
    await remote.close();
  });

  const aliceActor = () => `${ORIGIN}/ap/actors/${alice.id}`;

  it('is spent only by requests the server’s own key signed, while each address keeps its own limit', async () => {
    const forgerAddress = { remoteAddress: '10.6.6.6' };
    for (let i = 0; i < 20; i++) {
      const forged = await signedBody(JSON.stringify(followOf(victim.id, aliceActor())), forger.privateKey, victim.keyId);
      expect((await injectSigned(t.app, forged, forgerAddress)).statusCode).toBe(401);
    }
    // The forger's address has run out; the victim's server has not.
    const forged = await signedBody(JSON.stringify(followOf(victim.id, aliceActor())), forger.privateKey, victim.keyId);
    expectError(await injectSigned(t.app, forged, forgerAddress), 429, 'inbox_limit');

    const victimAddress = { remoteAddress: '10.1.1.1' };
    for (let i = 0; i < 2; i++) expect((await deliverToInbox(t.app, INBOX, followOf(victim.id, aliceActor()), victim, victimAddress)).statusCode).toBe(202);
    const over = await deliverToInbox(t.app, INBOX, followOf(victim.id, aliceActor()), victim, victimAddress);
    expectError(over, 429, 'inbox_limit');
    expect(Number(over.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    const counted = await t.app.db.selectFrom('rate_events').select('key').where('key', 'like', 'inbox:host:%').execute();
    expect(counted).toEqual([{ key: 'inbox:host:127.0.0.1' }, { key: 'inbox:host:127.0.0.1' }]);
  });
});

describe('an inbox request’s body, before its signature', () => {
  const t = useTestApp(FEDERATED);
  let remote: FakeFediverse;
  /** Another server, whose address a sender names: it must never be asked for anything. */
  let bystander: FakeFediverse;
  let bob: FakeActor;
  let alice: TestUser;

  beforeAll(async () => {
    remote = await startFakeFediverse();
    bystander = await startFakeFediverse();
    bob = await remote.actor('bob');
    alice = await createUser(t.app, { username: 'alice' });
  });
  afterAll(async () => {
    await remote.close();
    await bystander.close();
  });

  const aliceActor = () => `${ORIGIN}/ap/actors/${alice.id}`;
  const follows = () => t.app.db.selectFrom('remote_follows').selectAll().execute();

  it('is refused unsigned (401) before anything it names is fetched', async () => {
    const activity = { ...followOf(bystander.url('/users/someone'), aliceActor()), '@context': [AS_CONTEXT, bystander.url('/context.jsonld')] };
    const res = await deliverToInbox(t.app, INBOX, activity, null);
    expectError(res, 401, 'activity_unsigned');
    expect(bystander.asked).toEqual([]);
  });

  it(`is refused when it nests deeper than ${MAX_BODY_DEPTH} levels (400, not a crash)`, async () => {
    const deep = '['.repeat(5000) + ']'.repeat(5000);
    const text = JSON.stringify(followOf(bob.id, aliceActor())).replace(/}$/, `,"summary":${deep}}`);
    expectError(await injectSigned(t.app, await signedBody(text, bob.privateKey, bob.keyId)), 400, 'activity_too_deep');
    // Brackets inside strings are text, not depth.
    const quoted = { ...followOf(bob.id, aliceActor()), summary: '['.repeat(5000) };
    expect((await deliverToInbox(t.app, INBOX, quoted, bob)).statusCode).toBe(202);
  });

  it('from Pleroma, naming its LitePub context by address, is read and stored without that context being fetched', async () => {
    remote.serve(LITEPUB_CONTEXT_PATH, LITEPUB_CONTEXT);
    // Pleroma's actors too name only ActivityStreams and LitePub: their key is found all the same.
    const pleroma = await remote.actor('pleroma', { context: pleromaContext(remote.origin) });
    const post = await createPost(t.app, alice, { text: 'seeds to swap' });
    const thread = remote.url(`/contexts/${randomUUID()}`);
    const note = {
      id: remote.url(`/objects/${randomUUID()}`),
      type: 'Note',
      actor: pleroma.id,
      attributedTo: pleroma.id,
      to: [PUBLIC],
      cc: [pleroma.followers, aliceActor()],
      content: '<p>I have <b>beans</b></p>',
      source: { content: 'I have **beans**', mediaType: 'text/markdown' },
      summary: '',
      sensitive: false,
      context: thread,
      conversation: thread,
      inReplyTo: `${ORIGIN}/ap/posts/${post.id}`,
      published: '2026-11-28T10:00:00.000Z',
      attachment: [],
      tag: [],
    };
    const create = {
      '@context': pleromaContext(remote.origin),
      id: remote.url(`/activities/${randomUUID()}`),
      type: 'Create',
      actor: pleroma.id,
      to: [PUBLIC],
      cc: [pleroma.followers, aliceActor()],
      context: thread,
      directMessage: false,
      published: note.published,
      object: note,
    };
    expect((await deliverToInbox(t.app, INBOX, create, pleroma)).statusCode).toBe(202);
    const comment = await t.app.db.selectFrom('comments').selectAll().where('ap_id', '=', note.id).executeTakeFirst();
    expect(comment).toMatchObject({ post_id: post.id, text: 'I have beans' });
    expect(remote.asked).not.toContain(LITEPUB_CONTEXT_PATH);
  });

  it('naming a JSON-LD context the instance does not know is read as if that context were empty, never fetching it', async () => {
    const unknown = (name: string) => bystander.url(`/${name}.jsonld`);
    // The terms of the standard context named beside one keep their meaning: the Follow is taken.
    const pat = await remote.actor('pat');
    const top = { ...followOf(pat.id, aliceActor()), '@context': [AS_CONTEXT, unknown('top')] };
    expect((await deliverToInbox(t.app, INBOX, top, pat)).statusCode).toBe(202);
    expect((await follows()).map((row) => row.remote_actor_id)).toContain(pat.id);
    // So is one nested in an object.
    const nested = { ...followOf(bob.id, aliceActor()), object: { '@context': unknown('nested'), id: aliceActor() } };
    expect((await deliverToInbox(t.app, INBOX, nested, bob)).statusCode).toBe(202);
    expect(bystander.asked).toEqual([]);
  });

  it('is refused when it imports a JSON-LD context, which leaves the next activities naming that context readable', async () => {
    const SECURITY = 'https://w3id.org/security/v1';
    for (const imported of [SECURITY, bystander.url('/imported.jsonld')]) {
      const importing = { ...followOf(bob.id, aliceActor()), '@context': [AS_CONTEXT, { '@import': imported }] };
      expectError(await deliverToInbox(t.app, INBOX, importing, bob), 400, 'activity_imports_context');
      // As Mastodon names its contexts, and as a server names one the instance does not know.
      const naming = { ...followOf(bob.id, aliceActor()), '@context': [AS_CONTEXT, imported] };
      expect((await deliverToInbox(t.app, INBOX, naming, bob)).statusCode).toBe(202);
    }
    expect(bystander.asked).toEqual([]);
  });
});

describe('a signing key behind slow redirects', () => {
  const DEADLINE_MS = 500;
  const t = useTestApp({ ...FEDERATED, FEDERATION_FETCH_TIMEOUT_MS: String(DEADLINE_MS) });
  let remote: FakeFediverse;
  let mallory: FakeActor;
  let chain: RedirectChain;

  beforeAll(async () => {
    remote = await startFakeFediverse();
    mallory = await remote.actor('mallory');
    chain = await startRedirectChain(6, 1000);
  });
  afterAll(async () => {
    await chain.close();
    await remote.close();
  });

  it('holds the request no longer than the fetch deadline, all hops together', async () => {
    const started = Date.now();
    const request = await signedBody(JSON.stringify(followOf(mallory.id, `${ORIGIN}/ap/actors/nobody`)), mallory.privateKey, new URL(`${chain.start}#main-key`));
    expect((await injectSigned(t.app, request)).statusCode).toBe(401);
    // Six hops of a second each, were each given its own time; a generous margin over the deadline.
    expect(Date.now() - started).toBeLessThan(4000);
    expect(chain.asked.length).toBeLessThanOrEqual(2);
  });
});
