import type { FastifyRequest } from 'fastify';
import { grantsScope } from '#core/client-apps';
import { AppError } from '../../lib/app-error.js';
import { contextOf } from '../../lib/service-context.js';
import type { Viewer } from '../../lib/viewer.js';
import { bearer } from '../../plugins/auth.js';
import { type TokenHolder, tokenHolder } from './oauth.service.js';

/**
 * Who calls the client API: the account an app acts for and the scopes its person granted it.
 * Every handler of the adapter asks here, so one place turns an app's access token into a caller
 * and one place refuses a token that was not granted what the call needs.
 */
export interface ClientCaller {
  viewer: Viewer;
  /** The scopes granted to the token, each top scope standing for its sub-scopes. */
  scopes: readonly string[];
  /** The token's row, and the token as the app sent it: what is kept per token (a push subscription) names them. */
  token: { id: string; secret: string };
}

/** A token in force as the request sent it, and who holds it. */
interface PresentedToken {
  holder: TokenHolder;
  secret: string;
}

/** Asked once per request, however many times a handler and its helpers ask. */
const presented = new WeakMap<FastifyRequest, Promise<PresentedToken | null>>();

/**
 * The request's access token and its holder, null without one. `otherToken` is one the request
 * carries elsewhere than its Authorization header, read when the header has none.
 */
function presentedToken(request: FastifyRequest, otherToken?: string): Promise<PresentedToken | null> {
  let token = presented.get(request);
  if (!token) {
    token = resolve(request, bearer(request) ?? otherToken);
    presented.set(request, token);
  }
  return token;
}

async function resolve(request: FastifyRequest, secret: string | undefined): Promise<PresentedToken | null> {
  if (!secret) return null;
  const holder = await tokenHolder(contextOf(request.server), secret);
  // A token that is no token in force is refused rather than read as a visitor, so an app notices
  // that its person must sign in again.
  if (!holder) throw new AppError(401, 'invalid_token');
  return { holder, secret };
}

/**
 * The caller of a request, or null for one without an access token (a visitor) or with the app's
 * own token; a token revoked, of a suspended account or from before its password changed answers
 * invalid_token. `otherToken` is one the request carries elsewhere than its Authorization header
 * (a WebSocket's opening request, which browsers cannot give headers), read when the header has none.
 */
export async function clientCaller(request: FastifyRequest, otherToken?: string): Promise<ClientCaller | null> {
  const token = await presentedToken(request, otherToken);
  // An app's own token (no account) reads what a visitor reads.
  const viewer = token?.holder.viewer;
  if (!token || !viewer) return null;
  return { viewer, scopes: token.holder.scopes, token: { id: token.holder.tokenId, secret: token.secret } };
}

/** The app whose token calls, its own or one acting for an account; no token answers no_token. */
export async function callingAppId(request: FastifyRequest): Promise<string> {
  const token = await presentedToken(request);
  if (!token) throw new AppError(401, 'no_token');
  return token.holder.appId;
}

/** The caller of a call that needs `scope`; no token answers no_token, one without the scope insufficient_scope. */
export async function requireCaller(request: FastifyRequest, scope: string): Promise<ClientCaller> {
  const caller = await clientCaller(request);
  if (!caller) throw new AppError(401, 'no_token');
  if (!grantsScope(caller.scopes, scope)) throw new AppError(403, 'insufficient_scope');
  return caller;
}

/** The viewer of a call that needs `scope` (see requireCaller). */
export async function requireScope(request: FastifyRequest, scope: string): Promise<Viewer> {
  return (await requireCaller(request, scope)).viewer;
}
