import { CryptographicKey, Person } from '@fedify/fedify/vocab';
import { afterAll, describe, expect, it } from 'vitest';
import { Egress, EgressRefused } from '../../src/lib/egress/egress';
import { MAX_REDIRECTS, egressDocumentLoader, knownContextLoader } from '../../src/modules/remote/document-loader';
import { startFakeFediverse } from '../helpers/fake-fediverse';
import { type RedirectChain, startRedirectChain } from '../helpers/redirect-chain';
import { testRsaKeyPair } from '../helpers/test-keys';

/** What Fedify fetches of other servers (actors, keys) goes through the outgoing-request guard. */
describe('the federation document loader', () => {
  const resolved: string[] = [];
  const egress = new Egress(async (hostname) => {
    resolved.push(hostname);
    return [{ address: hostname === 'inside.example' ? '10.0.0.7' : '127.0.0.1', family: 4 }];
  });
  const load = egressDocumentLoader(egress, 'Kruh/test');

  it('never reaches a private or loopback address, nor plain http', async () => {
    await expect(load('https://inside.example/actor')).rejects.toBeInstanceOf(EgressRefused);
    await expect(load('https://127.0.0.1/actor')).rejects.toBeInstanceOf(EgressRefused);
    await expect(load('http://remote.example/actor')).rejects.toBeInstanceOf(EgressRefused);
  });

  it('answers the common JSON-LD contexts from its own copies, without a request', async () => {
    resolved.length = 0;
    const document = await load('https://www.w3.org/ns/activitystreams');
    expect(document.documentUrl).toBe('https://www.w3.org/ns/activitystreams');
    expect(document.document).toHaveProperty('@context');
    expect(resolved).toEqual([]);
  });
});

const chains: RedirectChain[] = [];
afterAll(async () => {
  await Promise.all(chains.map((chain) => chain.close()));
});
const chain = async (hops: number, delayMs?: number) => {
  const started = await startRedirectChain(hops, delayMs);
  chains.push(started);
  return started;
};

describe('a remote document behind redirects', () => {
  const loaderWithin = (documentTimeoutMs?: number) => egressDocumentLoader(new Egress(), 'Kruh/test', { allowLoopbackHttp: true, documentTimeoutMs });

  it(`is read through at most ${MAX_REDIRECTS} redirects`, async () => {
    const near = await chain(MAX_REDIRECTS);
    expect((await loaderWithin()(near.start)).documentUrl).toMatch(new RegExp(`/hop/${MAX_REDIRECTS}$`));
    const far = await chain(5);
    await expect(loaderWithin()(far.start)).rejects.toThrow(/too many redirects/);
    expect(far.asked).toHaveLength(MAX_REDIRECTS + 1);
  });

  it('is given up at one deadline for all its hops, however quickly each answers', async () => {
    // Each hop well within the deadline, the third past it together.
    const slow = await chain(MAX_REDIRECTS, 300);
    await expect(loaderWithin(700)(slow.start)).rejects.toThrow();
    expect(slow.asked).toEqual(['/hop/0', '/hop/1', '/hop/2']);
  });
});

describe('a remote document importing a JSON-LD context', () => {
  it('is refused: the JSON-LD reader would keep what an import read, and fail every later document naming that context', async () => {
    const remote = await startFakeFediverse();
    try {
      remote.serve('/actor', { '@context': ['https://www.w3.org/ns/activitystreams', { '@import': 'https://w3id.org/security/v1' }], id: remote.url('/actor'), type: 'Person' });
      remote.serve('/note', { '@context': 'https://www.w3.org/ns/activitystreams', id: remote.url('/note'), type: 'Note', tag: [{ '@context': { '@import': remote.url('/ctx') } }] });
      const load = egressDocumentLoader(new Egress(), 'Kruh/test', { allowLoopbackHttp: true });
      await expect(load(remote.url('/actor'))).rejects.toThrow(/imports a JSON-LD context/);
      await expect(load(remote.url('/note'))).rejects.toThrow(/imports a JSON-LD context/);
      remote.serve('/plain', { '@context': 'https://www.w3.org/ns/activitystreams', id: remote.url('/plain'), type: 'Note', content: '@import is only text here' });
      expect((await load(remote.url('/plain'))).document).toMatchObject({ type: 'Note' });
    } finally {
      await remote.close();
    }
  });
});

describe('the JSON-LD context loader', () => {
  /** An actor with a key, its document naming the contexts given in place of its own. */
  async function actorNaming(context: unknown[]) {
    const id = new URL('https://social.example/users/bob');
    const { publicKey } = await testRsaKeyPair();
    const key = new CryptographicKey({ id: new URL('#main-key', id), owner: id, publicKey });
    const document = { ...((await new Person({ id, name: 'Bob', preferredUsername: 'bob', publicKey: key }).toJsonLd()) as object), '@context': context };
    return Person.fromJsonLd(document, { documentLoader: knownContextLoader, contextLoader: knownContextLoader });
  }
  const keyId = 'https://social.example/users/bob#main-key';

  it('answers the known contexts from copies and reads any other as empty, without a request', async () => {
    const server = await chain(0);
    expect((await knownContextLoader('https://join-lemmy.org/context.json')).document).toHaveProperty('@context');
    expect((await knownContextLoader(server.start)).document).toEqual({ '@context': {} });
    // The terms of the standard contexts named beside an unknown one keep their meaning.
    const beside = await actorNaming(['https://www.w3.org/ns/activitystreams', 'https://w3id.org/security/v1', server.start]);
    expect([beside.name?.toString(), beside.publicKeyId?.href]).toEqual(['Bob', keyId]);
    expect(server.asked).toEqual([]);
  });

  it('reads LitePub’s context, wherever a server names it, as the instance’s own copy of it, without a request', async () => {
    const server = await chain(0);
    // Pleroma and Akkoma name their own copy (its security terms bring an actor's key); Mobilizon the canonical one.
    for (const litepub of [new URL('/schemas/litepub-0.1.jsonld', server.start).href, 'https://litepub.social/litepub/context.jsonld']) {
      const actor = await actorNaming(['https://www.w3.org/ns/activitystreams', litepub, { '@language': 'und' }]);
      expect([actor.preferredUsername?.toString(), actor.publicKeyId?.href]).toEqual(['bob', keyId]);
    }
    expect(server.asked).toEqual([]);
  });
});
