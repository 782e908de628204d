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
