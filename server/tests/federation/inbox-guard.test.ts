import { randomUUID } from 'node:crypto';
import { signRequest } from '@fedify/fedify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_DEPTH } from '../../src/modules/federation/inbox-guard';
import { expectError } from '../helpers/expect';
import { AS_CONTEXT, type FakeActor, type FakeFediverse, deliverToInbox, injectSigned, startFakeFediverse } from '../helpers/fake-fediverse';
import { type TestUser, createUser } from '../helpers/fixtures';
import { type RedirectChain, startRedirectChain } from '../helpers/redirect-chain';
import { useTestApp } from '../helpers/test-app';

/**
 * What an inbox refuses before and after a request's signature is checked: a server's budget is
 * spent only by requests its own key signed; an unsigned request, one nested deeper than any
 * activity, or one naming a JSON-LD context the instance does not know is refused without a single
 * request to anyone; and a signing key a server hides behind slow redirects holds the request no
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

  it('is refused when it names a JSON-LD context the instance does not know, which is never fetched', async () => {
    const before = (await follows()).length;
    const unknown = bystander.url('/unknown-context.jsonld');
    const top = { ...followOf(bob.id, aliceActor()), '@context': [AS_CONTEXT, unknown] };
    expectError(await deliverToInbox(t.app, INBOX, top, bob), 400, 'unknown_context');
    // Nor one nested in an object, nor one a context imports.
    const nested = { ...followOf(bob.id, aliceActor()), object: { '@context': unknown, id: aliceActor() } };
    expectError(await deliverToInbox(t.app, INBOX, nested, bob), 400, 'unknown_context');
    const imported = { ...followOf(bob.id, aliceActor()), '@context': [AS_CONTEXT, { '@import': unknown }] };
    expectError(await deliverToInbox(t.app, INBOX, imported, bob), 400, 'unknown_context');
    expect(bystander.asked).toEqual([]);
    expect(await follows()).toHaveLength(before);
    // The common contexts, which Fedify keeps copies of, pass.
    const known = { ...followOf(bob.id, aliceActor()), '@context': [AS_CONTEXT, 'https://w3id.org/security/v1'] };
    expect((await deliverToInbox(t.app, INBOX, known, bob)).statusCode).toBe(202);
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
