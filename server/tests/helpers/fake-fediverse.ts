import { type IncomingHttpHeaders, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type DocumentLoader, exportJwk, importJwk, preloadedContexts, signRequest, verifyRequest } from '@fedify/fedify';
import { CryptographicKey, Endpoints, Group, Image, Person } from '@fedify/fedify/vocab';
import type { FastifyInstance } from 'fastify';
import { testRsaKeyPair } from './test-keys';

/**
 * A remote fediverse server inside a test: a local http server (reached over plain http, which
 * FEDERATION_ALLOW_HTTP lets the instance do) serving its actors' documents and whatever objects
 * the test puts up (and WebFinger for its actors), and keeping every request posted to it. Its actors sign activities with keys of
 * their own, as a real server does, so the instance checks them as it checks anyone's; and what the
 * instance delivered can be checked against the local actor's published key (`signerOf`).
 */

export const AS_CONTEXT = 'https://www.w3.org/ns/activitystreams';
export const PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';

/** Where a Pleroma or Akkoma server serves its LitePub context, which its documents name by address. */
export const LITEPUB_CONTEXT_PATH = '/schemas/litepub-0.1.jsonld';

/** A LitePub context as such a server serves it: the standard contexts and terms of its own. */
export const LITEPUB_CONTEXT = {
  '@context': [AS_CONTEXT, 'https://w3id.org/security/v1', { litepub: 'http://litepub.social/ns#', directMessage: 'litepub:directMessage' }],
};

/** The `@context` of a Pleroma server's documents: ActivityStreams, LitePub's on that server, an undetermined language. */
export const pleromaContext = (origin: string) => [AS_CONTEXT, new URL(LITEPUB_CONTEXT_PATH, origin).href, { '@language': 'und' }];

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface FakeActor {
  /** The actor's IRI, `<origin>/users/<name>`. */
  id: string;
  name: string;
  /** `name@host`, the name of its account on the instance. */
  account: string;
  /** `@name@host`, the handle kept in `remote_actors`. */
  handle: string;
  inbox: string;
  /** The server's shared inbox, unless the actor was made without one. */
  sharedInbox: string | null;
  followers: string;
  keyId: URL;
  privateKey: Awaited<ReturnType<typeof importJwk>>;
}

export interface ActorOptions {
  /** A Group is a Lemmy community. */
  type?: 'Person' | 'Group';
  summary?: string;
  /** false: the actor names no shared inbox. */
  shared?: boolean;
  /** The path of its picture (a PNG the test serves there). */
  icon?: string;
  /** The path of its outbox (whatever the test serves there). */
  outbox?: string;
  /** The `@context` its document names in place of the standard ones (a Pleroma actor's names LitePub's by its address). */
  context?: unknown[];
}

export interface FakeFediverse {
  origin: string;
  host: string;
  /** Every request posted to the server, in order. */
  received: Received[];
  /** The path (and query) of every document asked for, in order. */
  asked: string[];
  /** Publishes an actor at `/users/<name>` with a key of its own. */
  actor(name: string, options?: ActorOptions): Promise<FakeActor>;
  /** Serves a JSON document (a Note, an activity) at the path, with the ActivityPub type. */
  serve(path: string, document: unknown): void;
  /** Serves bytes (a picture) at the path, with their type. */
  serveFile(path: string, type: string, body: Buffer): void;
  /** Answers the path with an error status, as a failing server does. */
  fail(path: string, status: number): void;
  /**
   * Holds every answer at the path (its pathname, any query) as a silent or slow server does: for
   * `ms` milliseconds, or without `ms` until `release` (still counted in `asked` when asked).
   */
  stall(path: string, ms?: number): void;
  /** Answers the stalled path's held requests, and later ones at once. */
  release(path: string): void;
  /** Answers WebFinger for `acct:name@host` with this address as its ActivityPub `self` (each actor gets its own). */
  webfinger(name: string, self: string): void;
  /** An address on this server. */
  url(path: string): string;
  close(): Promise<void>;
}

export interface FakeFediverseOptions {
  /**
   * A server in authorized-fetch (secure) mode, as GoToSocial is by default: every ActivityPub
   * document is answered only to a GET this check passes (the request as it arrived), else 401.
   * WebFinger and files (pictures) stay public, as they do there.
   */
  authorizedFetch?: (request: Request) => Promise<boolean>;
}

export async function startFakeFediverse(options: FakeFediverseOptions = {}): Promise<FakeFediverse> {
  const documents = new Map<string, { type: string; body: string | Buffer; status?: number }>();
  const received: Received[] = [];
  const asked: string[] = [];
  const stalls = new Map<string, { ms?: number; held: Array<() => void> }>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      if (request.method === 'GET') {
        asked.push(path);
        const url = new URL(path, origin);
        void authorized(url, path, request.headers).then((passed) => {
          if (!passed) {
            response.statusCode = 401;
            response.end();
            return;
          }
          const stalled = stalls.get(url.pathname);
          if (stalled) {
            const answer = () => answerGet(url, path, response);
            if (stalled.ms === undefined) stalled.held.push(answer);
            else setTimeout(answer, stalled.ms);
            return;
          }
          answerGet(url, path, response);
        });
        return;
      }
      received.push({ path, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.statusCode = 202;
      response.end();
    });
  });
  async function authorized(url: URL, path: string, headers: IncomingHttpHeaders): Promise<boolean> {
    const check = options.authorizedFetch;
    const document = documents.get(path);
    if (!check || url.pathname === '/.well-known/webfinger' || (document && document.type !== 'application/activity+json')) return true;
    const asked = new Headers();
    for (const [name, value] of Object.entries(headers)) if (typeof value === 'string') asked.set(name, value);
    try {
      return await check(new Request(url, { headers: asked }));
    } catch {
      return false;
    }
  }
  function answerGet(url: URL, path: string, response: ServerResponse) {
    // WebFinger answers for each actor by its `acct:` resource, as a handle's look-up asks.
    const document = url.pathname === '/.well-known/webfinger' ? documents.get(`webfinger:${url.searchParams.get('resource')}`) : documents.get(path);
    response.statusCode = document === undefined ? 404 : (document.status ?? 200);
    response.setHeader('Content-Type', document?.type ?? 'application/activity+json');
    response.end(document?.body ?? '{}');
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const host = new URL(origin).host;
  const url = (path: string) => new URL(path, origin).href;
  const serve = (path: string, document: unknown) => {
    documents.set(path, { type: 'application/activity+json', body: JSON.stringify(document) });
  };
  const serveFile = (path: string, type: string, body: Buffer) => {
    documents.set(path, { type, body });
  };
  const fail = (path: string, status: number) => {
    documents.set(path, { type: 'application/activity+json', body: '{}', status });
  };
  const webfinger = (name: string, self: string) => {
    const subject = `acct:${name}@${host}`;
    documents.set(`webfinger:${subject}`, {
      type: 'application/jrd+json',
      body: JSON.stringify({ subject, links: [{ rel: 'self', type: 'application/activity+json', href: self }] }),
    });
  };

  async function actor(name: string, options: ActorOptions = {}): Promise<FakeActor> {
    const pair = await testRsaKeyPair();
    // Kept and read back as JWK, as a real server stores its keys.
    const privateKey = await importJwk(await exportJwk(pair.privateKey), 'private');
    const path = `/users/${name}`;
    const id = url(path);
    const keyId = new URL(`${id}#main-key`);
    const sharedInbox = options.shared === false ? null : url('/shared-inbox');
    const values = {
      id: new URL(id),
      preferredUsername: name,
      summary: options.summary ?? null,
      url: new URL(url(`/@${name}`)),
      inbox: new URL(`${id}/inbox`),
      followers: new URL(`${id}/followers`),
      outbox: options.outbox ? new URL(url(options.outbox)) : null,
      endpoints: sharedInbox ? new Endpoints({ sharedInbox: new URL(sharedInbox) }) : null,
      icon: options.icon ? new Image({ url: new URL(url(options.icon)), mediaType: 'image/png' }) : null,
      publicKey: new CryptographicKey({ id: keyId, owner: new URL(id), publicKey: pair.publicKey }),
    };
    const document = options.type === 'Group' ? new Group(values) : new Person(values);
    const json = (await document.toJsonLd()) as Record<string, unknown>;
    serve(path, options.context ? { ...json, '@context': options.context } : json);
    webfinger(name, id);
    return { id, name, account: `${name}@${host}`, handle: `@${name}@${host}`, inbox: `${id}/inbox`, sharedInbox, followers: `${id}/followers`, keyId, privateKey };
  }

  const stall = (path: string, ms?: number) => {
    stalls.set(path, { ms, held: [] });
  };
  const release = (path: string) => {
    const held = stalls.get(path)?.held ?? [];
    stalls.delete(path);
    for (const answer of held) answer();
  };
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      // Requests still held would keep it open.
      server.closeAllConnections();
    });

  return { origin, host, received, asked, actor, serve, serveFile, fail, stall, release, webfinger, url, close };
}

/** An activity signed by the actor's key, as the request the instance's inbox at `url` is to receive. */
export async function signActivity(actor: FakeActor, url: string, activity: object): Promise<Request> {
  const body = JSON.stringify({ '@context': AS_CONTEXT, ...activity });
  return signRequest(new Request(url, { method: 'POST', headers: { 'content-type': 'application/activity+json' }, body }), actor.privateKey, actor.keyId);
}

/** Posts a request (signed or not) to the app, as it arrived from the network at `remoteAddress`. */
export async function injectSigned(app: FastifyInstance, request: Request, { remoteAddress }: { remoteAddress?: string } = {}) {
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const url = new URL(request.url);
  return app.inject({ method: 'POST', url: url.pathname, headers, payload: await request.text(), ...(remoteAddress ? { remoteAddress } : {}) });
}

/**
 * Posts an activity to one of the app's inboxes as a remote server would: signed with the
 * `signer`'s key (an activity's own actor, or someone else forging it), or unsigned for null.
 */
export async function deliverToInbox(app: FastifyInstance, inboxPath: string, activity: object, signer: FakeActor | null, options: { remoteAddress?: string } = {}) {
  const url = new URL(inboxPath, app.config.publicUrl).href;
  const request = signer
    ? await signActivity(signer, url, activity)
    : new Request(url, { method: 'POST', headers: { 'content-type': 'application/activity+json' }, body: JSON.stringify({ '@context': AS_CONTEXT, ...activity }) });
  return injectSigned(app, request, options);
}

/** The instance's own documents, read from the app (contexts from Fedify's copies). */
export function localLoader(app: FastifyInstance): DocumentLoader {
  return async (url) => {
    if (url in preloadedContexts) return { contextUrl: null, document: preloadedContexts[url], documentUrl: url };
    const res = await app.inject({ method: 'GET', url: new URL(url).pathname, headers: { accept: 'application/activity+json' } });
    return { contextUrl: null, document: res.json() as unknown, documentUrl: url };
  };
}

/** The id of the local actor whose published key signed a delivery the fake server received, or null. */
export async function signerOf(app: FastifyInstance, fediverse: FakeFediverse, delivery: Received): Promise<string | null> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(delivery.headers)) if (typeof value === 'string') headers.set(name, value);
  const request = new Request(`${fediverse.origin}${delivery.path}`, { method: 'POST', headers, body: delivery.body });
  const loader = localLoader(app);
  const key = await verifyRequest(request, { documentLoader: loader, contextLoader: loader });
  return key?.ownerId?.href ?? null;
}

/** The id of the local actor whose published key signed a GET the fake server received, or null when unsigned or not verified. */
export async function fetchSignerOf(app: FastifyInstance, request: Request): Promise<string | null> {
  const loader = localLoader(app);
  const key = await verifyRequest(request, { documentLoader: loader, contextLoader: loader });
  return key?.ownerId?.href ?? null;
}
