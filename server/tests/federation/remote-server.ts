import { type IncomingHttpHeaders, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJwk, generateCryptoKeyPair, importJwk, signRequest } from '@fedify/fedify';
import { CryptographicKey, Endpoints, Person } from '@fedify/fedify/vocab';
import type { FastifyInstance } from 'fastify';

/**
 * A fake fediverse server for the federation tests: a local http server serving its actor's
 * document (`bob`, with an RSA key) and keeping what is delivered to its inboxes, and the signed
 * posts it makes to the instance's inboxes.
 */

export const ORIGIN = 'https://kruh.example';
export const AS = 'https://www.w3.org/ns/activitystreams';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface RemoteServer {
  origin: string;
  actorId: string;
  keyId: URL;
  privateKey: Awaited<ReturnType<typeof importJwk>>;
  received: Received[];
  close(): Promise<void>;
}

export async function startRemote(): Promise<RemoteServer> {
  const pair = await generateCryptoKeyPair('RSASSA-PKCS1-v1_5');
  // Kept and read back as JWK, as a real server stores its keys.
  const privateKey = await importJwk(await exportJwk(pair.privateKey), 'private');
  const received: Received[] = [];
  let actorDocument = '';
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method === 'GET' && request.url === '/actor') {
        response.setHeader('Content-Type', 'application/activity+json');
        response.end(actorDocument);
        return;
      }
      received.push({ path: request.url ?? '/', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.statusCode = 202;
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const actorId = `${origin}/actor`;
  const keyId = new URL(`${actorId}#main-key`);
  const person = new Person({
    id: new URL(actorId),
    preferredUsername: 'bob',
    inbox: new URL(`${origin}/inbox`),
    endpoints: new Endpoints({ sharedInbox: new URL(`${origin}/shared-inbox`) }),
    publicKey: new CryptographicKey({ id: keyId, owner: new URL(actorId), publicKey: pair.publicKey }),
  });
  actorDocument = JSON.stringify(await person.toJsonLd());
  return { origin, actorId, keyId, privateKey, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/**
 * Posts an activity to a local inbox, signed by the remote actor's key unless `signed` is false;
 * `remoteAddress` is the network address it comes from.
 */
export async function postToInbox(
  app: FastifyInstance,
  remote: RemoteServer,
  inboxPath: string,
  activity: object,
  { signed = true, remoteAddress }: { signed?: boolean; remoteAddress?: string } = {},
) {
  const body = JSON.stringify({ '@context': AS, ...activity });
  let request = new Request(new URL(inboxPath, ORIGIN), { method: 'POST', headers: { 'content-type': 'application/activity+json' }, body });
  if (signed) request = await signRequest(request, remote.privateKey, remote.keyId);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return app.inject({ method: 'POST', url: inboxPath, headers, payload: body, ...(remoteAddress ? { remoteAddress } : {}) });
}
