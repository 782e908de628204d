import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { forbidden, tooMany } from '../../lib/app-error.js';
import { type RateRule, secondsUntilSlot, tryTakeSlot } from '../../lib/rate-limit.js';
import { hostOf, isHostBlocked, isRemoteActorAllowed } from './boundaries.js';

/**
 * What every request to an inbox passes before Fedify reads it: the body's size is bounded on the
 * route (INBOX_BODY_LIMIT, 413), then a request whose signing key or actor is on a blocked domain,
 * or whose actor's account is suspended, is refused (403), then each remote server (by its key's
 * host, else its actor's) and each network address may post only so many activities an hour, counted
 * in the database so every server process shares the count (429 with Retry-After). The signature
 * itself is Fedify's to check afterwards; the key's host is read here unverified, which can only
 * make a forger refused or counted, never let it through.
 */

/** An inbox request's largest body: a long post with its attachments and tags fits many times over. */
export const INBOX_BODY_LIMIT = 256 * 1024;

/** The `keyId` a request's signature names (an HTTP Signatures `Signature` header or an RFC 9421 `Signature-Input`). */
function keyIdOf(request: FastifyRequest): string | null {
  for (const name of ['signature', 'signature-input']) {
    const value = request.headers[name];
    const match = typeof value === 'string' ? /keyid="([^"]+)"/i.exec(value) : null;
    if (match) return match[1]!;
  }
  return null;
}

/**
 * The actor an activity names, as an IRI: a string, or an object with an id (the first, when it
 * names several). The body is bytes for the activity types; a sender calling it plain JSON gets it
 * parsed by Fastify's own parser.
 */
function actorOf(body: unknown): string | null {
  let activity: unknown = body;
  if (Buffer.isBuffer(body)) {
    try {
      activity = JSON.parse(body.toString('utf8'));
    } catch {
      return null;
    }
  }
  let actor = typeof activity === 'object' && activity !== null ? (activity as { actor?: unknown }).actor : undefined;
  if (Array.isArray(actor)) actor = actor[0];
  if (typeof actor === 'string') return actor;
  const id = typeof actor === 'object' && actor !== null ? (actor as { id?: unknown }).id : undefined;
  return typeof id === 'string' ? id : null;
}

/** Takes a slot of each rule, all or none; refuses with 429 and the seconds until the refused rule frees one. */
async function takeSlots(app: FastifyInstance, reply: FastifyReply, rules: RateRule[]): Promise<void> {
  const refused = await app.db.transaction().execute(async (trx) => {
    for (const rule of rules) if (!(await tryTakeSlot(trx, rule))) return rule;
    return null;
  });
  if (!refused) return;
  reply.header('Retry-After', String(await secondsUntilSlot(app.db, refused)));
  throw tooMany('inbox_limit');
}

/** The preHandler of the inbox routes. */
export async function guardInbox(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (request.method !== 'POST') return;
  const keyId = keyIdOf(request);
  const actor = actorOf(request.body);
  const keyHost = keyId ? hostOf(keyId) : null;
  for (const host of [keyHost, actor ? hostOf(actor) : null]) {
    if (host && (await isHostBlocked(app.db, host))) throw forbidden('remote_blocked');
  }
  if (actor && !(await isRemoteActorAllowed(app.db, actor))) throw forbidden('remote_blocked');
  const rates = app.config.rates;
  const host = keyHost ?? (actor ? hostOf(actor) : null);
  const rules: RateRule[] = [{ key: `inbox:ip:${request.ip}`, max: rates.inboxPostsPerAddressPerHour, windowMs: rates.windowMs }];
  if (host) rules.unshift({ key: `inbox:host:${host}`, max: rates.inboxPostsPerHostPerHour, windowMs: rates.windowMs });
  await takeSlots(app, reply, rules);
}
