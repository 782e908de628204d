import type { FastifyRequest } from 'fastify';
import { AppError } from '../../lib/app-error.js';
import type { Viewer } from '../../lib/viewer.js';

/**
 * Who calls the client API: the account an app acts for and the scopes its person granted it.
 * Every handler of the adapter asks here, so one place turns an app's access token into a caller
 * and one place refuses a token that was not granted what the call needs.
 */
export interface ClientCaller {
  viewer: Viewer;
  /** The scopes granted to the token, each top scope standing for its sub-scopes. */
  scopes: readonly string[];
}

/** The caller of a request, or null for one without an access token (a visitor). */
export async function clientCaller(_request: FastifyRequest): Promise<ClientCaller | null> {
  // No access tokens are issued yet: every caller is a visitor until the sign-in of apps lands.
  return null;
}

/** The viewer of a call that needs `scope`; no token answers no_token, one without the scope insufficient_scope. */
export async function requireScope(request: FastifyRequest, scope: string): Promise<Viewer> {
  const caller = await clientCaller(request);
  if (!caller) throw new AppError(401, 'no_token');
  const top = scope.split(':')[0] ?? scope;
  if (!caller.scopes.includes(scope) && !caller.scopes.includes(top)) throw new AppError(403, 'insufficient_scope');
  return caller.viewer;
}
