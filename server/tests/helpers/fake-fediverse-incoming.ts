import { type IncomingHttpHeaders, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJwk, generateCryptoKeyPair, importJwk, signRequest } from '@fedify/fedify';
import { CryptographicKey, Endpoints, Group, Person } from '@fedify/fedify/vocab';
import type { FastifyInstance } from 'fastify';

/**
 * A remote fediverse server inside a test: a local http server (reached over plain http, which
 * FEDERATION_ALLOW_HTTP lets the instance do) serving its actors' documents and whatever objects
 * the test puts up, and keeping what is delivered to it. Its actors sign activities with their own
 * keys, as a real server does, so the instance checks them as it checks anyone's.
 */

export const AS_CONTEXT = 'https://www.w3.org/ns/activitystreams';
export const PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface FakeActor {
  /** The actor's IRI. */
  id: string;
  name: string;
  /** `name@host`, the name of its account on the instance. */
  account: string;
  keyId: URL;
  privateKey: Awaited<ReturnType<typeof importJwk>>;
  inbox: string;
  followers: string;
}

export interface FakeFediverse {
  origin: string;
  host: string;
  received: Received[];
  /** Adds an actor (a Person, or a Group as a Lemmy community) with a key of its own. */
  actor(name: string, options?: { type?: 'Person' | 'Group'; summary?: string }): Promise<FakeActor>;
  /** Serves a JSON document (a Note, an activity) at the path, with the ActivityPub type. */
  serve(path: string, document: unknown): void;
  /** An address on this server. */
  url(path: string): string;
  close(): Promise<void>;
}

export async function startFakeFediverse(): Promise<FakeFediverse> {
  const documents = new Map<string, string>();
  const received: Received[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      if (request.method === 'GET') {
        const document = documents.get(path);
        response.statusCode = document === undefined ? 404 : 200;
        response.setHeader('Content-Type', 'application/activity+json');
        response.end(document ?? '{}');
        return;
      }
      received.push({ path, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.statusCode = 202;
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const url = (path: string) => new URL(path, origin).href;
  const serve = (path: string, document: unknown) => {
    documents.set(path, JSON.stringify(document));
  };

  async function actor(name: string, options: { type?: 'Person' | 'Group'; summary?: string } = {}): Promise<FakeActor> {
    const pair = await generateCryptoKeyPair('RSASSA-PKCS1-v1_5');
    // Kept and read back as JWK, as a real server stores its keys.
    const privateKey = await importJwk(await exportJwk(pair.privateKey), 'private');
    const path = `/users/${name}`;
    const id = url(path);
    const keyId = new URL(`${id}#main-key`);
    const values = {
      id: new URL(id),
      preferredUsername: name,
      summary: options.summary ?? null,
      url: new URL(url(`/@${name}`)),
      inbox: new URL(`${id}/inbox`),
      followers: new URL(`${id}/followers`),
      endpoints: new Endpoints({ sharedInbox: new URL(url('/shared-inbox')) }),
      publicKey: new CryptographicKey({ id: keyId, owner: new URL(id), publicKey: pair.publicKey }),
    };
    const document = options.type === 'Group' ? new Group(values) : new Person(values);
    serve(path, await document.toJsonLd());
    return { id, name, account: `${name}@${new URL(origin).host}`, keyId, privateKey, inbox: `${id}/inbox`, followers: `${id}/followers` };
  }

  return {
    origin,
    host: new URL(origin).host,
    received,
    actor,
    serve,
    url,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Posts an activity to one of the app's inboxes as a remote server would: signed with the
 * `signer`'s key (an activity's own actor, or someone else forging it), or unsigned for null.
 */
export async function deliverToInbox(app: FastifyInstance, inboxPath: string, activity: object, signer: FakeActor | null) {
  const body = JSON.stringify({ '@context': AS_CONTEXT, ...activity });
  let request = new Request(new URL(inboxPath, app.config.publicUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/activity+json' },
    body,
  });
  if (signer) request = await signRequest(request, signer.privateKey, signer.keyId);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return app.inject({ method: 'POST', url: inboxPath, headers, payload: body });
}
