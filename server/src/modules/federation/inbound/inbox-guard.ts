import { AsyncLocalStorage } from 'node:async_hooks';
import type { InboxListenerSetters } from '@fedify/fedify';
import type { Activity } from '@fedify/fedify/vocab';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { badRequest, forbidden, tooMany, unauthorized } from '../../../lib/app-error.js';
import { type RateRule, secondsUntilSlot, tryTakeSlot } from '../../../lib/rate-limit.js';
import { hostOf, isHostBlocked, isRemoteActorAllowed } from '../boundaries.js';
import { importsContext } from '../../remote/context-imports.js';

/**
 * What every request to an inbox passes before Fedify reads it, cheapest first: the body's size is
 * bounded on the route (INBOX_BODY_LIMIT, 413); each network address may post only so many an
 * hour, counted in the database so every server process shares the count (429 with Retry-After);
 * a request with no signature is refused (401), as Fedify would read its body, and fetch what it
 * names, before finding none; so is a body nested deeper than any activity (400), one importing a
 * JSON-LD context (400, see context-imports.ts), and a request whose signing key or actor is on a
 * blocked domain, or whose actor's account is suspended (403).
 * The key's host is read here unverified, which can only make a forger refused, never let it
 * through. The JSON-LD contexts a body names need no check: they are never fetched (knownContextLoader).
 *
 * The signature is Fedify's to check afterwards; only once it has, each remote server's budget is
 * taken (chargeSenders), so a forger naming another server's key cannot spend that server's budget.
 */

/** An inbox request's largest body: a long post with its attachments and tags fits many times over. */
export const INBOX_BODY_LIMIT = 256 * 1024;

/**
 * How deeply an inbox body may nest objects and arrays. Reading JSON-LD goes one level deeper in
 * the stack for each, so a body thousands of levels deep ends the request in a stack overflow;
 * real activities (an Announce of a Create of a Note with its tags and attachments) nest under ten.
 */
export const MAX_BODY_DEPTH = 64;

/** The `keyId` a request's signature names (an HTTP Signatures `Signature` header or an RFC 9421 `Signature-Input`). */
export function keyIdOf(request: FastifyRequest): string | null {
  for (const name of ['signature', 'signature-input']) {
    const value = request.headers[name];
    const match = typeof value === 'string' ? /keyid="([^"]+)"/i.exec(value) : null;
    if (match) return match[1]!;
  }
  return null;
}

/** Whether the JSON text nests objects and arrays deeper than `max`, read without parsing it. */
function nestsDeeperThan(text: Buffer, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const byte = text[i];
    if (inString) {
      // A backslash escapes the next character, a quote among them. UTF-8 continuation bytes are
      // never ASCII, so a multi-byte character cannot pass for one of these.
      if (byte === 0x5c) i++;
      else if (byte === 0x22) inString = false;
    } else if (byte === 0x22) inString = true;
    else if (byte === 0x7b || byte === 0x5b) {
      if (++depth > max) return true;
    } else if (byte === 0x7d || byte === 0x5d) depth--;
  }
  return false;
}

/**
 * The body as a value. It is bytes for the activity types, parsed here once their nesting is known
 * to be bounded (undefined when not JSON, which Fedify refuses); a sender calling it plain JSON gets
 * it parsed by Fastify's own parser, and it never reaches Fedify.
 */
function bodyOf(body: unknown): unknown {
  if (!Buffer.isBuffer(body)) return body;
  if (nestsDeeperThan(body, MAX_BODY_DEPTH)) throw badRequest('activity_too_deep');
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** The actor an activity names, as an IRI: a string, or an object with an id (the first, when it names several). */
function actorOf(activity: unknown): string | null {
  let actor = typeof activity === 'object' && activity !== null ? (activity as { actor?: unknown }).actor : undefined;
  if (Array.isArray(actor)) actor = actor[0];
  if (typeof actor === 'string') return actor;
  const id = typeof actor === 'object' && actor !== null ? (actor as { id?: unknown }).id : undefined;
  return typeof id === 'string' ? id : null;
}

/** Takes a slot of the rule; null when taken, else the seconds until one frees. */
async function slotOrWait(app: FastifyInstance, rule: RateRule): Promise<number | null> {
  return (await tryTakeSlot(app.db, rule)) ? null : secondsUntilSlot(app.db, rule);
}

/** The preHandler of the inbox routes. */
export async function guardInbox(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (request.method !== 'POST') return;
  const rates = app.config.rates;
  const wait = await slotOrWait(app, { key: `inbox:ip:${request.ip}`, max: rates.inboxPostsPerAddressPerHour, windowMs: rates.windowMs });
  if (wait !== null) {
    reply.header('Retry-After', String(wait));
    throw tooMany('inbox_limit');
  }
  if (!request.headers.signature) throw unauthorized('activity_unsigned');
  const body = bodyOf(request.body);
  if (importsContext(body)) throw badRequest('activity_imports_context');
  const keyId = keyIdOf(request);
  const actor = actorOf(body);
  for (const host of [keyId ? hostOf(keyId) : null, actor ? hostOf(actor) : null]) {
    if (host && (await isHostBlocked(app.db, host))) throw forbidden('remote_blocked');
  }
  if (actor && !(await isRemoteActorAllowed(app.db, actor))) throw forbidden('remote_blocked');
}

/** An inbox request while Fedify handles it: the seconds its sender's server must wait, once over its budget. */
interface InboxRequestState {
  retryAfter: number | null;
}

const inboxRequests = new AsyncLocalStorage<InboxRequestState>();

/**
 * Fedify's handling of an inbox request, or 429 (with Retry-After) when the verified sender's
 * server turned out to be over its budget (chargeSenders).
 */
export async function answerInbox(reply: FastifyReply, handle: () => Promise<Response>): Promise<Response> {
  const state: InboxRequestState = { retryAfter: null };
  const response = await inboxRequests.run(state, handle);
  if (state.retryAfter === null) return response;
  reply.header('Retry-After', String(state.retryAfter));
  throw tooMany('inbox_limit');
}

/**
 * Has every inbox listener first take a slot of the hourly budget of the sender's server: the host
 * of the activity's actor, whom Fedify has verified as the signer by the time a listener runs. Over
 * the budget, the listener fails before acting, so Fedify neither handles the activity nor marks it
 * handled (a retry later is taken), and the request is answered 429 (answerInbox).
 */
export function chargeSenders(app: FastifyInstance, setters: InboxListenerSetters<void>): InboxListenerSetters<void> {
  const on = setters.on.bind(setters);
  setters.on = (type, listener) =>
    on(type, async (ctx, activity) => {
      await takeSenderSlot(app, activity);
      await listener(ctx, activity);
    });
  return setters;
}

async function takeSenderSlot(app: FastifyInstance, activity: Activity): Promise<void> {
  const host = activity.actorId ? hostOf(activity.actorId.href) : null;
  if (!host) return;
  const rates = app.config.rates;
  const wait = await slotOrWait(app, { key: `inbox:host:${host}`, max: rates.inboxPostsPerHostPerHour, windowMs: rates.windowMs });
  if (wait === null) return;
  const state = inboxRequests.getStore();
  if (state) state.retryAfter = wait;
  throw new Error(`${host} is over its inbox budget`);
}
