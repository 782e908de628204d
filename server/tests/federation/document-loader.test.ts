import { afterAll, describe, expect, it } from 'vitest';
import { Egress, EgressRefused } from '../../src/lib/egress/egress';
import { MAX_REDIRECTS, egressDocumentLoader, knownContextLoader } from '../../src/modules/federation/document-loader';
import { type RedirectChain, startRedirectChain } from '../helpers/redirect-chain';

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

describe('the JSON-LD context loader', () => {
  it('answers the known contexts and fails on any other, without a request', async () => {
    const server = await chain(0);
    expect((await knownContextLoader('https://join-lemmy.org/context.json')).document).toHaveProperty('@context');
    await expect(knownContextLoader(server.start)).rejects.toThrow(/unknown JSON-LD context/);
    expect(server.asked).toEqual([]);
  });
});
