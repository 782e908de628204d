import { type IncomingHttpHeaders, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { type DocumentLoader, exportJwk, generateCryptoKeyPair, importJwk, preloadedContexts, signRequest, verifyRequest } from '@fedify/fedify';
import { CryptographicKey, Endpoints, Person } from '@fedify/fedify/vocab';

/**
 * A fake fediverse server for tests: a local http server publishing its actors' documents (each
 * with the server's one key) and recording every request posted to it, so a test can read what the
 * instance delivered, verify its signature against the local actor's published key, and sign
 * activities of its own to the instance's inboxes. Tests run with FEDERATION_ALLOW_HTTP, so the
 * instance reaches it over http://127.0.0.1.
 */

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface FakeActor {
  id: string;
  name: string;
  /** `@name@host`. */
  handle: string;
  inbox: string;
  sharedInbox: string | null;
  keyId: URL;
}

export interface FakeServer {
  origin: string;
  received: Received[];
  /** Publishes an actor at `/users/<name>`, with its own inbox and the server's shared one unless `shared` is false. */
  addActor(name: string, options?: { shared?: boolean }): Promise<FakeActor>;
  /** An activity signed by the actor's key, as the request the instance's inbox is to receive. */
  sign(actor: FakeActor, url: string, activity: object): Promise<Request>;
  close(): Promise<void>;
}

export async function startFakeServer(): Promise<FakeServer> {
  const pair = await generateCryptoKeyPair('RSASSA-PKCS1-v1_5');
  // Kept and read back as JWK, as a real server stores its keys.
  const privateKey = await importJwk(await exportJwk(pair.privateKey), 'private');
  const received: Received[] = [];
  const documents = new Map<string, string>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const document = request.method === 'GET' ? documents.get(request.url ?? '') : undefined;
      if (document !== undefined) {
        response.setHeader('Content-Type', 'application/activity+json');
        response.end(document);
        return;
      }
      received.push({ path: request.url ?? '/', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.statusCode = 202;
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  async function addActor(name: string, { shared = true } = {}): Promise<FakeActor> {
    const id = `${origin}/users/${name}`;
    const keyId = new URL(`${id}#main-key`);
    const actor: FakeActor = {
      id,
      name,
      handle: `@${name}@${new URL(origin).host}`,
      inbox: `${id}/inbox`,
      sharedInbox: shared ? `${origin}/shared-inbox` : null,
      keyId,
    };
    const person = new Person({
      id: new URL(id),
      preferredUsername: name,
      inbox: new URL(actor.inbox),
      endpoints: actor.sharedInbox ? new Endpoints({ sharedInbox: new URL(actor.sharedInbox) }) : null,
      publicKey: new CryptographicKey({ id: keyId, owner: new URL(id), publicKey: pair.publicKey }),
    });
    documents.set(`/users/${name}`, JSON.stringify(await person.toJsonLd()));
    return actor;
  }

  async function sign(actor: FakeActor, url: string, activity: object): Promise<Request> {
    const body = JSON.stringify({ '@context': 'https://www.w3.org/ns/activitystreams', ...activity });
    return signRequest(new Request(url, { method: 'POST', headers: { 'content-type': 'application/activity+json' }, body }), privateKey, actor.keyId);
  }

  return { origin, received, addActor, sign, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The instance's own documents, read from the app (contexts from Fedify's copies). */
export function localLoader(app: FastifyInstance): DocumentLoader {
  return async (url) => {
    if (url in preloadedContexts) return { contextUrl: null, document: preloadedContexts[url], documentUrl: url };
    const res = await app.inject({ method: 'GET', url: new URL(url).pathname, headers: { accept: 'application/activity+json' } });
    return { contextUrl: null, document: res.json() as unknown, documentUrl: url };
  };
}

/** The id of the actor whose published key signed a delivery the fake server received, or null. */
export async function signerOf(app: FastifyInstance, server: FakeServer, delivery: Received): Promise<string | null> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(delivery.headers)) if (typeof value === 'string') headers.set(name, value);
  const request = new Request(`${server.origin}${delivery.path}`, { method: 'POST', headers, body: delivery.body });
  const loader = localLoader(app);
  const key = await verifyRequest(request, { documentLoader: loader, contextLoader: loader });
  return key?.ownerId?.href ?? null;
}

/** Posts a signed request (from `FakeServer.sign`) to the app, as it arrived from the network. */
export async function injectSigned(app: FastifyInstance, request: Request) {
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const url = new URL(request.url);
  return app.inject({ method: 'POST', url: url.pathname, headers, payload: await request.text() });
}
