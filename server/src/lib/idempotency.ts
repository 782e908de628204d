import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { newTransaction } from '../db/helpers.js';
import { reusableQuery } from '../db/reusable-query.js';
import type { Db, Executor } from '../db/schema.js';
import { AppError } from './app-error.js';

export interface StoredReply<T> {
  status: number;
  body: T;
}

export const IDEMPOTENCY_HEADER = 'idempotency-key';
const KEY_PATTERN = /^[A-Za-z0-9_-]{8,128}$/;

/** The Idempotency-Key of a request, when present and well formed. */
export function idempotencyKey(headers: Record<string, string | string[] | undefined>): string | undefined {
  const value = headers[IDEMPOTENCY_HEADER];
  const key = Array.isArray(value) ? value[0] : value;
  return key && KEY_PATTERN.test(key) ? key : undefined;
}

/** A keyed request: its key, the endpoint it was sent to and a fingerprint of what it asked. */
export interface IdempotentRequest {
  key: string;
  /** Method and route pattern, e.g. `PATCH /api/post/:postId/like`. */
  route: string;
  /** SHA-256 of the method, route, params and body (see canonicalJson). */
  hash: string;
}

const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');

/**
 * JSON with object keys sorted and undefined fields dropped, so two bodies that mean the same
 * (keys in another order) get the same fingerprint. Bytes (an uploaded file) stand in by their hash.
 */
export function canonicalJson(value: unknown): string {
  if (value === undefined || value === null) return 'null';
  if (Buffer.isBuffer(value)) return JSON.stringify(`sha256:${sha256(value)}`);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, field]) => field !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([name, field]) => `${JSON.stringify(name)}:${canonicalJson(field)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * The request's Idempotency-Key with its endpoint and fingerprint, or undefined without a key.
 * `body` defaults to the parsed body; a multipart route passes its fields and file bytes instead.
 */
export function idempotentRequest(request: FastifyRequest, body: unknown = request.body): IdempotentRequest | undefined {
  const key = idempotencyKey(request.headers);
  if (!key) return undefined;
  const route = `${request.method} ${request.routeOptions.url ?? request.url}`;
  return { key, route, hash: sha256(canonicalJson({ method: request.method, route, params: request.params, body })) };
}

const claimKeyQuery = reusableQuery((db, userId: string, key: string, route: string, hash: string, now: number) =>
  db
    .insertInto('idempotency_keys')
    .values({ user_id: userId, key, route, request_hash: hash, status: null, body: null, created_at: now })
    .onConflict((oc) => oc.columns(['user_id', 'key']).doNothing()));
const storedKeyQuery = reusableQuery((db, userId: string, key: string) =>
  db.selectFrom('idempotency_keys').select(['route', 'request_hash', 'status', 'body']).where('user_id', '=', userId).where('key', '=', key));
const storeReplyQuery = reusableQuery((db, hash: string, status: number, body: string, userId: string, key: string) =>
  db.updateTable('idempotency_keys').set({ request_hash: hash, status, body }).where('user_id', '=', userId).where('key', '=', key));

/**
 * Runs a creating call once per (user, key). The key row, the change and the stored answer are
 * written in one transaction, so a crash can never leave a change without its answer: a retry
 * either replays the stored answer or runs the change for the first time. Concurrent retries
 * wait on the key's unique index. A refused call (thrown error) rolls back with its key, so the
 * retry is judged again.
 *
 * A key belongs to one request: sent again to another endpoint, or with other params or another
 * body, it is refused (422 idempotency_mismatch) rather than replaying an answer to a different
 * question or running a second change under a key the client believes already used.
 */
export async function runOnce<T>(
  db: Db,
  userId: string,
  request: IdempotentRequest | undefined,
  create: (trx: Executor) => Promise<StoredReply<T>>,
): Promise<StoredReply<T> & { replayed: boolean }> {
  if (!request) {
    const reply = await newTransaction(db, create);
    return { ...reply, replayed: false };
  }
  const { key, route, hash } = request;
  return newTransaction(db, async (trx) => {
    const inserted = await claimKeyQuery.changes(trx, userId, key, route, hash, Date.now());
    if (inserted === 0) {
      const stored = await storedKeyQuery.first(trx, userId, key);
      if (!stored) throw new Error('idempotency key vanished inside its transaction');
      // A key stored before requests were fingerprinted has no hash: its endpoint is all we know.
      if (stored.route !== route || (stored.request_hash !== null && stored.request_hash !== hash)) {
        throw new AppError(422, 'idempotency_mismatch');
      }
      if (stored.status !== null && stored.body !== null) {
        return { status: stored.status, body: JSON.parse(stored.body) as T, replayed: true };
      }
    }
    const reply = await create(trx);
    await storeReplyQuery.run(trx, hash, reply.status, JSON.stringify(reply.body), userId, key);
    return { ...reply, replayed: false };
  });
}

/** Keys older than this are forgotten; an offline client retries well within it. */
export const IDEMPOTENCY_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export async function purgeIdempotencyKeys(db: Executor, now: number = Date.now()): Promise<void> {
  await db.deleteFrom('idempotency_keys').where('created_at', '<', now - IDEMPOTENCY_TTL_MS).execute();
}
