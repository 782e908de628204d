import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

/** Signing an app in as the tests do it: register, approve as a signed-in person, exchange the code. */

export interface RegisteredApp {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
}

export const REDIRECT = 'https://app.example/callback';

export async function registerApp(app: FastifyInstance, scopes = 'read write profile', redirects: string[] = [REDIRECT, 'urn:ietf:wg:oauth:2.0:oob']): Promise<RegisteredApp> {
  const res = await app.inject({ method: 'POST', url: '/api/v1/apps', payload: { client_name: 'Test app', redirect_uris: redirects, scopes, website: 'https://app.example' } });
  if (res.statusCode !== 200) throw new Error(`registration refused: ${res.body}`);
  return res.json();
}

/** A PKCE verifier and its S256 challenge. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** The code an approval puts in the app's address (with the state it hands back). */
export function codeIn(redirect: string): { code: string | null; state: string | null; error: string | null } {
  const url = new URL(redirect);
  return { code: url.searchParams.get('code'), state: url.searchParams.get('state'), error: url.searchParams.get('error') };
}

/** The body of a token request as a form, as most apps send it. */
export const form = (fields: Record<string, string>) => ({
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  payload: new URLSearchParams(fields).toString(),
});

/**
 * An access token of `user` for a new app granted `scope`, through the whole sign-in (approval as
 * the signed-in person, PKCE, the code exchanged), with the app's registration.
 */
export async function appSession(app: FastifyInstance, user: { auth: { authorization: string } }, scope = 'read write'): Promise<{ client: RegisteredApp; token: string }> {
  const client = await registerApp(app, scope);
  const { verifier, challenge } = pkcePair();
  const approval = await app.inject({
    method: 'POST',
    url: '/api/oauth/authorize',
    headers: user.auth,
    payload: { client_id: client.client_id, redirect_uri: REDIRECT, scope, response_type: 'code', approve: true, code_challenge: challenge, code_challenge_method: 'S256' },
  });
  if (approval.statusCode !== 200) throw new Error(`approval refused: ${approval.body}`);
  const code = codeIn(approval.json().redirect).code!;
  const fields = { grant_type: 'authorization_code', client_id: client.client_id, code, redirect_uri: REDIRECT, code_verifier: verifier };
  const res = await app.inject({ method: 'POST', url: '/oauth/token', ...form(fields) });
  if (res.statusCode !== 200) throw new Error(`token refused: ${res.body}`);
  return { client, token: res.json().access_token as string };
}

/** What an app sends as `Authorization: Bearer` for `user` (see appSession). */
export async function appToken(app: FastifyInstance, user: { auth: { authorization: string } }, scope = 'read write'): Promise<string> {
  return (await appSession(app, user, scope)).token;
}
