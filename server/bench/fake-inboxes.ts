import { type IncomingMessage, Server, type ServerResponse, createServer } from 'node:http';
import { type AddressInfo, type Socket, createServer as createTcpServer } from 'node:net';
import { type DocumentLoader, preloadedContexts, verifyRequest } from '@fedify/fedify';
import { freePort } from '../tests/helpers/free-port';

/**
 * Many remote servers in one process, each on its own port of 127.0.0.1, for the federation
 * fan-out benchmark and its test. A live server checks every delivery's HTTP signature against the
 * key its signer publishes (read once from the signer's own server, as a receiving server does),
 * answers 401 to one that fails and 202 to one that passes, and counts what it took per inbox. A
 * dead server either refuses connections (nothing listens on its port) or accepts them and never
 * answers, so the sender's connect and request timeouts both come into play.
 */

export type ServerMode = 'live' | 'refuse' | 'hang';

export interface ServerPlan {
  mode: ServerMode;
  /** Whether the server offers a shared inbox (one delivery stands for all its followers). */
  shared: boolean;
  /** How many of its accounts follow the author. */
  followers: number;
}

export interface FakeFollower {
  id: string;
  inbox: string;
  sharedInbox: string | null;
}

export interface FakeServer {
  origin: string;
  mode: ServerMode;
  shared: boolean;
  followers: FakeFollower[];
}

/** What the servers took of one activity. */
export interface ActivityReport {
  /** Live servers every inbox of which the activity was meant for took it. */
  liveReached: number;
  /** When the first live server took it (epoch ms). */
  firstAt: number;
  /** When the last of those took it (epoch ms), null while some live server still waits. */
  allLiveAt: number | null;
  /** When each live server had all of it (epoch ms), in order. */
  reachedAt: number[];
  /** Deliveries taken (signature verified). */
  delivered: number;
  /** Deliveries of the activity a server took once already: to the same inbox, or to any of a server with a shared inbox. */
  duplicates: number;
}

export interface InboxReport {
  live: number;
  dead: number;
  /** Requests answered 401 because their signature did not verify (or named no key). */
  unverified: number;
  /** Requests that could not be read as an activity (no id). */
  malformed: number;
  /** Connections the never-answering servers accepted. */
  hungConnections: number;
  /** Each activity id seen, with what was taken of it. */
  activities: Record<string, ActivityReport>;
  /** The first few refusals, to say why. */
  failures: string[];
}

export interface FakeInboxes {
  servers: FakeServer[];
  report(): InboxReport;
  close(): Promise<void>;
}

export interface FakeInboxOptions {
  plans: ServerPlan[];
  /**
   * Origins whose documents (the signers' actors and keys) may be read to check a signature; any
   * other key is refused, so a delivery signed by a key of a server nobody trusts does not count.
   */
  trusted: (url: URL) => boolean;
}

interface LiveServer {
  server: FakeServer;
  /** The inboxes an activity for every follower must reach: the shared one, or each follower's. */
  expected: Set<string>;
  /** Per activity: the inboxes (path) that took it, and how often. */
  taken: Map<string, Map<string, number>>;
}

/** Reads JSON-LD contexts from Fedify's copies and every other document over HTTP once, from trusted origins only. */
function cachingLoader(trusted: (url: URL) => boolean): DocumentLoader {
  const cache = new Map<string, Promise<unknown>>();
  return async (url) => {
    if (url in preloadedContexts) return { contextUrl: null, document: preloadedContexts[url], documentUrl: url };
    const address = new URL(url);
    address.hash = '';
    if (!trusted(address)) throw new Error(`untrusted document ${url}`);
    let document = cache.get(address.href);
    if (!document) {
      document = fetch(address, { headers: { accept: 'application/activity+json' } }).then(async (response) => {
        if (!response.ok) throw new Error(`${address.href} answered ${response.status}`);
        return response.json() as Promise<unknown>;
      });
      cache.set(address.href, document);
      document.catch(() => cache.delete(address.href));
    }
    return { contextUrl: null, document: await document, documentUrl: url };
  };
}

const readBody = (request: IncomingMessage) =>
  new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });

export async function startFakeInboxes({ plans, trusted }: FakeInboxOptions): Promise<FakeInboxes> {
  const loader = cachingLoader(trusted);
  const http: Server[] = [];
  const tcp: ReturnType<typeof createTcpServer>[] = [];
  const held = new Set<Socket>();
  const lives: LiveServer[] = [];
  const failures: string[] = [];
  let unverified = 0;
  let malformed = 0;
  let hungConnections = 0;
  const servers: FakeServer[] = [];
  /** When each activity reached the last of the live servers it had to. */
  const reachedAt = new Map<string, Map<LiveServer, number>>();
  const firstAt = new Map<string, number>();

  const fail = (why: string) => {
    if (failures.length < 20) failures.push(why);
  };

  async function take(live: LiveServer, request: IncomingMessage, response: ServerResponse) {
    const body = await readBody(request);
    if (request.method !== 'POST') {
      response.statusCode = 404;
      response.end();
      return;
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) if (typeof value === 'string') headers.set(name, value);
    const path = request.url ?? '/';
    const signed = new Request(new URL(path, live.server.origin), { method: 'POST', headers, body });
    let key;
    try {
      key = await verifyRequest(signed, { documentLoader: loader, contextLoader: loader });
    } catch (err) {
      fail(`${live.server.origin}${path}: ${(err as Error).message}`);
    }
    if (!key) {
      unverified++;
      response.statusCode = 401;
      response.end();
      return;
    }
    let id: unknown;
    try {
      id = (JSON.parse(body.toString('utf8')) as { id?: unknown }).id;
    } catch {
      id = undefined;
    }
    if (typeof id !== 'string') {
      malformed++;
      response.statusCode = 400;
      response.end();
      return;
    }
    if (!firstAt.has(id)) firstAt.set(id, Date.now());
    let inboxes = live.taken.get(id);
    if (!inboxes) live.taken.set(id, (inboxes = new Map()));
    inboxes.set(path, (inboxes.get(path) ?? 0) + 1);
    if ([...live.expected].every((inbox) => inboxes.has(inbox))) {
      let reached = reachedAt.get(id);
      if (!reached) reachedAt.set(id, (reached = new Map()));
      if (!reached.has(live)) reached.set(live, Date.now());
    }
    response.statusCode = 202;
    response.end();
  }

  /** A live or silent server listens on a port the system picks; a refusing one is given one nothing listens on. */
  const listen = (server: Server | ReturnType<typeof createTcpServer>) =>
    new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));

  /** Takes the connection and the request, and says nothing until the sender gives up. */
  function silentServer() {
    return createTcpServer((socket) => {
      hungConnections++;
      held.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => held.delete(socket));
      socket.resume();
    });
  }

  const byPort = new Map<number, LiveServer>();
  function answer(request: IncomingMessage, response: ServerResponse) {
    const live = byPort.get(request.socket.localPort ?? 0);
    if (!live) {
      response.statusCode = 503;
      response.end();
      return;
    }
    take(live, request, response).catch((err: unknown) => {
      fail(`${live.server.origin}: ${(err as Error).message}`);
      response.statusCode = 500;
      response.end();
    });
  }

  let follower = 0;
  for (const plan of plans) {
    const listener = plan.mode === 'refuse' ? null : plan.mode === 'hang' ? silentServer() : createServer((request, response) => answer(request, response));
    const port = listener ? await listen(listener) : await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const sharedInbox = plan.shared ? `${origin}/inbox` : null;
    const followers = Array.from({ length: plan.followers }, (): FakeFollower => {
      const id = `${origin}/users/f${++follower}`;
      return { id, inbox: `${id}/inbox`, sharedInbox };
    });
    const server: FakeServer = { origin, mode: plan.mode, shared: plan.shared, followers };
    servers.push(server);
    if (!listener) continue;
    if (!(listener instanceof Server)) {
      tcp.push(listener);
      continue;
    }
    const paths = (inbox: string) => new URL(inbox).pathname;
    const live: LiveServer = {
      server,
      expected: new Set(sharedInbox ? [paths(sharedInbox)] : followers.map((f) => paths(f.inbox))),
      taken: new Map(),
    };
    lives.push(live);
    byPort.set(port, live);
    http.push(listener);
  }

  function report(): InboxReport {
    const activities: Record<string, ActivityReport> = {};
    const ids = new Set(lives.flatMap((live) => [...live.taken.keys()]));
    for (const id of ids) {
      let delivered = 0;
      let duplicates = 0;
      for (const live of lives) {
        const inboxes = live.taken.get(id);
        if (!inboxes) continue;
        const counts = [...inboxes.values()];
        const total = counts.reduce((sum, n) => sum + n, 0);
        delivered += total;
        // A server with a shared inbox should take an activity once in all; one without, once per inbox.
        duplicates += live.server.shared ? total - 1 : counts.reduce((sum, n) => sum + n - 1, 0);
      }
      const reached = reachedAt.get(id) ?? new Map<LiveServer, number>();
      const liveReached = reached.size;
      const allLiveAt = liveReached === lives.length ? Math.max(...reached.values()) : null;
      activities[id] = { liveReached, firstAt: firstAt.get(id)!, allLiveAt, reachedAt: [...reached.values()].sort((a, b) => a - b), delivered, duplicates };
    }
    return { live: lives.length, dead: servers.length - lives.length, unverified, malformed, hungConnections, activities, failures: [...failures] };
  }

  async function close(): Promise<void> {
    for (const socket of held) socket.destroy();
    await Promise.all([
      ...http.map((server) => new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      })),
      ...tcp.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))),
    ]);
  }

  return { servers, report, close };
}
