import { describe, expect, it } from 'vitest';
import { Egress, EgressRefused } from '../../src/lib/egress/egress';
import { egressDocumentLoader } from '../../src/modules/federation/document-loader';

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
