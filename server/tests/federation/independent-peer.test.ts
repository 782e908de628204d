import { createHash, createSign, createVerify, generateKeyPairSync, randomUUID } from 'node:crypto';
import { type IncomingHttpHeaders, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../helpers/fixtures';
import { type KruhInstance, startInstance } from '../helpers/kruh-instance';

/**
 * Kruh against a peer that shares none of its code: plain `fetch`, JSON and `node:crypto`, written
 * from the protocols as Mastodon documents them (WebFinger, an actor with `publicKeyPem`, HTTP
 * Signatures with a `Digest`). The peer looks a user up, follows them with a Follow it signs itself,
 * and checks the signature of what the instance then delivers to its inbox by its own reading of
 * the scheme. Fedify on the instance's side cannot vouch for itself here: a mistake both of its ends
 * would share is caught by this one.
 */

const AS = 'https://www.w3.org/ns/activitystreams';
const AP = 'application/activity+json';
const PUBLIC_FORMS = [`${AS}#Public`, 'as:Public', 'Public'];

interface Delivery {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

interface Peer {
  origin: string;
  actorId: string;
  keyId: string;
  privateKeyPem: string;
  received: Delivery[];
  close(): Promise<void>;
}

async function startPeer(): Promise<Peer> {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const privateKeyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const received: Delivery[] = [];
  let actor = '';
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method === 'GET' && request.url === '/users/peer') {
        response.setHeader('Content-Type', AP);
        response.end(actor);
        return;
      }
      received.push({ method: request.method ?? '', path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.statusCode = 202;
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const actorId = `${origin}/users/peer`;
  const keyId = `${actorId}#main-key`;
  actor = JSON.stringify({
    '@context': [AS, 'https://w3id.org/security/v1'],
    id: actorId,
    type: 'Person',
    preferredUsername: 'peer',
    inbox: `${origin}/users/peer/inbox`,
    endpoints: { sharedInbox: `${origin}/inbox` },
    publicKey: { id: keyId, owner: actorId, publicKeyPem },
  });
  return { origin, actorId, keyId, privateKeyPem, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const sha256 = (body: string) => `SHA-256=${createHash('sha256').update(body).digest('base64')}`;

/** The signing string of draft-cavage HTTP Signatures: one `name: value` line per signed header. */
function signingString(names: string[], method: string, path: string, header: (name: string) => string | undefined): string {
  return names.map((name) => (name === '(request-target)' ? `(request-target): ${method.toLowerCase()} ${path}` : `${name}: ${header(name) ?? ''}`)).join('\n');
}

/** Posts an activity to `url`, signed by the peer as Mastodon signs. */
async function postSigned(peer: Peer, url: string, activity: object): Promise<Response> {
  const body = JSON.stringify({ '@context': AS, ...activity });
  const target = new URL(url);
  const headers: Record<string, string> = { host: target.host, date: new Date().toUTCString(), digest: sha256(body), 'content-type': AP };
  const names = ['(request-target)', 'host', 'date', 'digest', 'content-type'];
  const signature = createSign('RSA-SHA256').update(signingString(names, 'POST', target.pathname, (name) => headers[name])).sign(peer.privateKeyPem, 'base64');
  headers.signature = `keyId="${peer.keyId}",algorithm="rsa-sha256",headers="${names.join(' ')}",signature="${signature}"`;
  return fetch(url, { method: 'POST', headers, body });
}

/** The `Signature` header's parameters. */
function signatureParams(value: string): Record<string, string> {
  return Object.fromEntries([...value.matchAll(/(\w+)="([^"]*)"/g)].map((match) => [match[1]!, match[2]!]));
}

describe('an independent fediverse peer', () => {
  let kruh: KruhInstance;
  let peer: Peer;

  beforeAll(async () => {
    kruh = await startInstance();
    peer = await startPeer();
  });
  afterAll(async () => {
    await peer?.close();
    await kruh?.close();
  });

  it('looks a user up, follows them, and receives their public post signed by the key their actor publishes', async () => {
    const alice = await createUser(kruh.app, { username: 'alice' });

    // WebFinger, then the actor its `self` link names, as any server resolves @alice@host.
    const finger = await fetch(`${kruh.origin}/.well-known/webfinger?resource=${encodeURIComponent(`acct:alice@${kruh.host}`)}`);
    expect(finger.status).toBe(200);
    const self = ((await finger.json()) as { links: Array<{ rel: string; type?: string; href: string }> }).links.find(
      (link) => link.rel === 'self' && link.type === AP,
    );
    expect(self?.href).toBeDefined();
    const actor = (await (await fetch(self!.href, { headers: { accept: AP } })).json()) as {
      id: string;
      type: string;
      inbox: string;
      preferredUsername: string;
      publicKey: { id: string; owner: string; publicKeyPem: string };
    };
    expect(actor).toMatchObject({ id: self!.href, type: 'Person', preferredUsername: 'alice' });
    expect(actor.publicKey.owner).toBe(actor.id);
    expect(actor.publicKey.publicKeyPem).toContain('BEGIN PUBLIC KEY');

    // An unsigned Follow is refused; the signed one is taken and answered with an Accept.
    const follow = { id: `${peer.actorId}#follows/${randomUUID()}`, type: 'Follow', actor: peer.actorId, object: actor.id };
    const unsigned = await fetch(actor.inbox, { method: 'POST', headers: { 'content-type': AP }, body: JSON.stringify({ '@context': AS, ...follow }) });
    expect(unsigned.status).toBe(401);
    expect((await postSigned(peer, actor.inbox, follow)).status).toBe(202);
    await kruh.runJobs();
    const accept = peer.received.map((delivery) => JSON.parse(delivery.body) as { type: string; object: { id: string } }).find((a) => a.type === 'Accept');
    expect(accept?.object.id).toBe(follow.id);

    // A public post reaches the peer's shared inbox as a Create of its Note.
    const created = await kruh.app.inject({ method: 'POST', url: '/api/post', headers: alice.auth, payload: { text: 'Hello, fediverse #kruh' } });
    expect(created.statusCode).toBe(201);
    await kruh.runJobs();
    const delivery = peer.received.find((d) => (JSON.parse(d.body) as { type: string }).type === 'Create');
    expect(delivery?.path).toBe('/inbox');
    const create = JSON.parse(delivery!.body) as { actor: string; object: { type: string; content: string; attributedTo: string; to: string[] | string } };
    expect(create.actor).toBe(actor.id);
    expect(create.object).toMatchObject({ type: 'Note', attributedTo: actor.id });
    expect(create.object.content).toContain('Hello, fediverse');
    // Public as Mastodon recognises it: the full IRI, or its compacted `as:Public` / `Public`.
    expect([create.object.to].flat().some((to) => PUBLIC_FORMS.includes(to))).toBe(true);

    // The peer's own check of the delivery: the digest of the body as received, and the signature
    // over the headers it names, by the key the actor document published.
    const headers = delivery!.headers;
    expect(headers.digest).toBe(sha256(delivery!.body));
    const params = signatureParams(String(headers.signature));
    expect(params.keyId).toBe(actor.publicKey.id);
    const names = params.headers!.split(' ');
    expect(names).toEqual(expect.arrayContaining(['(request-target)', 'host', 'date', 'digest']));
    const text = signingString(names, delivery!.method, delivery!.path, (name) => {
      const value = headers[name];
      return Array.isArray(value) ? value.join(', ') : value;
    });
    expect(createVerify('RSA-SHA256').update(text).verify(actor.publicKey.publicKeyPem, params.signature!, 'base64')).toBe(true);
    // The same check fails for anything else signed: it is not a check that always passes.
    expect(createVerify('RSA-SHA256').update(`${text}\n`).verify(actor.publicKey.publicKeyPem, params.signature!, 'base64')).toBe(false);
    expect(sha256(`${delivery!.body} `)).not.toBe(headers.digest);
  });
});
