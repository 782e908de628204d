import { type ECDH, createECDH, createPublicKey, randomBytes, verify } from 'node:crypto';
import { type IncomingHttpHeaders, type Server, createServer } from 'node:http';
import { createRequire } from 'node:module';
import { type AddressInfo, type Socket, createServer as createNetServer } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { PUSH_JOB } from '../../src/modules/notifications/push/push.job';
import { type TestUser, call } from '../helpers/fixtures';

/**
 * A push service and a device, both in the test: the service is a local HTTP server that keeps
 * every message posted to it, and the device is a P-256 key pair with a 16-byte auth secret made
 * here, so a message can be decrypted (RFC 8291, aes128gcm) exactly as a browser would.
 */

interface Ece {
  decrypt(buffer: Buffer, params: { version: 'aes128gcm'; privateKey: ECDH; authSecret: Buffer }): Buffer;
}
// http_ece comes with web-push (its own encryption library) and has no types of its own.
const ece = createRequire(import.meta.url)('http_ece') as Ece;

export interface ReceivedPush {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface FakePushService {
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  received: ReceivedPush[];
  /** The status the service answers for a path (default 201 Created, as real services do). */
  answer(path: string, status: number): void;
  close(): Promise<void>;
}

export async function startPushService(): Promise<FakePushService> {
  const received: ReceivedPush[] = [];
  const answers = new Map<string, number>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      received.push({ path, headers: request.headers, body: Buffer.concat(chunks) });
      response.statusCode = answers.get(path) ?? 201;
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    answer: (path, status) => void answers.set(path, status),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface TestDevice {
  ecdh: ECDH;
  authSecret: Buffer;
  /** What the browser's `subscription.toJSON()` gives. */
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } };
  path: string;
}

let devices = 0;

/** A browser's subscription at the fake service, with the keys to read what it receives. */
export function newDevice(service: FakePushService): TestDevice {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const authSecret = randomBytes(16);
  const path = `/push/device-${++devices}-${randomBytes(4).toString('hex')}`;
  return {
    ecdh,
    authSecret,
    path,
    subscription: { endpoint: `${service.origin}${path}`, keys: { p256dh: ecdh.getPublicKey('base64url'), auth: authSecret.toString('base64url') } },
  };
}

/** The message as the device reads it. */
export function decryptPush(device: TestDevice, push: ReceivedPush): unknown {
  const plain = ece.decrypt(push.body, { version: 'aes128gcm', privateKey: device.ecdh, authSecret: device.authSecret });
  return JSON.parse(plain.toString('utf8'));
}

/**
 * Checks the VAPID header (RFC 8292) the way a push service does: `vapid t=<JWT>, k=<public key>`,
 * the JWT signed (ES256) by that key, for this service's origin, not yet expired. Answers its claims.
 */
export function verifyVapid(push: ReceivedPush, origin: string): { aud: string; exp: number; sub: string; k: string } {
  const header = String(push.headers.authorization ?? '');
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header);
  if (!match) throw new Error(`not a VAPID authorization: ${header}`);
  const [, jwt, k] = match as unknown as [string, string, string];
  const [head, claims, signature] = jwt.split('.') as [string, string, string];
  const point = Buffer.from(k, 'base64url');
  const key = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') },
    format: 'jwk',
  });
  const valid = verify('sha256', Buffer.from(`${head}.${claims}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'));
  if (!valid) throw new Error('the VAPID JWT is not signed by its key');
  const parsed = JSON.parse(Buffer.from(claims, 'base64url').toString('utf8')) as { aud: string; exp: number; sub: string };
  if (parsed.aud !== origin) throw new Error(`VAPID audience ${parsed.aud}, expected ${origin}`);
  if (parsed.exp * 1000 < Date.now()) throw new Error('VAPID JWT expired');
  return { ...parsed, k };
}

/** An address on the public internet (example.com's), for an endpoint that passes the guard without DNS. */
export const PUBLIC_ADDRESS = '93.184.215.14';

export const subscribe = (app: FastifyInstance, user: TestUser | null, payload: unknown) =>
  call(app, user, { method: 'POST', url: '/api/push/subscribe', payload: payload as object });

export const rowsOf = (app: FastifyInstance, endpoint: string) =>
  app.db.selectFrom('push_subscriptions').select(['user_id', 'p256dh', 'auth']).where('endpoint', '=', endpoint).execute();

export const pushJobs = (app: FastifyInstance) => app.db.selectFrom('jobs').selectAll().where('kind', '=', PUSH_JOB).execute();

export interface SilentService {
  port: number;
  /** Connections accepted so far, open or closed. */
  accepted: number;
  /** The connections still open. */
  open: Set<Socket>;
  /** The most connections that were open at once. */
  peak: number;
  close(): Promise<void>;
}

/** A server on this machine that accepts TCP connections and never says a word back (a hung push service). */
export async function startSilentService(): Promise<SilentService> {
  const open = new Set<Socket>();
  const state = { accepted: 0, peak: 0 };
  const server = createNetServer((socket) => {
    state.accepted++;
    open.add(socket);
    state.peak = Math.max(state.peak, open.size);
    socket.on('error', () => {});
    socket.on('close', () => open.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    get accepted() {
      return state.accepted;
    },
    get peak() {
      return state.peak;
    },
    open,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
